package io.openrs.wire;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * What the design says module {@code wire} must not do: it is the transport between agent and
 * server and knows neither side's machinery (queues, RSSD, appliers, Debezium) nor any database.
 * The build fails when a class breaks it.
 */
class ModuleBoundariesTest {
  private static final JavaClasses WIRE =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.openrs.wire");

  @Test
  void wireKnowsNoDatabase() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("java.sql..", "javax.sql..")
        .because("the transport carries LTL text, it never touches a database")
        .check(WIRE);
  }

  @Test
  void wireDependsOnNoModuleButLtl() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.openrs.queue..",
            "io.openrs.config..",
            "io.openrs.repserver..",
            "io.openrs.dsi..",
            "io.openrs.repagent..")
        .because("wire sits between ltl and the agent and server modules that use it")
        .check(WIRE);
  }

  @Test
  void wireUsesTheLtlTextFormOnlyNotThePackedForm() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.openrs.ltl.packed..")
        .because("the packed form lives inside the server's queues, never on the wire")
        .check(WIRE);
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
        .check(WIRE);
  }
}
