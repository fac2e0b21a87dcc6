package io.openrs.dsi.testkit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A PostgreSQL server of this test's own, which it may stop and start (the shared server on 5432 is
 * never touched): {@code initdb} into a temporary directory with the machine's binaries ({@code
 * /usr/lib/postgresql/<version>/bin}, the newest; or {@code OPENRS_PG_BIN}), listening on a free
 * loopback port, trust authentication for user {@link TestDb#USER}, database {@code openrs_test}.
 *
 * <p>PostgreSQL refuses to run as root: when the tests run as root (as on this machine) the
 * directory is given to user {@code postgres} and every {@code initdb}/{@code pg_ctl} runs through
 * {@code runuser -u postgres}, which needs root; otherwise they run as the current user.
 *
 * <p>{@code fsync} is off: the tests stop the server with {@code pg_ctl stop -m immediate} (the
 * postmaster and its backends quit at once, nothing is flushed or checkpointed, and the next start
 * runs crash recovery from the WAL), which loses nothing the operating system had accepted, so
 * fsync would only cost time. {@code synchronous_commit} stays on: an acknowledged commit is in the
 * WAL.
 */
public final class PrivatePostgres implements AutoCloseable {
  private static final String RUN_AS = "postgres";

  private final Path bin;
  private final Path dir;
  private final Path data;
  private final int port;
  private final boolean asRoot;

  private PrivatePostgres(Path bin, Path dir, int port, boolean asRoot) {
    this.bin = bin;
    this.dir = dir;
    this.data = dir.resolve("data");
    this.port = port;
    this.asRoot = asRoot;
  }

  /** Creates the cluster and starts it. */
  public static PrivatePostgres start() throws Exception {
    Path bin = binaries();
    boolean root = "root".equals(System.getProperty("user.name"));
    Path dir = Files.createTempDirectory("openrs-private-pg-");
    PrivatePostgres pg = new PrivatePostgres(bin, dir, freePort(), root);
    try {
      if (root) {
        pg.run(List.of("chown", RUN_AS, dir.toString()), false);
      }
      pg.run(
          List.of(
              bin.resolve("initdb").toString(),
              "-D",
              pg.data.toString(),
              "-U",
              TestDb.USER,
              "--auth=trust",
              "-E",
              "UTF8",
              "--no-sync"),
          true);
      pg.startServer();
      try (Connection c =
              DriverManager.getConnection(pg.url("postgres"), TestDb.USER, TestDb.PASSWORD);
          Statement s = c.createStatement()) {
        s.execute("CREATE DATABASE openrs_test");
      }
      return pg;
    } catch (Exception e) {
      pg.close();
      throw e;
    }
  }

  /** The binaries: {@code OPENRS_PG_BIN}, else the newest {@code /usr/lib/postgresql/N/bin}. */
  static Path binaries() throws IOException {
    String env = System.getenv("OPENRS_PG_BIN");
    if (env != null && !env.isBlank()) {
      return Path.of(env);
    }
    Path root = Path.of("/usr/lib/postgresql");
    if (Files.isDirectory(root)) {
      try (Stream<Path> versions = Files.list(root)) {
        List<Path> bins =
            versions
                .map(v -> v.resolve("bin"))
                .filter(b -> Files.isExecutable(b.resolve("pg_ctl")))
                .sorted(
                    Comparator.comparingInt(
                        (Path b) -> {
                          try {
                            return Integer.parseInt(b.getParent().getFileName().toString());
                          } catch (NumberFormatException e) {
                            return 0;
                          }
                        }))
                .toList();
        if (!bins.isEmpty()) {
          return bins.get(bins.size() - 1);
        }
      }
    }
    throw new IllegalStateException(
        "no PostgreSQL server binaries (initdb, pg_ctl) under /usr/lib/postgresql/*/bin; set"
            + " OPENRS_PG_BIN");
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  /** {@code jdbc:postgresql://127.0.0.1:<port>/<db>}. */
  public String url(String db) {
    return "jdbc:postgresql://127.0.0.1:" + port + "/" + db;
  }

  /** The base URL of database {@code openrs_test}, for {@link TestDb#postgresScratchAt}. */
  public String baseUrl() {
    return url("openrs_test");
  }

  public int port() {
    return port;
  }

  /** {@code pg_ctl start}, waiting until it accepts connections (after crash recovery). */
  public void startServer() throws Exception {
    run(
        List.of(
            bin.resolve("pg_ctl").toString(),
            "start",
            "-D",
            data.toString(),
            "-w",
            "-t",
            "120",
            "-l",
            dir.resolve("server.log").toString(),
            "-o",
            "-p "
                + port
                + " -c listen_addresses=127.0.0.1 -k "
                + dir
                + " -c fsync=off -c max_connections=40"
                + " -c shared_buffers=32MB"),
        true);
  }

  /** {@code pg_ctl stop -m immediate}: the server quits at once, as in a crash. */
  public void stopImmediately() throws Exception {
    run(
        List.of(
            bin.resolve("pg_ctl").toString(),
            "stop",
            "-D",
            data.toString(),
            "-m",
            "immediate",
            "-w"),
        true);
  }

  private void run(List<String> command, boolean asPostgres) throws Exception {
    List<String> cmd = new ArrayList<>();
    if (asPostgres && asRoot) {
      cmd.addAll(List.of("runuser", "-u", RUN_AS, "--"));
    }
    cmd.addAll(command);
    Path out = Files.createTempFile("openrs-private-pg-cmd", ".log");
    try {
      Process p =
          new ProcessBuilder(cmd)
              .redirectErrorStream(true)
              .redirectOutput(out.toFile())
              .directory(dir.toFile())
              .start();
      if (!p.waitFor(180, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException(String.join(" ", cmd) + " did not end within 180 s");
      }
      if (p.exitValue() != 0) {
        String log = Files.readString(out, StandardCharsets.UTF_8);
        Path serverLog = dir.resolve("server.log");
        if (Files.exists(serverLog)) {
          log += "\n--- server.log ---\n" + Files.readString(serverLog, StandardCharsets.UTF_8);
        }
        throw new IllegalStateException(
            String.join(" ", cmd) + " exited with " + p.exitValue() + ":\n" + log);
      }
    } finally {
      Files.deleteIfExists(out);
    }
  }

  /** Stops the server (immediately) if it runs and deletes its directory. */
  @Override
  public void close() throws Exception {
    try {
      if (Files.exists(data.resolve("postmaster.pid"))) {
        stopImmediately();
      }
    } finally {
      deleteTree(dir);
    }
  }

  private static void deleteTree(Path p) throws IOException {
    if (!Files.exists(p)) {
      return;
    }
    try (Stream<Path> all = Files.walk(p)) {
      for (Path q : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(q);
      }
    }
  }

  /** Whether the server accepts a connection now. */
  public boolean accepting() {
    try (Connection c = DriverManager.getConnection(baseUrl(), TestDb.USER, TestDb.PASSWORD)) {
      return c.isValid(2);
    } catch (SQLException e) {
      return false;
    }
  }
}
