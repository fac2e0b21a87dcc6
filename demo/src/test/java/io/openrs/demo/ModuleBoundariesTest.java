package io.openrs.demo;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The demo drives the server and the agent as a DBA and a script would: processes, configuration
 * files, the admin port. It must not call their classes.
 */
class ModuleBoundariesTest {
  private static final JavaClasses DEMO =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.openrs.demo");

  @Test
  void demoUsesNoOtherOpenRsModule() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.openrs.repserver..",
            "io.openrs.repagent..",
            "io.openrs.dsi..",
            "io.openrs.queue..",
            "io.openrs.config..",
            "io.openrs.ltl..",
            "io.openrs.wire..",
            "io.openrs.pgwire..")
        .because("the demo knows the server and the agent only as processes and the admin port")
        .check(DEMO);
  }
}
