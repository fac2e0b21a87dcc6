package io.openrs.repserver;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import io.openrs.runtime.WorkerThread;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The server holds no apply logic (it reaches replicate databases only through module dsi), its
 * packages build on each other without cycles, and the inbound pipeline knows nothing of the admin
 * commands, the monitor or the catalog above it (docs/architecture.md, Packages of repserver).
 */
class ModuleBoundariesTest {
  private static final JavaClasses SERVER =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.openrs.repserver");

  @Test
  void serverContainsNoApplyLogic() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "java.sql..", "javax.sql..", "com.zaxxer.hikari..", "io.openrs.dsi.internal..")
        .because(
            "repserver must not contain apply logic; databases are reached through config (RSSD)"
                + " and dsi (replicates)")
        .allowEmptyShould(true)
        .check(SERVER);
  }

  /** Each package of the module is a slice (a sub-package such as {@code admin.rcl} is its own). */
  private static final SliceAssignment PACKAGES =
      new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass c) {
          return SliceIdentifier.of(c.getPackageName());
        }

        @Override
        public String getDescription() {
          return "the packages of repserver";
        }
      };

  @Test
  void packagesAreFreeOfCycles() {
    slices()
        .assignedFrom(PACKAGES)
        .should()
        .beFreeOfCycles()
        .because("each package of the server builds on the ones below it (docs/architecture.md)")
        .check(SERVER);
  }

  @Test
  void thePipelineKnowsNeitherAdminNorMonitorNorCatalog() {
    noClasses()
        .that()
        .resideInAnyPackage(
            "io.openrs.repserver.exec..",
            "io.openrs.repserver.origin..",
            "io.openrs.repserver.nrm..",
            "io.openrs.repserver.sqt..",
            "io.openrs.repserver.dist..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.openrs.repserver.admin..",
            "io.openrs.repserver.monitor..",
            "io.openrs.repserver.catalog..")
        .because(
            "the pipeline moves data; commands, counters as meters and RSSD changes are layered"
                + " above it and reach it through its own types and callbacks")
        .check(SERVER);
  }

  @Test
  void theAdminCommandsChangeTheRssdOnlyThroughTheCatalog() {
    noClasses()
        .that()
        .resideInAPackage("io.openrs.repserver.admin..")
        .should()
        .dependOnClassesThat()
        .haveFullyQualifiedName("io.openrs.config.rssd.Rssd")
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("io.openrs.config.rssd.StsCache")
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("io.openrs.queue.file.FileQueueManager")
        .orShould()
        .dependOnClassesThat()
        .resideInAPackage("io.openrs.repserver")
        .because(
            "the admin commands read and change the RSSD through catalog.Catalog and its view,"
                + " and reach the running server through admin.ServerControl (one door for each)")
        .check(SERVER);
  }

  /** The server's packages each of the lower packages may use (their package-info says why). */
  private static final Map<String, List<String>> MAY_USE =
      Map.of(
          "catalog", List.of("nrm", "dist", "sqt", "rules", "dsi"),
          "exec", List.of("origin"),
          "origin", List.of("nrm", "sqt", "dist", "rules"),
          "nrm", List.of("rules"),
          "dist", List.of("sqt", "rules"),
          "sqt", List.of(),
          "rules", List.of(),
          "dsi", List.of(),
          "lease", List.of());

  @Test
  void eachLowerPackageUsesOnlyThePackagesBelowIt() {
    List<String> all =
        List.of(
            "admin", "monitor", "catalog", "exec", "origin", "nrm", "sqt", "dist", "rules", "dsi",
            "lease");
    MAY_USE.forEach(
        (pkg, allowed) -> {
          String[] forbidden =
              all.stream()
                  .filter(p -> !p.equals(pkg) && !allowed.contains(p))
                  .map(p -> "io.openrs.repserver." + p + "..")
                  .toArray(String[]::new);
          noClasses()
              .that()
              .resideInAPackage("io.openrs.repserver." + pkg + "..")
              .should()
              .dependOnClassesThat()
              .resideInAnyPackage(forbidden)
              .orShould()
              .dependOnClassesThat()
              .resideInAPackage("io.openrs.repserver")
              .because("package " + pkg + " builds only on " + allowed + " (its package-info)")
              .allowEmptyShould(true)
              .check(SERVER);
        });
  }

  @Test
  void everyThreadIsAWorkerThread() {
    classes()
        .that()
        .areAssignableTo(Thread.class)
        .should()
        .beAssignableTo(WorkerThread.class)
        .because("long-lived threads share one base (docs/monitoring.md, Threads)")
        .check(SERVER);
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
        .check(SERVER);
  }
}
