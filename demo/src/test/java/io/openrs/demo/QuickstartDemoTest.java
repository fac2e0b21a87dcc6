package io.openrs.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line and the mistakes caught before anything starts: options out of range, a port in
 * use, an unreachable database, a work directory that is not the demo's. None of these touch a
 * database.
 */
class QuickstartDemoTest {
  @TempDir Path dir;

  record Outcome(int exit, String out, String err) {}

  static Outcome run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit =
        QuickstartDemo.run(
            args,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            name -> Optional.empty());
    return new Outcome(
        exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  /** Arguments that keep the server's ports free of conflicts, plus {@code more}. */
  private String[] args(String... more) {
    List<String> a =
        new ArrayList<>(
            List.of(
                "--work-dir",
                dir.resolve("work").toString(),
                "--ltl-port",
                "0",
                "--admin-port",
                "0",
                "--prometheus-port",
                "0"));
    a.addAll(List.of(more));
    return a.toArray(String[]::new);
  }

  @Test
  void helpListsTheOptions() {
    Outcome o = run("--help");
    assertThat(o.exit()).isZero();
    assertThat(o.out())
        .contains("--source")
        .contains("postgresql, mariadb")
        .contains("--duration")
        .contains("--clients")
        .contains("--keep-running")
        .contains("--work-dir")
        .contains("--admin-port")
        .contains("--ltl-port");
  }

  @Test
  void anUnknownSourceIsRefusedNamingTheChoices() {
    Outcome o = run("--source", "oracle");
    assertThat(o.exit()).isEqualTo(QuickstartDemo.EXIT_PROBLEM);
    assertThat(o.err()).contains("'oracle'").contains("use postgresql or mariadb");
  }

  @Test
  void valuesOutOfRangeAreEachNamedWithTheirOption() {
    Outcome o = run(args("--duration", "0", "--clients", "65", "--db-prefix", "sales"));
    assertThat(o.exit()).isEqualTo(QuickstartDemo.EXIT_PROBLEM);
    assertThat(o.err())
        .contains("--duration 0: must be between 1 and 86400")
        .contains("--clients 65: must be between 1 and 64")
        .contains("--db-prefix sales: must start with openrs_demo");
    assertThat(o.out()).isEmpty();
  }

  @Test
  void theServersPortsMustDiffer() {
    Outcome o = run("--ltl-port", "12000", "--admin-port", "12000");
    assertThat(o.exit()).isEqualTo(QuickstartDemo.EXIT_PROBLEM);
    assertThat(o.err()).contains("the server's ports must differ");
  }

  @Test
  void aPortInUseStopsTheDemoBeforeItTouchesAnything() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      int port = taken.getLocalPort();
      Outcome o =
          run(
              "--work-dir",
              dir.resolve("work").toString(),
              "--ltl-port",
              "0",
              "--admin-port",
              String.valueOf(port),
              "--prometheus-port",
              "0");
      assertThat(o.exit()).isEqualTo(QuickstartDemo.EXIT_PROBLEM);
      assertThat(o.err())
          .contains("port " + port + " on 127.0.0.1 (the server's admin port) is in use")
          .contains("--admin-port <port>");
      assertThat(o.out()).doesNotContain("== Databases");
    }
  }

  @Test
  void anUnreachablePostgresqlIsNamedWithItsAddress() throws Exception {
    int closed = ChecksTest.closedPort();
    Outcome o = run(args("--pg-port", String.valueOf(closed)));
    assertThat(o.exit()).isEqualTo(QuickstartDemo.EXIT_PROBLEM);
    assertThat(o.err())
        .contains("PostgreSQL is not reachable at 127.0.0.1:" + closed)
        .contains("scripts/setup-databases.sh")
        .contains("--pg-port");
    assertThat(o.out()).doesNotContain("== Databases");
  }

  @Test
  void aWorkDirectoryThatIsNotTheDemosIsNeverEmptied() throws Exception {
    Path other = Files.createDirectories(dir.resolve("other"));
    Path precious = Files.writeString(other.resolve("notes.txt"), "keep me");
    Outcome o =
        run(
            "--work-dir",
            other.toString(),
            "--ltl-port",
            "0",
            "--admin-port",
            "0",
            "--prometheus-port",
            "0");
    assertThat(o.exit()).isEqualTo(QuickstartDemo.EXIT_PROBLEM);
    assertThat(o.err()).contains("is not a demo work directory").contains("--work-dir");
    assertThat(precious).hasContent("keep me");
  }
}
