package io.openrs.dsi;

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
import org.junit.jupiter.api.Test;

/** The DSI reads the packed form; it never parses LTL text, and knows neither server nor agent. */
class ModuleBoundariesTest {
  private static final JavaClasses DSI =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.openrs.dsi");

  @Test
  void dsiDoesNotParseLtlText() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.openrs.ltl.text..")
        .because("the DSI must not parse LTL text (design: module table)")
        .allowEmptyShould(true)
        .check(DSI);
  }

  @Test
  void dsiKnowsNeitherServerNorAgent() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.openrs.repserver..", "io.openrs.repagent..")
        .because("the server drives the DSI, never the other way round")
        .allowEmptyShould(true)
        .check(DSI);
  }

  @Test
  void dialectsKnowNothingOfTheMachinery() {
    noClasses()
        .that()
        .resideInAPackage("io.openrs.dsi.dialect..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.openrs.dsi.internal..")
        .because("a new target is one dialect class, whatever the DSI's threads do")
        .check(DSI);
  }

  @Test
  void onlyTheApiUsesTheMachinery() {
    noClasses()
        .that()
        .resideOutsideOfPackages("io.openrs.dsi.internal..")
        .and()
        .doNotHaveFullyQualifiedName("io.openrs.dsi.DsiConnection")
        .and()
        .doNotHaveFullyQualifiedName("io.openrs.dsi.DsiConnection$Current")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.openrs.dsi.internal..")
        .because("the API package stays small: DsiConnection is the facade over the machinery")
        .check(DSI);
  }

  /**
   * Each package of the module is a slice, except that the API package is two: its facade ({@code
   * DsiConnection}, which drives the machinery) above everything, and its types (settings, states,
   * counters, error classes), which everything uses.
   */
  private static final SliceAssignment PACKAGES =
      new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass c) {
          if (c.getName().equals("io.openrs.dsi.DsiConnection")
              || c.getName().startsWith("io.openrs.dsi.DsiConnection$")) {
            return SliceIdentifier.of("io.openrs.dsi (facade)");
          }
          return SliceIdentifier.of(c.getPackageName());
        }

        @Override
        public String getDescription() {
          return "the packages of dsi, with DsiConnection apart from the API's types";
        }
      };

  @Test
  void packagesAreFreeOfCycles() {
    slices()
        .assignedFrom(PACKAGES)
        .should()
        .beFreeOfCycles()
        .because("each package of the DSI builds on the ones below it (docs/dsi.md, The code)")
        .check(DSI);
  }

  @Test
  void theModesKnowNothingOfEachOtherAndTheSharedMachineryKnowsNoMode() {
    noClasses()
        .that()
        .resideInAnyPackage("io.openrs.dsi.internal", "io.openrs.dsi.internal.parallel")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.openrs.dsi.internal.hvar..", "io.openrs.dsi.internal.run..")
        .because("only the run (DsiRun's switch on ApplyMode) puts a mode's threads together")
        .check(DSI);
    noClasses()
        .that()
        .resideInAnyPackage("io.openrs.dsi.internal", "io.openrs.dsi.internal.hvar")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.openrs.dsi.internal.parallel..", "io.openrs.dsi.internal.run..")
        .because("only the run (DsiRun's switch on ApplyMode) puts a mode's threads together")
        .check(DSI);
  }

  @Test
  void everyThreadIsAWorkerThread() {
    classes()
        .that()
        .areAssignableTo(Thread.class)
        .should()
        .beAssignableTo(WorkerThread.class)
        .because("long-lived threads share one base (docs/monitoring.md, Threads)")
        .check(DSI);
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
        .check(DSI);
  }
}
