package io.openrs.demo;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The README's quick-start demo: a primary and a replicate database, the replication server and
 * agent as child processes, configured through the admin port, an OLTP workload with live progress,
 * and a full comparison of the replicate with the primary. Exit code 0 only when every table is
 * identical; 1 when they differ; 2 when the demo could not run (the message says why and how to fix
 * it). See {@code docs/demo.md}.
 */
@Command(
    name = "quickstart-demo",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Runs a replication demo on the local databases: prepares a primary and a replicate,"
          + " starts the OpenRS server and agent, configures them through the admin port,"
          + " runs an OLTP workload on the primary while showing progress, then checks that"
          + " the replicate is identical to the primary. See docs/demo.md."
    })
public final class QuickstartDemo implements Callable<Integer> {
  static final int EXIT_IDENTICAL = 0;
  static final int EXIT_DIFFERENT = 1;
  static final int EXIT_PROBLEM = 2;

  private static final Pattern SERVER_READY =
      Pattern.compile("repserver \\S+ ready: ltl_port=(\\d+) admin_port=(\\d+)");
  private static final Pattern AGENT_STARTED = Pattern.compile("repagent \\S+ started: origin");
  private static final Pattern PREFIX = Pattern.compile("openrs_demo[a-z0-9_]{0,40}");
  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
  private static final Duration STOP_GRACE = Duration.ofSeconds(30);

  @Option(
      names = "--source",
      defaultValue = "postgresql",
      description =
          "the primary database: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE});"
              + " the replicate is PostgreSQL")
  Source source;

  @Option(
      names = "--duration",
      defaultValue = "60",
      paramLabel = "<seconds>",
      description = "how long the workload runs (default: ${DEFAULT-VALUE})")
  int durationSeconds;

  @Option(
      names = "--clients",
      defaultValue = "4",
      description = "concurrent workload clients at the primary (default: ${DEFAULT-VALUE})")
  int clients;

  @Option(
      names = "--rate",
      defaultValue = "0",
      paramLabel = "<tx/s>",
      description =
          "most workload transactions per second, all clients together; 0 = as fast"
              + " as the primary takes them (default: ${DEFAULT-VALUE})")
  int rate;

  @Option(
      names = "--accounts",
      defaultValue = "1000",
      description = "accounts of the initial load (default: ${DEFAULT-VALUE})")
  int accounts;

  @Option(
      names = "--seed",
      defaultValue = "42",
      description = "seed of the workload's random choices (default: ${DEFAULT-VALUE})")
  long seed;

  @Option(
      names = "--keep-running",
      description =
          "leave the server and the agent running at the end and print how to"
              + " connect to the admin port with psql")
  boolean keepRunning;

  @Option(
      names = "--work-dir",
      defaultValue = "var/demo",
      paramLabel = "<dir>",
      description =
          "configuration, logs and data of this run; emptied at each run"
              + " (default: ${DEFAULT-VALUE})")
  Path workDir;

  @Option(
      names = "--ltl-port",
      defaultValue = "11752",
      paramLabel = "<port>",
      description = "the server's port for agents; 0 = any free port (default: ${DEFAULT-VALUE})")
  int ltlPort;

  @Option(
      names = "--admin-port",
      defaultValue = "11753",
      paramLabel = "<port>",
      description =
          "the server's admin port (psql); 0 = any free port" + " (default: ${DEFAULT-VALUE})")
  int adminPort;

  @Option(
      names = "--prometheus-port",
      defaultValue = "11754",
      paramLabel = "<port>",
      description = "the server's Prometheus endpoint; 0 = none (default: ${DEFAULT-VALUE})")
  int prometheusPort;

  @Option(
      names = "--pg-host",
      defaultValue = "127.0.0.1",
      description = "PostgreSQL host (default: ${DEFAULT-VALUE})")
  String pgHost;

  @Option(
      names = "--pg-port",
      defaultValue = "5432",
      description = "PostgreSQL port (default: ${DEFAULT-VALUE})")
  int pgPort;

  @Option(
      names = "--pg-user",
      defaultValue = "openrs",
      description = "PostgreSQL user (default: ${DEFAULT-VALUE}, made by setup-databases.sh)")
  String pgUser;

  @Option(
      names = "--pg-password",
      defaultValue = "${env:OPENRS_DEMO_PG_PASSWORD:-openrs}",
      description = "PostgreSQL password (default: $OPENRS_DEMO_PG_PASSWORD, else openrs)",
      arity = "1")
  String pgPassword;

  @Option(
      names = "--mariadb-host",
      defaultValue = "127.0.0.1",
      description = "MariaDB host (default: ${DEFAULT-VALUE})")
  String mariadbHost;

  @Option(
      names = "--mariadb-port",
      defaultValue = "3306",
      description = "MariaDB port (default: ${DEFAULT-VALUE})")
  int mariadbPort;

  @Option(
      names = "--mariadb-user",
      defaultValue = "openrs",
      description = "MariaDB user (default: ${DEFAULT-VALUE})")
  String mariadbUser;

  @Option(
      names = "--mariadb-password",
      defaultValue = "${env:OPENRS_DEMO_MARIADB_PASSWORD:-openrs}",
      description = "MariaDB password (default: $OPENRS_DEMO_MARIADB_PASSWORD, else openrs)",
      arity = "1")
  String mariadbPassword;

  @Option(
      names = "--catch-up-timeout",
      defaultValue = "300",
      paramLabel = "<seconds>",
      description =
          "how long to wait for the replicate after the workload" + " (default: ${DEFAULT-VALUE})")
  int catchUpSeconds;

  @Option(
      names = "--progress-interval",
      defaultValue = "2",
      paramLabel = "<seconds>",
      description = "seconds between progress lines (default: ${DEFAULT-VALUE})")
  int progressSeconds;

  @Option(
      names = "--ticket-interval",
      defaultValue = "5",
      paramLabel = "<seconds>",
      description = "seconds between rs_ticket calls at the primary (default: ${DEFAULT-VALUE})")
  int ticketSeconds;

  @Option(
      names = "--db-prefix",
      defaultValue = "openrs_demo",
      description =
          "prefix of the databases, slot and agent names, matching"
              + " openrs_demo[a-z0-9_]* (default: ${DEFAULT-VALUE})")
  String prefix;

  private final PrintStream out;
  private final PrintStream err;
  private final Environment env;

  /** What the demo reads from its environment (the administrator's password). */
  interface Environment {
    Optional<String> get(String name);
  }

  QuickstartDemo(PrintStream out, PrintStream err, Environment env) {
    this.out = out;
    this.err = err;
    this.env = env;
  }

  public static void main(String[] args) {
    // The server's and the agent's jars bring their own logback.xml; the demo has its own.
    if (System.getProperty("logback.configurationFile") == null) {
      System.setProperty("logback.configurationFile", "openrs-demo-logback.xml");
    }
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    PrintStream err = new PrintStream(System.err, true, StandardCharsets.UTF_8);
    System.exit(run(args, out, err, name -> Optional.ofNullable(System.getenv(name))));
  }

  /** Parses {@code args}, runs the demo and returns its exit code. */
  static int run(String[] args, PrintStream out, PrintStream err, Environment env) {
    CommandLine cl = new CommandLine(new QuickstartDemo(out, err, env));
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    cl.setOut(new java.io.PrintWriter(out, true));
    cl.setErr(new java.io.PrintWriter(err, true));
    cl.setExitCodeExceptionMapper(e -> EXIT_PROBLEM);
    cl.setParameterExceptionHandler(
        (ex, a) -> {
          err.println("quickstart-demo: " + ex.getMessage());
          err.println("Usage: see --help");
          return EXIT_PROBLEM;
        });
    return cl.execute(args);
  }

  /** Checks the options' values; a problem names the option. */
  DemoSettings settings() throws DemoException {
    List<String> problems = new ArrayList<>();
    range(problems, "--duration", durationSeconds, 1, 86_400);
    range(problems, "--clients", clients, 1, 64);
    range(problems, "--rate", rate, 0, 1_000_000);
    range(problems, "--accounts", accounts, 10, 10_000_000);
    range(problems, "--catch-up-timeout", catchUpSeconds, 1, 86_400);
    range(problems, "--progress-interval", progressSeconds, 1, 3600);
    range(problems, "--ticket-interval", ticketSeconds, 1, 3600);
    for (Object[] port :
        new Object[][] {
          {"--ltl-port", ltlPort},
          {"--admin-port", adminPort},
          {"--prometheus-port", prometheusPort},
          {"--pg-port", pgPort},
          {"--mariadb-port", mariadbPort}
        }) {
      range(problems, (String) port[0], (Integer) port[1], 0, 65_535);
    }
    if (!PREFIX.matcher(prefix).matches()) {
      problems.add(
          "--db-prefix "
              + prefix
              + ": must start with openrs_demo and hold only a-z, 0-9 and _ (at most 51"
              + " characters), so the demo only ever drops databases of its own");
    }
    List<String> fixed = new ArrayList<>();
    if (ltlPort != 0) {
      fixed.add(ltlPort + " --ltl-port");
    }
    if (adminPort != 0) {
      fixed.add(adminPort + " --admin-port");
    }
    if (prometheusPort != 0) {
      fixed.add(prometheusPort + " --prometheus-port");
    }
    if (fixed.stream().map(f -> f.split(" ")[0]).distinct().count() < fixed.size()) {
      problems.add("the server's ports must differ: " + String.join(", ", fixed));
    }
    if (!problems.isEmpty()) {
      throw new DemoException(String.join("\n", problems));
    }
    return new DemoSettings(
        source,
        Duration.ofSeconds(durationSeconds),
        clients,
        seed,
        rate,
        accounts,
        keepRunning,
        workDir,
        "127.0.0.1",
        ltlPort,
        adminPort,
        prometheusPort,
        new Endpoint(Source.POSTGRESQL, pgHost, pgPort, pgUser, pgPassword),
        new Endpoint(Source.MARIADB, mariadbHost, mariadbPort, mariadbUser, mariadbPassword),
        prefix,
        Duration.ofSeconds(catchUpSeconds),
        Duration.ofSeconds(progressSeconds),
        Duration.ofSeconds(ticketSeconds));
  }

  private static void range(List<String> problems, String option, long v, long min, long max) {
    if (v < min || v > max) {
      problems.add(option + " " + v + ": must be between " + min + " and " + max);
    }
  }

  @Override
  public Integer call() {
    DemoSettings s;
    try {
      s = settings();
    } catch (DemoException e) {
      err.println("quickstart-demo: " + e.getMessage());
      return EXIT_PROBLEM;
    }
    Run run = new Run(s);
    Thread hook = new Thread(run::interrupted, "openrs-demo-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      return run.execute();
    } catch (DemoException e) {
      out.flush();
      err.println();
      err.println("quickstart-demo: " + e.getMessage());
      run.stopChildren(false);
      return EXIT_PROBLEM;
    } catch (RuntimeException e) {
      run.stopChildren(false);
      throw e;
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // the JVM is shutting down: the hook runs
      }
    }
  }

  /** One run of the demo: its phases, its children and what it learned on the way. */
  private final class Run {
    private final DemoSettings s;
    private final WorkDir dir;
    private final long started = System.nanoTime();
    private ChildProcess server;
    private ChildProcess agent;
    private volatile boolean detached;
    private String adminPassword;
    private int actualLtlPort;
    private int actualAdminPort;
    private Progress progress;
    private Progress.Sample lastSample;
    private Workload workload;

    Run(DemoSettings s) {
      this.s = s;
      this.dir = new WorkDir(s.workDir());
    }

    int execute() throws DemoException {
      out.printf(
          Locale.ROOT,
          "OpenRS quick-start demo: %s -> PostgreSQL, %d s of OLTP with %d client%s"
              + " (seed %d)%n",
          s.source().title(),
          s.duration().toSeconds(),
          s.clients(),
          s.clients() == 1 ? "" : "s",
          s.seed());
      out.println("Work directory: " + dir.path());
      checks();
      databases();
      startServer();
      configure();
      startAgent();
      runWorkload();
      boolean caughtUp = catchUp();
      List<TableCompare.Result> results = compare();
      boolean identical = results.stream().allMatch(TableCompare.Result::identical);
      counters(identical);
      String verdict = verdict(results, caughtUp);
      if (s.keepRunning()) {
        out.println();
        out.println(verdict);
        keepRunning();
      } else {
        section("Stopping");
        stopChildren(true);
        out.println();
        out.println(verdict);
      }
      return identical ? EXIT_IDENTICAL : EXIT_DIFFERENT;
    }

    private void section(String title) {
      out.println();
      out.printf(Locale.ROOT, "== %s (%.1f s)%n", title, (System.nanoTime() - started) / 1e9);
    }

    // ---- 1. checks -------------------------------------------------------------------------

    private void checks() throws DemoException {
      section("Checks");
      List<WorkDir.Leftover> left = dir.leftoverProcesses();
      if (!left.isEmpty()) {
        throw new DemoException(
            left.stream()
                    .map(l -> "the " + l.role() + " (pid " + l.pid() + ")")
                    .collect(Collectors.joining(" and "))
                + " of an earlier --keep-running demo still run"
                + (left.size() == 1 ? "s" : "")
                + " from "
                + dir.path()
                + ". Stop "
                + (left.size() == 1 ? "it" : "them")
                + " first: kill "
                + left.stream().map(l -> String.valueOf(l.pid())).collect(Collectors.joining(" "))
                + " (or give another --work-dir and other ports).");
      }
      List<String> ports = new ArrayList<>();
      portFree(s.ltlPort(), "the server's port for agents", "--ltl-port", ports);
      portFree(s.adminPort(), "the server's admin port", "--admin-port", ports);
      portFree(s.prometheusPort(), "the server's Prometheus endpoint", "--prometheus-port", ports);
      out.println(
          "  ports on "
              + s.listenAddress()
              + ": "
              + (ports.isEmpty() ? "any free ones (0)" : String.join(", ", ports) + " free"));
      for (String fact : new DemoDatabases(s).check()) {
        out.println("  " + fact);
      }
    }

    private void portFree(int port, String what, String option, List<String> free)
        throws DemoException {
      Optional<String> problem = Checks.portProblem(s.listenAddress(), port, what, option);
      if (problem.isPresent()) {
        throw new DemoException(problem.get());
      }
      if (port != 0) {
        free.add(port + " (" + option.substring(2) + ")");
      }
    }

    // ---- 2. databases ----------------------------------------------------------------------

    private void databases() throws DemoException {
      section("Databases");
      for (String line : new DemoDatabases(s).prepare()) {
        out.println("  " + line);
      }
    }

    // ---- 3. server -------------------------------------------------------------------------

    private void startServer() throws DemoException {
      section("Replication server");
      dir.reset();
      Optional<String> given = env.get("OPENRS_ADMIN_PASSWORD").filter(p -> !p.isEmpty());
      adminPassword = given.orElseGet(QuickstartDemo::generatePassword);
      dir.writeSecret("admin-password", adminPassword);
      dir.write("logback.xml", CHILD_LOGBACK);
      dir.write("repserver.cfg", serverConfig());
      List<String> jvm =
          List.of("-Xmx1g", "-Dlogback.configurationFile=" + dir.resolve("logback.xml"));
      List<String> cmd =
          ChildProcess.javaCommand(
              "io.openrs.repserver.Main", jvm, List.of("-C", dir.resolve("repserver.cfg") + ""));
      out.println(
          "  starting: java -cp <demo classpath> io.openrs.repserver.Main -C "
              + dir.resolve("repserver.cfg"));
      out.println(
          "            (what bin/repserver runs; its output: "
              + dir.resolve("repserver.log")
              + ")");
      server =
          ChildProcess.start("server", cmd, Map.of(), dir.path(), dir.resolve("repserver.log"));
      dir.write(WorkDir.SERVER_PID, server.pid() + "\n");
      long t0 = System.nanoTime();
      Matcher ready = server.awaitLine(SERVER_READY, START_TIMEOUT);
      actualLtlPort = Integer.parseInt(ready.group(1));
      actualAdminPort = Integer.parseInt(ready.group(2));
      out.printf(
          Locale.ROOT,
          "  ready after %.1f s (pid %d): agents on port %d, admin port %d%s%n",
          (System.nanoTime() - t0) / 1e9,
          server.pid(),
          actualLtlPort,
          actualAdminPort,
          s.prometheusPort() == 0 ? "" : ", Prometheus on port " + s.prometheusPort());
      out.println(
          "  RSSD: embedded H2 under "
              + dir.resolve("server")
              + "; stable queues: partition "
              + dir.resolve("server/partitions/p1"));
      out.println(
          "  administrator: sa, password "
              + adminPassword
              + (given.isPresent()
                  ? " (from OPENRS_ADMIN_PASSWORD)"
                  : " (generated for this run; OPENRS_ADMIN_PASSWORD chooses it)"));
    }

    private String serverConfig() {
      return "# Generated by the OpenRS quick-start demo (docs/demo.md) for one run.\n"
          + "# Every name is in docs/parameters.md; paths are relative to this file.\n"
          + "rs_name = OPENRS_DEMO\n"
          + "data_directory = server\n"
          + "listen_address = "
          + s.listenAddress()
          + "\n"
          + "ltl_port = "
          + s.ltlPort()
          + "\n"
          + "admin_port = "
          + s.adminPort()
          + "\n"
          + "prometheus_port = "
          + s.prometheusPort()
          + "\n"
          + "partition.p1 = server/partitions/p1 1g\n"
          + "rssd_url = embedded\n"
          + "admin_password_file = admin-password\n";
    }

    // ---- 4. configuration through the admin port -------------------------------------------

    private void configure() throws DemoException {
      section("Configuration through the admin port");
      out.println(
          "  (the same commands in psql: psql -h "
              + s.listenAddress()
              + " -p "
              + actualAdminPort
              + " -U sa -d rssd)");
      Endpoint p = s.primary();
      Endpoint r = s.pg();
      try (AdminSession admin = admin()) {
        createConnection(admin, s.primaryConnection(), p, "with log transfer on", "");
        createConnection(
            admin, s.replicateConnection(), r, "", ",\n set dsi_rs_ticket_report to 'on'");
        admin.type(
            "create database replication definition demo_rd\n with primary at "
                + s.primaryConnection()
                + "\n replicate tables in ('"
                + s.primarySchema()
                + ".%')");
        admin.type(
            "create subscription demo_sub\n for database replication definition demo_rd\n with"
                + " replicate at "
                + s.replicateConnection()
                + "\n without materialization");
        admin.type("admin show_connections");
        int primaryId = -1;
        int replicateId = -1;
        for (Map<String, String> row : admin.rows("admin show_connections")) {
          if (s.primaryConnection().equals(row.get("connection"))) {
            primaryId = Integer.parseInt(row.get("id"));
          } else if (s.replicateConnection().equals(row.get("connection"))) {
            replicateId = Integer.parseInt(row.get("id"));
          }
        }
        progress = new Progress(primaryId + ":1", replicateId + ":0");
      } catch (SQLException e) {
        throw new DemoException("admin show_connections failed: " + Checks.describe(e), e);
      }
    }

    private void createConnection(
        AdminSession admin, String name, Endpoint e, String suffix, String more)
        throws DemoException {
      String head =
          "create connection to "
              + name
              + " using profile "
              + e.kind().profile()
              + "\n set server to '"
              + e.host()
              + "', set port to '"
              + e.port()
              + "', set user to '"
              + e.user()
              + "',\n set password to ";
      String tail = more + (suffix.isEmpty() ? "" : "\n " + suffix);
      admin.type(head + "'***'" + tail, head + quote(e.password()) + tail);
    }

    private AdminSession admin() throws DemoException {
      return AdminSession.open(s.listenAddress(), actualAdminPort, adminPassword, out);
    }

    // ---- 5. agent --------------------------------------------------------------------------

    private void startAgent() throws DemoException {
      section("Replication agent");
      dir.write("repagent.cfg", agentConfig());
      List<String> jvm =
          List.of("-Xmx1g", "-Dlogback.configurationFile=" + dir.resolve("logback.xml"));
      List<String> cmd =
          ChildProcess.javaCommand(
              "io.openrs.repagent.Main", jvm, List.of("-C", dir.resolve("repagent.cfg") + ""));
      out.println(
          "  starting: java -cp <demo classpath> io.openrs.repagent.Main -C "
              + dir.resolve("repagent.cfg"));
      out.println(
          "            (what bin/repagent runs; its output: " + dir.resolve("repagent.log") + ")");
      agent =
          ChildProcess.start(
              "agent",
              cmd,
              Map.of("OPENRS_DEMO_SOURCE_PASSWORD", s.primary().password()),
              dir.path(),
              dir.resolve("repagent.log"));
      dir.write(WorkDir.AGENT_PID, agent.pid() + "\n");
      long t0 = System.nanoTime();
      agent.awaitLine(AGENT_STARTED, START_TIMEOUT);
      out.printf(
          Locale.ROOT,
          "  started after %.1f s (pid %d): reads %s through %s%n",
          (System.nanoTime() - t0) / 1e9,
          agent.pid(),
          s.primaryDatabase(),
          s.source() == Source.POSTGRESQL
              ? "slot " + s.slotName() + " (pgoutput, publication " + s.publicationName() + ")"
              : "the binlog (Debezium's MariaDB connector)");
      awaitPipeline(t0);
      try (AdminSession admin = admin()) {
        admin.type("admin who");
      }
    }

    private String agentConfig() {
      Endpoint p = s.primary();
      String schema = s.primarySchema();
      StringBuilder b = new StringBuilder();
      b.append("# Generated by the OpenRS quick-start demo (docs/demo.md) for one run.\n")
          .append("# Every name is in docs/repagent.md; paths are relative to this file.\n")
          .append("agent_name = ")
          .append(s.agentName())
          .append("\norigin = ")
          .append(s.primaryConnection())
          .append("\nrs_host = ")
          .append(s.listenAddress())
          .append("\nrs_port = ")
          .append(actualLtlPort)
          .append("\nrs_user = sa\nrs_password_file = admin-password\n")
          .append("source_profile = ")
          .append(s.source().profile())
          .append("\nsource_host = ")
          .append(p.host())
          .append("\nsource_port = ")
          .append(p.port())
          .append("\nsource_database = ")
          .append(s.primaryDatabase())
          .append("\nsource_user = ")
          .append(p.user())
          .append("\nsource_password_env = OPENRS_DEMO_SOURCE_PASSWORD\n");
      if (s.source() == Source.POSTGRESQL) {
        b.append("slot_name = ")
            .append(s.slotName())
            .append("\npublication_name = ")
            .append(s.publicationName())
            .append('\n');
      }
      b.append("table_include_list = ")
          .append(
              DemoSchema.TABLES.stream()
                  .map(t -> schema + "." + t.name())
                  .collect(Collectors.joining(", ")))
          .append("\ndata_directory = agent\n");
      return b.toString();
    }

    /**
     * Calls {@code rs_ticket('demo', 'ready')} at the primary every two seconds until one reaches
     * the replicate: then the agent reads the log and every module applies.
     */
    private void awaitPipeline(long agentStarted) throws DemoException {
      out.println(
          "  waiting until an rs_ticket called at the primary reaches the replicate"
              + " (the whole pipeline works) ...");
      long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
      long nextTicket = System.nanoTime();
      String lastProblem = "";
      Workload w = new Workload(s);
      try (AdminSession admin = admin();
          Connection primary = w.ticketConnection()) {
        while (true) {
          Optional<Progress.Ticket> t = Progress.lastTicket(admin);
          if (t.isPresent()) {
            out.printf(
                Locale.ROOT,
                "  the first rs_ticket arrived %.1f s after the agent started; its latency %.0f"
                    + " ms (pdb -> rdb)%n",
                (System.nanoTime() - agentStarted) / 1e9,
                t.get().latencyMillis());
            return;
          }
          requireAlive();
          if (System.nanoTime() > deadline) {
            throw new DemoException(
                "no rs_ticket reached the replicate within "
                    + READY_TIMEOUT.toSeconds()
                    + " s"
                    + (lastProblem.isEmpty() ? "" : " (last rs_ticket call: " + lastProblem + ")")
                    + ". The agent's log "
                    + agent.log()
                    + " ends with:\n"
                    + agent.tail(10)
                    + "  the server's log "
                    + server.log()
                    + " ends with:\n"
                    + server.tail(10));
          }
          if (System.nanoTime() >= nextTicket) {
            try {
              w.ticket(primary, "ready");
            } catch (SQLException e) {
              // the agent creates rs_ticket when its session starts: not there yet
              lastProblem = Checks.describe(e);
            }
            nextTicket = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
          }
          sleep(200);
        }
      } catch (SQLException e) {
        throw new DemoException("admin ticket_history failed: " + Checks.describe(e), e);
      }
    }

    private void requireAlive() throws DemoException {
      for (ChildProcess c : new ChildProcess[] {server, agent}) {
        if (c != null && !c.isAlive()) {
          throw new DemoException(
              "the " + c.name() + " stopped; its log " + c.log() + " ends with:\n" + c.tail(15));
        }
      }
    }

    // ---- 6. workload -----------------------------------------------------------------------

    private void runWorkload() throws DemoException {
      section("Workload");
      workload = new Workload(s);
      long rows = workload.initialLoad();
      out.printf(
          Locale.ROOT,
          "  initial load: %d branches and %,d accounts (%,d rows) at the primary%n",
          Workload.BRANCHES,
          s.accounts(),
          rows);
      out.printf(
          Locale.ROOT,
          "  %d client%s for %d s%s: transfers, deposits, new and closed accounts, updates,"
              + " history purges, a few deliberate rollbacks; rs_ticket every %d s%n",
          s.clients(),
          s.clients() == 1 ? "" : "s",
          s.duration().toSeconds(),
          s.rate() > 0 ? " at most " + s.rate() + " tx/s" : "",
          s.ticketInterval().toSeconds());
      out.println(
          "  in = commands the agent sent (REPAGENT CmdsRecv), DIST = commands distributed"
              + " (DIST CmdsRead),");
      out.println(
          "  out = commands applied at the replicate (DSI DSICmdsSucceed); backlog from admin"
              + " who, sqm; latency from admin ticket_history");
      try (AdminSession admin = admin();
          Connection tickets = workload.ticketConnection()) {
        out.println(progress.header());
        lastSample = progress.sample(admin, committed());
        long start = System.nanoTime();
        long end = start + s.duration().toNanos();
        long nextTicket = start + s.ticketInterval().toNanos();
        int ticketNo = 0;
        workload.start();
        long tick = start;
        while (System.nanoTime() < end) {
          tick += s.progressInterval().toNanos();
          sleepUntil(Math.min(tick, end));
          requireAlive();
          if (System.nanoTime() >= nextTicket) {
            ticket(tickets, "t" + (++ticketNo));
            nextTicket += s.ticketInterval().toNanos();
          }
          lastSample = printProgress(admin, "workload", start, lastSample);
        }
        workload.stop();
        Workload.Stats st = workload.stats();
        out.printf(
            Locale.ROOT,
            "  workload done: %,d transactions committed (%,d rows: %,d inserts, %,d updates,"
                + " %,d deletes), %,d rolled back on purpose, %,d failed%s%n",
            st.committed.sum(),
            st.rows(),
            st.inserts.sum(),
            st.updates.sum(),
            st.deletes.sum(),
            st.rolledBack.sum(),
            st.failed.sum(),
            st.failed.sum() > 0 ? " (last error: " + st.lastError.get() + ")" : "");
      } catch (SQLException e) {
        throw new DemoException("sampling the server failed: " + Checks.describe(e), e);
      }
    }

    private long committed() {
      return workload == null ? 0 : workload.stats().committed.sum();
    }

    private void ticket(Connection c, String name) throws DemoException {
      try {
        workload.ticket(c, name);
      } catch (SQLException e) {
        throw new DemoException(
            "rs_ticket('demo', '" + name + "') at the primary failed: " + Checks.describe(e), e);
      }
    }

    private Progress.Sample printProgress(
        AdminSession admin, String phase, long start, Progress.Sample prev) throws SQLException {
      Progress.Sample cur = progress.sample(admin, committed());
      out.println(progress.line(phase, Duration.ofNanos(System.nanoTime() - start), prev, cur));
      return cur;
    }

    // ---- 7. catch-up -----------------------------------------------------------------------

    private boolean catchUp() throws DemoException {
      section("Catching up");
      out.println(
          "  rs_ticket('demo', 'end') at the primary: committed after every workload"
              + " transaction, so when it reaches the replicate, everything before it has.");
      try (AdminSession admin = admin();
          Connection tickets = workload.ticketConnection()) {
        ticket(tickets, "end");
        long start = System.nanoTime();
        long deadline = start + s.catchUpTimeout().toNanos();
        long nextPrint = start + s.progressInterval().toNanos();
        while (true) {
          Optional<Progress.Ticket> last = Progress.lastTicket(admin);
          if (last.isPresent() && last.get().name().equals("end")) {
            lastSample = progress.sample(admin, committed());
            out.printf(
                Locale.ROOT,
                "  caught up %.1f s after the workload ended (ticket latency %,.0f ms)%n",
                (System.nanoTime() - start) / 1e9,
                last.get().latencyMillis());
            return true;
          }
          requireAlive();
          if (System.nanoTime() > deadline) {
            out.println(
                "  the replicate did not catch up within "
                    + s.catchUpTimeout().toSeconds()
                    + " s (--catch-up-timeout); what is down:");
            admin.type("admin who_is_down");
            return false;
          }
          sleep(250);
          if (System.nanoTime() >= nextPrint) {
            lastSample = printProgress(admin, "catch-up", start, lastSample);
            nextPrint += s.progressInterval().toNanos();
          }
        }
      } catch (SQLException e) {
        throw new DemoException("sampling the server failed: " + Checks.describe(e), e);
      }
    }

    // ---- 8. comparison ---------------------------------------------------------------------

    private List<TableCompare.Result> compare() throws DemoException {
      section("Comparing the replicate with the primary");
      out.println(
          "  every row of every table, ordered by key, value by value ("
              + s.primary().kind().title()
              + " "
              + s.primaryDatabase()
              + " vs PostgreSQL "
              + s.replicateDatabase()
              + ")");
      List<TableCompare.Result> results = new ArrayList<>();
      try (Connection p = DemoDatabases.open(s.primary(), s.primaryDatabase());
          Connection r = DemoDatabases.open(s.pg(), s.replicateDatabase())) {
        p.setAutoCommit(false);
        r.setAutoCommit(false);
        out.printf(
            Locale.ROOT, "  %-10s %14s %15s   %s%n", "table", "primary rows", "replicate rows", "");
        for (DemoSchema.Table t : DemoSchema.TABLES) {
          String primaryTable = s.source() == Source.POSTGRESQL ? "public." + t.name() : t.name();
          String replicateTable = s.replicateSchema() + "." + t.name();
          TableCompare.Result res = TableCompare.compare(t, p, primaryTable, r, replicateTable, 5);
          results.add(res);
          out.printf(
              Locale.ROOT,
              "  %-10s %,14d %,15d   %s%n",
              t.name(),
              res.primaryRows(),
              res.replicateRows(),
              res.identical()
                  ? "identical"
                  : String.format(Locale.ROOT, "%,d rows differ", res.differences()));
          for (String example : res.examples()) {
            out.println("      " + example);
          }
        }
        p.rollback();
        r.rollback();
      } catch (SQLException e) {
        throw new DemoException("the comparison failed: " + Checks.describe(e), e);
      }
      return results;
    }

    // ---- 9. counters and verdict -----------------------------------------------------------

    private void counters(boolean identical) throws DemoException {
      section("Counters");
      Workload.Stats st = workload.stats();
      try (AdminSession admin = admin()) {
        Progress.Sample last = progress.sample(admin, committed());
        List<Double> latencies = new ArrayList<>();
        for (Map<String, String> t : admin.rows("admin ticket_history, 1000")) {
          if (t.get("latency_ms") != null) {
            latencies.add(Double.parseDouble(t.get("latency_ms")));
          }
        }
        int exceptions = admin.rows("rs_helpexception").size();
        double elapsed = (System.nanoTime() - started) / 1e9;
        out.printf(
            Locale.ROOT,
            "  primary     %,d transactions committed (initial load included), %,d rolled back,"
                + " %,d failed; %,d rows changed%n",
            st.committed.sum(),
            st.rolledBack.sum(),
            st.failed.sum(),
            st.rows());
        out.printf(
            Locale.ROOT,
            "  agent       %,.0f LTL commands received by the server (%s)%n",
            last.total(Progress.RA_IN),
            Progress.bytes((long) last.total("REPAGENT.BytesReceived")));
        out.printf(
            Locale.ROOT,
            "  SQT         %,.0f transactions in commit order, %,.0f rolled back and discarded%n",
            last.total("SQT.ClosedTransAdd"),
            last.total("SQT.RolledBackTrans"));
        out.printf(
            Locale.ROOT,
            "  DIST        %,.0f transactions, %,.0f commands distributed, %,.0f rs_tickets%n",
            last.total("DIST.TransProcessed"),
            last.total("DIST.CmdsDistributed"),
            last.total("DIST.RSTicket"));
        out.printf(
            Locale.ROOT,
            "  DSI         %,.0f transactions applied in %,.0f replicate transactions;"
                + " %,.0f inserts, %,.0f updates, %,.0f deletes; %,.0f already applied,"
                + " %,.0f in the exceptions log (rs_helpexception: %d)%n",
            last.total("DSI.DSITransUngroupedCommit"),
            last.total("DSI.DSITranGroupsCommit"),
            last.total("DSIEXEC.InsertsRead"),
            last.total("DSIEXEC.UpdatesRead"),
            last.total("DSIEXEC.DeletesRead"),
            last.total("DSI.DSITransIgnored"),
            last.total("DSI.DSITransLogged"),
            exceptions);
        if (!latencies.isEmpty()) {
          List<Double> sorted = latencies.stream().sorted().toList();
          out.printf(
              Locale.ROOT,
              "  rs_ticket   %d tickets, latency primary -> replicate min %,.0f ms, median"
                  + " %,.0f ms, max %,.0f ms%n",
              sorted.size(),
              sorted.get(0),
              sorted.get(sorted.size() / 2),
              sorted.get(sorted.size() - 1));
        }
        out.printf(Locale.ROOT, "  demo        %.1f s in all%n", elapsed);
        if (!identical) {
          out.println("  what is down (admin who_is_down):");
          admin.type("admin who_is_down");
        }
      } catch (SQLException e) {
        throw new DemoException("reading the counters failed: " + Checks.describe(e), e);
      }
    }

    private String verdict(List<TableCompare.Result> results, boolean caughtUp) {
      long rows = results.stream().mapToLong(TableCompare.Result::primaryRows).sum();
      boolean identical = results.stream().allMatch(TableCompare.Result::identical);
      if (identical) {
        return String.format(
            Locale.ROOT,
            "VERDICT: IDENTICAL (%d tables, %,d rows: the replicate equals the primary)",
            results.size(),
            rows);
      }
      return "VERDICT: DIFFERENT ("
          + results.stream()
              .filter(r -> !r.identical())
              .map(r -> r.table() + ": " + r.differences() + " rows differ")
              .collect(Collectors.joining(", "))
          + (caughtUp ? "" : "; the replicate had not caught up")
          + "). Logs: "
          + dir.resolve("repserver.log")
          + ", "
          + dir.resolve("repagent.log");
    }

    // ---- 10. the end -----------------------------------------------------------------------

    private void keepRunning() {
      detached = true;
      out.println();
      out.println(
          "The server (pid "
              + server.pid()
              + ") and the agent (pid "
              + agent.pid()
              + ") keep running. The admin port:");
      out.println(
          "  PGPASSWORD="
              + adminPassword
              + " psql -h "
              + s.listenAddress()
              + " -p "
              + actualAdminPort
              + " -U sa -d rssd");
      out.println(
          "  then e.g.: admin who; admin stats, cps; admin who, sqm; admin ticket_history;"
              + " rs_helpsub;");
      out.println("  (the password is also in " + dir.resolve("admin-password") + ")");
      out.println("Change the primary and watch it arrive:");
      if (s.source() == Source.POSTGRESQL) {
        out.println(
            "  PGPASSWORD=... psql -h "
                + s.pg().host()
                + " -p "
                + s.pg().port()
                + " -U "
                + s.pg().user()
                + " -d "
                + s.primaryDatabase()
                + "   (then: SELECT rs_ticket('me');)");
      } else {
        out.println(
            "  mariadb -h "
                + s.mariadb().host()
                + " -P "
                + s.mariadb().port()
                + " -u "
                + s.mariadb().user()
                + " -p "
                + s.primaryDatabase()
                + "   (then: CALL rs_ticket('me', NULL, NULL, NULL);)");
      }
      out.println(
          "Stop them: kill "
              + agent.pid()
              + " "
              + server.pid()
              + "   (agent first; or the admin command shutdown for the server)."
              + " The next demo run cleans up"
              + (s.source() == Source.POSTGRESQL
                  ? " (including replication slot " + s.slotName() + ")"
                  : "")
              + ".");
    }

    /** Stops the agent, then the server (each gracefully) and drops the demo's slot. */
    void stopChildren(boolean verbose) {
      if (detached) {
        return;
      }
      if (workload != null) {
        workload.stop();
      }
      stop(agent, verbose, "repagent");
      agent = null;
      stop(server, verbose, "repserver");
      server = null;
      Optional<String> dropped = new DemoDatabases(s).dropSlot();
      if (verbose) {
        dropped.ifPresent(d -> out.println("  " + d + " (the primary keeps no WAL for it)"));
      }
    }

    private void stop(ChildProcess c, boolean verbose, String program) {
      if (c == null) {
        return;
      }
      long t0 = System.nanoTime();
      c.stop(STOP_GRACE);
      if (verbose) {
        boolean graceful = c.tail(5).contains(program + " ") && c.tail(5).contains(" stopped");
        out.printf(
            Locale.ROOT,
            "  %s (pid %d) stopped %s in %.1f s%n",
            c.name(),
            c.pid(),
            graceful ? "gracefully" : "(see " + c.log() + ")",
            (System.nanoTime() - t0) / 1e9);
      }
    }

    /** Ctrl-C (or the JVM ending otherwise) during a run: stop the children in order. */
    void interrupted() {
      if (!detached && (server != null || agent != null)) {
        err.println();
        err.println("quickstart-demo: interrupted; stopping the agent and the server");
        stopChildren(false);
      }
    }

    private void sleep(long millis) throws DemoException {
      sleepUntil(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis));
    }

    private void sleepUntil(long nanoTime) throws DemoException {
      long wait = nanoTime - System.nanoTime();
      if (wait <= 0) {
        return;
      }
      try {
        TimeUnit.NANOSECONDS.sleep(wait);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new DemoException("interrupted");
      }
    }
  }

  static String quote(String s) {
    return "'" + s.replace("'", "''") + "'";
  }

  static String generatePassword() {
    String alphabet = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    SecureRandom r = new SecureRandom();
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < 16; i++) {
      b.append(alphabet.charAt(r.nextInt(alphabet.length())));
    }
    return b.toString();
  }

  /** The children's log configuration: INFO to their output, which goes to their log file. */
  static final String CHILD_LOGBACK =
      "<!-- Generated by the OpenRS quick-start demo: the server's and the agent's log. -->\n"
          + "<configuration>\n"
          + "  <appender name=\"STDOUT\" class=\"ch.qos.logback.core.ConsoleAppender\">\n"
          + "    <encoder><pattern>%d{yyyy-MM-dd HH:mm:ss.SSS} %-5level [%thread] %logger{36}"
          + " - %msg%n</pattern></encoder>\n"
          + "  </appender>\n"
          + "  <logger name=\"io.netty\" level=\"WARN\"/>\n"
          + "  <logger name=\"com.zaxxer.hikari\" level=\"WARN\"/>\n"
          + "  <logger name=\"org.flywaydb\" level=\"WARN\"/>\n"
          + "  <logger name=\"org.apache.kafka\" level=\"WARN\"/>\n"
          + "  <logger name=\"io.debezium\" level=\"WARN\"/>\n"
          + "  <logger name=\"org.mariadb.jdbc\" level=\"ERROR\"/>\n"
          + "  <root level=\"INFO\"><appender-ref ref=\"STDOUT\"/></root>\n"
          + "</configuration>\n";
}
