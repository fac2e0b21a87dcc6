package io.openrs.dsi;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
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
}
