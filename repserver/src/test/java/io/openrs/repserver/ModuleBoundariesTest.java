package io.openrs.repserver;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The server holds no apply logic: it reaches replicate databases only through module dsi. */
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
}
