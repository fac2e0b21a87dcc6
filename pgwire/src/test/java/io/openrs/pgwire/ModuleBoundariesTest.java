package io.openrs.pgwire;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * What the design says module {@code pgwire} must not do: it speaks PostgreSQL's protocol for
 * whatever backend plugs in, and knows nothing of replication, the RSSD or any database driver. The
 * build fails when a class breaks it.
 */
class ModuleBoundariesTest {
  private static final JavaClasses PGWIRE =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.openrs.pgwire");

  @Test
  void pgwireUsesNoDatabaseApi() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("java.sql..", "javax.sql..", "org.postgresql..")
        .because("the server side of the protocol has no database behind it (tests may use JDBC)")
        .check(PGWIRE);
  }

  @Test
  void pgwireDependsOnNoOtherModule() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.openrs.ltl..",
            "io.openrs.wire..",
            "io.openrs.queue..",
            "io.openrs.config..",
            "io.openrs.repserver..",
            "io.openrs.dsi..",
            "io.openrs.repagent..")
        .because("the backend plugs in through PgBackend; pgwire is generic")
        .check(PGWIRE);
  }

  @Test
  void threadsAreNamedThroughTheRuntimeModule() {
    noClasses()
        .should()
        .callConstructor(Thread.class, Runnable.class, String.class)
        .orShould()
        .callConstructor(Thread.class, Runnable.class)
        .orShould()
        .callConstructor(Thread.class)
        .because(
            "threads are WorkerThreads or come from ThreadNames, named rs-<module>-<component>")
        .check(PGWIRE);
  }
}
