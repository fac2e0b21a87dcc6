package io.openrs.ltl;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * What the design says module {@code ltl} must not do: know about sockets, files or JDBC, or depend
 * on any other OpenRS module. The build fails when a class breaks it.
 */
class ModuleBoundariesTest {
  private static final JavaClasses LTL =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.openrs.ltl");

  @Test
  void ltlKnowsNoSocketsFilesOrJdbc() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "java.net..",
            "java.nio.file..",
            "java.nio.channels..",
            "java.sql..",
            "javax.sql..",
            "io.netty..")
        .orShould()
        .dependOnClassesThat()
        .belongToAnyOf(
            java.io.File.class,
            java.io.FileInputStream.class,
            java.io.FileOutputStream.class,
            java.io.RandomAccessFile.class)
        .because("module ltl must not know about sockets, files or JDBC (design: module table)")
        .check(LTL);
  }

  @Test
  void ltlDependsOnNoOtherModule() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.openrs.queue..",
            "io.openrs.config..",
            "io.openrs.repagent..",
            "io.openrs.repserver..",
            "io.openrs.dsi..")
        .because("ltl is the bottom of the module graph")
        .check(LTL);
  }

  @Test
  void theModelDoesNotDependOnTheSyntaxOrThePackedForm() {
    noClasses()
        .that()
        .resideInAPackage("io.openrs.ltl")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.openrs.ltl.text..", "io.openrs.ltl.packed..")
        .because("the command model is shared by both forms and owned by neither")
        .check(LTL);
  }
}
