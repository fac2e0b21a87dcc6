package io.openrs.demo;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
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
    abbreviateSynopsis = true,
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

  private static final Pattern PREFIX = Pattern.compile("openrs_demo[a-z0-9_]{0,40}");

  @Option(
      names = "--source",
      paramLabel = "<source>",
      defaultValue = "postgresql",
      converter = SourceConverter.class,
      completionCandidates = SourceCandidates.class,
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
      paramLabel = "<n>",
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
      paramLabel = "<n>",
      defaultValue = "1000",
      description = "accounts of the initial load (default: ${DEFAULT-VALUE})")
  int accounts;

  @Option(
      names = "--seed",
      paramLabel = "<n>",
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
      paramLabel = "<host>",
      defaultValue = "127.0.0.1",
      description = "PostgreSQL host (default: ${DEFAULT-VALUE})")
  String pgHost;

  @Option(
      names = "--pg-port",
      paramLabel = "<port>",
      defaultValue = "5432",
      description = "PostgreSQL port (default: ${DEFAULT-VALUE})")
  int pgPort;

  @Option(
      names = "--pg-user",
      paramLabel = "<user>",
      defaultValue = "openrs",
      description = "PostgreSQL user (default: ${DEFAULT-VALUE}, made by setup-databases.sh)")
  String pgUser;

  @Option(
      names = "--pg-password",
      paramLabel = "<password>",
      defaultValue = "${env:OPENRS_DEMO_PG_PASSWORD:-openrs}",
      description = "PostgreSQL password (default: $OPENRS_DEMO_PG_PASSWORD, else openrs)",
      arity = "1")
  String pgPassword;

  @Option(
      names = "--mariadb-host",
      paramLabel = "<host>",
      defaultValue = "127.0.0.1",
      description = "MariaDB host (default: ${DEFAULT-VALUE})")
  String mariadbHost;

  @Option(
      names = "--mariadb-port",
      paramLabel = "<port>",
      defaultValue = "3306",
      description = "MariaDB port (default: ${DEFAULT-VALUE})")
  int mariadbPort;

  @Option(
      names = "--mariadb-user",
      paramLabel = "<user>",
      defaultValue = "openrs",
      description = "MariaDB user (default: ${DEFAULT-VALUE})")
  String mariadbUser;

  @Option(
      names = "--mariadb-password",
      paramLabel = "<password>",
      defaultValue = "${env:OPENRS_DEMO_MARIADB_PASSWORD:-openrs}",
      description = "MariaDB password (default: $OPENRS_DEMO_MARIADB_PASSWORD, else openrs)",
      arity = "1")
  String mariadbPassword;

  @Option(
      names = "--catch-up-timeout",
      defaultValue = "600",
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
      paramLabel = "<prefix>",
      defaultValue = "openrs_demo",
      description =
          "prefix of the databases, slot and agent names, matching"
              + " openrs_demo[a-z0-9_]* (default: ${DEFAULT-VALUE})")
  String prefix;

  /** {@code postgresql} or {@code mariadb}, in any case. */
  static final class SourceConverter implements CommandLine.ITypeConverter<Source> {
    @Override
    public Source convert(String value) {
      for (Source s : Source.values()) {
        if (s.toString().equalsIgnoreCase(value)) {
          return s;
        }
      }
      throw new CommandLine.TypeConversionException(
          "'" + value + "' is not a primary the demo knows; use postgresql or mariadb");
    }
  }

  /** The values of {@code --source} as help shows them. */
  static final class SourceCandidates extends ArrayList<String> {
    private static final long serialVersionUID = 1L;

    SourceCandidates() {
      super(List.of("postgresql", "mariadb"));
    }
  }

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
    DemoRun run = new DemoRun(s, out, err, env);
    Thread hook = new Thread(run::interrupted, "openrs-demo-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      return run.execute();
    } catch (DemoException e) {
      if (run.interruptedByUser()) {
        return EXIT_PROBLEM; // the hook said so; what failed after it is a consequence
      }
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

  static String generatePassword() {
    String alphabet = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    SecureRandom r = new SecureRandom();
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < 16; i++) {
      b.append(alphabet.charAt(r.nextInt(alphabet.length())));
    }
    return b.toString();
  }
}
