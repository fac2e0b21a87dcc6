package io.openrs.config;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/** Module {@code config} starts no pipeline threads and depends on no pipeline module. */
class ModuleBoundariesTest {
  private static final JavaClasses CONFIG =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.openrs.config");

  @Test
  void configDependsOnNoPipelineModule() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.openrs.repagent..", "io.openrs.repserver..", "io.openrs.dsi..", "io.openrs.queue..")
        .because("config is below the pipeline modules")
        .allowEmptyShould(true)
        .check(CONFIG);
  }

  @Test
  void configStartsNoThreads() {
    noClasses()
        .should()
        .callMethod(Thread.class, "start")
        .orShould()
        .dependOnClassesThat()
        .belongToAnyOf(Executors.class)
        .because("config must not start threads of the pipeline (design: module table)")
        .allowEmptyShould(true)
        .check(CONFIG);
  }
}
