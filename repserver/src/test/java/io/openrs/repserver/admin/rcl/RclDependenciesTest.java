package io.openrs.repserver.admin.rcl;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.openrs.queue.QueueId;
import io.openrs.queue.QueuePosition;
import io.openrs.queue.QueueType;
import org.junit.jupiter.api.Test;

/** The command language stands alone: the JDK plus the stable queue's value types. */
class RclDependenciesTest {
  private static final JavaClasses RCL =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.openrs.repserver.admin.rcl");

  @Test
  void dependsOnlyOnTheJdkAndQueueValueTypes() {
    classes()
        .should()
        .onlyDependOnClassesThat(
            resideInAnyPackage("java..", "io.openrs.repserver.admin.rcl..")
                .or(belongToAnyOf(QueueId.class, QueuePosition.class, QueueType.class)))
        .because("the parser must be usable without a running server")
        .check(RCL);
  }
}
