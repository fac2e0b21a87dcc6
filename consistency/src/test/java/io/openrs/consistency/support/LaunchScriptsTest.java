package io.openrs.consistency.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code bin/repserver} and {@code bin/repagent} as an operator starts them (here with {@code -V},
 * which starts the JVM and exits): the JVM they run, the garbage collector they choose and their
 * exit on OutOfMemoryError (docs/repserver.md and docs/repagent.md, "The JVM"). Needs the modules'
 * jars and {@code target/lib}, which the reactor builds before this module.
 */
class LaunchScriptsTest {

  private static final Path BIN = Path.of("..", "bin");

  private record Run(int exitCode, String output) {}

  private static Run run(String script, Map<String, String> env) throws Exception {
    ProcessBuilder pb =
        new ProcessBuilder(List.of("bash", BIN.resolve(script).toString(), "-V"))
            .redirectErrorStream(true);
    pb.environment().remove("JAVA_HOME");
    pb.environment().remove("JAVA_OPTS");
    pb.environment().putAll(env);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as(script + " exits").isTrue();
    return new Run(p.exitValue(), out);
  }

  /** Starts {@code script} with {@code javaOpts}; the JVM's flags name {@code collector} only. */
  private static void assertCollector(String script, String javaOpts, String collector)
      throws Exception {
    Run r = run(script, Map.of("JAVA_OPTS", "-XX:+PrintCommandLineFlags " + javaOpts));

    assertThat(r.exitCode()).as(r.output()).isZero();
    assertThat(r.output()).contains("-XX:+Use" + collector + "GC");
    for (String other : List.of("Parallel", "Serial", "G1")) {
      if (!other.equals(collector)) {
        assertThat(r.output()).doesNotContain("-XX:+Use" + other + "GC");
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"repserver", "repagent"})
  void theParallelCollectorIsTheDefault(String script) throws Exception {
    assertCollector(script, "", "Parallel");
  }

  @ParameterizedTest
  @ValueSource(strings = {"repserver", "repagent"})
  void aCollectorNamedInJavaOptsIsKeptAlone(String script) throws Exception {
    assertCollector(script, "-XX:+UseSerialGC", "Serial");
  }

  @ParameterizedTest
  @ValueSource(strings = {"repserver", "repagent"})
  void theJavaOfJavaHomeRunsWhenSet(String script, @TempDir Path home) throws Exception {
    fakeJava(home);

    Run r = run(script, Map.of("JAVA_HOME", home.toString(), "JAVA_OPTS", "-Xmx1g"));

    assertThat(r.exitCode()).as(r.output()).isZero();
    assertThat(r.output())
        .startsWith("fake java: -XX:+UseParallelGC -XX:+ExitOnOutOfMemoryError -Xmx1g -cp ")
        .contains("io.openrs." + script + ".Main -V");
  }

  @ParameterizedTest
  @ValueSource(strings = {"repserver", "repagent"})
  void theProcessExitsOnOutOfMemoryUnlessJavaOptsSaysOtherwise(String script, @TempDir Path home)
      throws Exception {
    fakeJava(home);

    Run exits = run(script, Map.of("JAVA_HOME", home.toString()));
    Run own =
        run(
            script,
            Map.of("JAVA_HOME", home.toString(), "JAVA_OPTS", "-XX:+CrashOnOutOfMemoryError"));

    assertThat(exits.output()).contains(" -XX:+ExitOnOutOfMemoryError ");
    assertThat(own.output())
        .contains(" -XX:+CrashOnOutOfMemoryError ")
        .doesNotContain("ExitOnOutOfMemoryError");
  }

  /** {@code home/bin/java}: prints its arguments instead of starting a JVM. */
  private static void fakeJava(Path home) throws IOException {
    Path java = home.resolve("bin").resolve("java");
    Files.createDirectories(java.getParent());
    Files.writeString(java, "#!/usr/bin/env bash\necho \"fake java: $*\"\n");
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
  }
}
