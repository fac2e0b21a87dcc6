package io.openrs.runtime;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** Every module may depend on this one, so it depends on no other module and on slf4j alone. */
class RuntimeBoundariesTest {
  private static final JavaClasses RUNTIME =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.openrs.runtime");

  @Test
  void dependsOnTheJdkAndSlf4jOnly() {
    classes()
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage("java..", "io.openrs.runtime..", "org.slf4j..")
        .because("every module may use the runtime module, which must not pull anything in")
        .check(RUNTIME);
  }
}
