package io.openrs.repagent;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.openrs.runtime.WorkerThread;
import org.junit.jupiter.api.Test;

/** The agent speaks LTL to a server; it must not know queues, the server or DSI internals. */
class ModuleBoundariesTest {
  private static final JavaClasses AGENT =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.openrs.repagent");

  @Test
  void agentKnowsNoQueuesServerOrDsi() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.openrs.queue..", "io.openrs.repserver..", "io.openrs.dsi..")
        .because("the agent must not know queues or DSI internals (design: module table)")
        .allowEmptyShould(true)
        .check(AGENT);
  }

  @Test
  void everyThreadClassIsAWorkerThread() {
    classes()
        .that()
        .areAssignableTo(Thread.class)
        .should()
        .beAssignableTo(WorkerThread.class)
        .because("long-lived threads share one base (issue 34; docs/monitoring.md, Threads)")
        .allowEmptyShould(true)
        .check(AGENT);
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
        .check(AGENT);
  }
}
