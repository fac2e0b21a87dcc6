package io.openrs.queue;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.openrs.runtime.WorkerThread;

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

  @ArchTest
  static final ArchRule apiDoesNotDependOnTheKafkaEngine =
      noClasses()
          .that()
          .resideInAPackage("io.openrs.queue")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("io.openrs.queue.kafka..");

  @ArchTest
  static final ArchRule fileEngineDoesNotKnowTheKafkaEngine =
      noClasses()
          .that()
          .resideInAPackage("io.openrs.queue.file..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage("io.openrs.queue.kafka..", "org.apache.kafka..");

  @ArchTest
  static final ArchRule kafkaEngineDoesNotKnowTheFileEngine =
      noClasses()
          .that()
          .resideInAPackage("io.openrs.queue.kafka..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("io.openrs.queue.file..");

  @ArchTest
  static final ArchRule everyThreadIsAWorkerThread =
      classes()
          .that()
          .areAssignableTo(Thread.class)
          .should()
          .beAssignableTo(WorkerThread.class)
          .because("long-lived threads share one base (docs/monitoring.md, Threads)");

  @ArchTest
  static final ArchRule threadsAreNamedThroughTheRuntimeModule =
      noClasses()
          .should()
          .callConstructor(Thread.class, Runnable.class, String.class)
          .orShould()
          .callConstructor(Thread.class, Runnable.class)
          .orShould()
          .callConstructor(Thread.class)
          .because(
              "threads are WorkerThreads or come from ThreadNames, named rs-<module>-<component>");
}
