package io.openrs.repagent;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
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
}
