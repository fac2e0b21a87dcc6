package io.openrs.queue;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** The stable queue knows nothing of LTL, SQL, Netty or the server modules. */
@AnalyzeClasses(packages = "io.openrs.queue", importOptions = ImportOption.DoNotIncludeTests.class)
class ModuleBoundariesTest {

  @ArchTest
  static final ArchRule queueDoesNotKnowItsUsers =
      noClasses()
          .that()
          .resideInAPackage("io.openrs.queue..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "io.openrs.ltl..",
              "java.sql..",
              "io.netty..",
              "io.openrs.dsi..",
              "io.openrs.repserver..");

  @ArchTest
  static final ArchRule apiDoesNotDependOnTheFileEngine =
      noClasses()
          .that()
          .resideInAPackage("io.openrs.queue")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("io.openrs.queue.file..");
}
