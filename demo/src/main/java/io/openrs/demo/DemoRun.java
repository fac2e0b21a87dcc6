package io.openrs.demo;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** One run of the demo: its phases, its children and what it learned on the way. */
final class DemoRun {
  private static final Pattern SERVER_READY =
      Pattern.compile("repserver \\S+ ready: ltl_port=(\\d+) admin_port=(\\d+)");
  private static final Pattern AGENT_STARTED = Pattern.compile("repagent \\S+ started: origin");
  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
  private static final Duration STOP_GRACE = Duration.ofSeconds(30);

  private final DemoSettings s;
  private final PrintStream out;
  private final PrintStream err;
  private final QuickstartDemo.Environment env;
  private final WorkDir dir;
  private final long started = System.nanoTime();
  private ChildProcess server;
  private ChildProcess agent;
  private volatile boolean detached;
  private volatile boolean interruptedByUser;
  private String adminPassword;
  private int actualLtlPort;
  private int actualAdminPort;
  private Progress progress;
  private Progress.Sample lastSample;
  private Workload workload;

  DemoRun(DemoSettings s, PrintStream out, PrintStream err, QuickstartDemo.Environment env) {
    this.s = s;
    this.out = out;
    this.err = err;
    this.env = env;
    this.dir = new WorkDir(s.workDir());
  }

  /** Whether Ctrl-C (or another end of the JVM) stopped the run. */
  boolean interruptedByUser() {
    return interruptedByUser;
  }

  int execute() throws DemoException {
    out.printf(
        Locale.ROOT,
        "OpenRS quick-start demo: %s -> PostgreSQL, %d s of OLTP with %d client%s (seed %d)%n",
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
    return identical ? QuickstartDemo.EXIT_IDENTICAL : QuickstartDemo.EXIT_DIFFERENT;
  }

  private void section(String title) {
    out.println();
    long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
    out.printf(Locale.ROOT, "== [%02d:%02d] %s%n", seconds / 60, seconds % 60, title);
  }

  // ---- 1. checks -------------------------------------------------------------------------

  private void checks() throws DemoException {
    section("Checks");
    dir.checkUsable();
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
    dir.writeSecret(Configs.ADMIN_PASSWORD_FILE, adminPassword);
    dir.write("logback.xml", Configs.CHILD_LOGBACK);
    dir.write("repserver.cfg", Configs.server(s));
    List<String> jvm =
        List.of(
            dir.childMarker(),
            "-Xmx1g",
            "-XX:+UseParallelGC",
            "-Dlogback.configurationFile=" + dir.resolve("logback.xml"));
    List<String> cmd =
        ChildProcess.javaCommand(
            "io.openrs.repserver.Main", jvm, List.of("-C", dir.resolve("repserver.cfg") + ""));
    out.println(
        "  starting: java -cp <demo classpath> io.openrs.repserver.Main -C "
            + dir.resolve("repserver.cfg"));
    out.println(
        "            (what bin/repserver runs; its output: " + dir.resolve("repserver.log") + ")");
    server = ChildProcess.start("server", cmd, dir.path(), dir.resolve("repserver.log"));
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

  // ---- 4. configuration through the admin port -------------------------------------------

  private void configure() throws DemoException {
    section("Configuration through the admin port");
    out.println(
        "  the commands a DBA types in psql -h "
            + s.listenAddress()
            + " -p "
            + actualAdminPort
            + " -U sa -d rssd (passwords shown as '***')");
    Endpoint p = s.primary();
    Endpoint r = s.pg();
    try (AdminSession admin = admin()) {
      createConnection(admin, s.primaryConnection(), p, "with log transfer on", "");
      createAgentUser(admin);
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

  /**
   * The agent's least-privilege login: it may connect an agent for the primary and nothing else (no
   * admin port, no other origin). Its password is generated and given to the agent by file.
   */
  private void createAgentUser(AdminSession admin) throws DemoException {
    String password = QuickstartDemo.generatePassword();
    dir.writeSecret(Configs.AGENT_PASSWORD_FILE, password);
    String head = "create user " + Configs.AGENT_USER + " set password ";
    admin.type(head + "'***' with role none", head + Configs.quote(password) + " with role none");
    admin.type("grant connect source on " + s.primaryConnection() + " to " + Configs.AGENT_USER);
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
    admin.type(head + "'***'" + tail, head + Configs.quote(e.password()) + tail);
  }

  private AdminSession admin() throws DemoException {
    return AdminSession.open(s.listenAddress(), actualAdminPort, adminPassword, out);
  }

  // ---- 5. agent --------------------------------------------------------------------------

  private void startAgent() throws DemoException {
    section("Replication agent");
    dir.writeSecret(Configs.SOURCE_PASSWORD_FILE, s.primary().password());
    dir.write("repagent.cfg", Configs.agent(s, actualLtlPort));
    List<String> jvm =
        List.of(
            dir.childMarker(),
            "-Xmx1g",
            "-XX:+UseParallelGC",
            "-Dlogback.configurationFile=" + dir.resolve("logback.xml"));
    List<String> cmd =
        ChildProcess.javaCommand(
            "io.openrs.repagent.Main", jvm, List.of("-C", dir.resolve("repagent.cfg") + ""));
    out.println(
        "  starting: java -cp <demo classpath> io.openrs.repagent.Main -C "
            + dir.resolve("repagent.cfg"));
    out.println(
        "            (what bin/repagent runs; its output: " + dir.resolve("repagent.log") + ")");
    agent = ChildProcess.start("agent", cmd, dir.path(), dir.resolve("repagent.log"));
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

  /**
   * Calls {@code rs_ticket('demo', 'ready')} at the primary every two seconds until one reaches the
   * replicate: then the agent reads the log and every module applies.
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
          if (stopped(admin.rows("admin who_is_down"))) {
            out.println("  replication stopped; what is down:");
            admin.type("admin who_is_down");
            return false;
          }
        }
      }
    } catch (SQLException e) {
      throw new DemoException("sampling the server failed: " + Checks.describe(e), e);
    }
  }

  /**
   * Whether a module that does not come back by itself is down (DSI, DIST ...: they wait for the
   * DBA); an agent that is not connected (REP AGENT) reconnects by itself.
   */
  static boolean stopped(List<Map<String, String>> whoIsDown) {
    return whoIsDown.stream()
        .anyMatch(r -> "Down".equals(r.get("state")) && !"REP AGENT".equals(r.get("name")));
  }

  // ---- 8. comparison ---------------------------------------------------------------------

  private List<TableCompare.Result> compare() throws DemoException {
    section("Comparing the replicate with the primary");
    return TableCompare.all(s, out);
  }

  // ---- 9. counters and verdict -----------------------------------------------------------

  private void counters(boolean identical) throws DemoException {
    section("Counters");
    try (AdminSession admin = admin()) {
      Progress.Sample last = progress.sample(admin, committed());
      List<Double> latencies = new ArrayList<>();
      for (Map<String, String> t : admin.rows("admin ticket_history, 1000")) {
        if (t.get("latency_ms") != null) {
          latencies.add(Double.parseDouble(t.get("latency_ms")));
        }
      }
      int exceptions = admin.rows("rs_helpexception").size();
      for (String line : Report.counters(workload.stats(), last, latencies, exceptions)) {
        out.println("  " + line);
      }
      out.printf(Locale.ROOT, "  demo        %.1f s in all%n", (System.nanoTime() - started) / 1e9);
      if (!identical) {
        out.println("  what is down:");
        admin.type("admin who_is_down");
      }
    } catch (SQLException e) {
      throw new DemoException("reading the counters failed: " + Checks.describe(e), e);
    }
  }

  private String verdict(List<TableCompare.Result> results, boolean caughtUp) {
    return Report.verdict(
        results, caughtUp, List.of(dir.resolve("repserver.log"), dir.resolve("repagent.log")));
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
  synchronized void stopChildren(boolean verbose) {
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
      interruptedByUser = true;
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
