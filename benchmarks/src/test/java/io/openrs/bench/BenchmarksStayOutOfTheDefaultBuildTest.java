package io.openrs.bench;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.containAnyMethodsThat;
import static com.tngtech.archunit.core.domain.properties.CanBeAnnotated.Predicates.annotatedWith;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The default {@code mvn verify} runs no benchmark: the JUnit benchmarks of this module are named
 * {@code *Benchmark} (neither Surefire's {@code *Test} nor Failsafe's {@code *IT}) and tagged
 * {@code benchmark}, which the build's {@code excludedTestGroups} leaves out even when a pattern
 * names them.
 */
class BenchmarksStayOutOfTheDefaultBuildTest {
  private static final JavaClasses BENCH =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.ONLY_INCLUDE_TESTS)
          .importPackages("io.openrs.bench");

  @Test
  void everyJUnitBenchmarkIsNamedAndTaggedAsOne() {
    classes()
        .that(containAnyMethodsThat(annotatedWith(Test.class)))
        .and()
        .haveSimpleNameNotEndingWith("Test")
        .should(beNamedBenchmarkAndTaggedBenchmark())
        .because("the default build must not run a long benchmark (README, Tests and benchmarks)")
        .check(BENCH);
  }

  private static ArchCondition<JavaClass> beNamedBenchmarkAndTaggedBenchmark() {
    return new ArchCondition<>("be named *Benchmark and tagged \"benchmark\"") {
      @Override
      public void check(JavaClass c, ConditionEvents events) {
        boolean named = c.getSimpleName().endsWith("Benchmark");
        boolean tagged =
            c.tryGetAnnotationOfType(Tag.class)
                .map(t -> "benchmark".equals(t.value()))
                .orElse(false);
        if (!named || !tagged) {
          events.add(
              SimpleConditionEvent.violated(
                  c,
                  c.getName()
                      + (named ? "" : " is not named *Benchmark")
                      + (tagged ? "" : " is not tagged \"benchmark\"")));
        }
      }
    };
  }

  /** Guards the rule above against an import that finds nothing. */
  @Test
  void theRuleSeesTheJUnitBenchmarks() {
    assertThat(BENCH.contain("io.openrs.bench.dsi.HvarBenchmark")).isTrue();
    assertThat(BENCH.contain("io.openrs.bench.comparison.NativeComparisonBenchmark")).isTrue();
  }
}
