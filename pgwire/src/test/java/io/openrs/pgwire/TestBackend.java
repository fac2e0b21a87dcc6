package io.openrs.pgwire;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A small backend for the tests: a few users and commands that return tables, tags, notices and
 * errors, and a record of every command it ran.
 */
final class TestBackend implements PgBackend {
  static final String ADMIN = "sa";
  static final String ADMIN_PASSWORD = "s3cret pw";
  static final String MONITOR = "monitor";
  static final String MONITOR_PASSWORD = "watch it";
  static final String NO_ROLE = "nologin";
  static final String NO_ROLE_PASSWORD = "nologin pw";
  static final String BAD_VERIFIER = "broken";

  static final Instant TIMESTAMP = Instant.parse("2024-03-01T12:34:56.789Z");
  static final BigDecimal NUMERIC = new BigDecimal("-12345.6789");
  static final byte[] BYTES = {1, 2, (byte) 0xff};

  static final List<PgColumn> WHO_COLUMNS =
      List.of(
          new PgColumn("spid", PgType.INT4),
          PgColumn.text("name"),
          PgColumn.text("state"),
          PgColumn.text("info"));

  static final List<PgColumn> TYPE_COLUMNS =
      List.of(
          new PgColumn("t", PgType.TEXT),
          new PgColumn("i", PgType.INT4),
          new PgColumn("l", PgType.INT8),
          new PgColumn("f", PgType.FLOAT8),
          new PgColumn("n", PgType.NUMERIC),
          new PgColumn("b", PgType.BOOL),
          new PgColumn("ts", PgType.TIMESTAMPTZ),
          new PgColumn("by", PgType.BYTEA));

  private final Map<String, PgUser> users;
  final List<String> executed = new CopyOnWriteArrayList<>();
  final List<String> described = new CopyOnWriteArrayList<>();
  final List<PgSession> opened = new CopyOnWriteArrayList<>();
  final BlockingQueue<PgSession> closed = new LinkedBlockingQueue<>();
  final BlockingQueue<String> enteredBarrier = new LinkedBlockingQueue<>();
  volatile CyclicBarrier barrier;

  TestBackend() {
    users =
        Map.of(
            ADMIN, new PgUser(ADMIN, PgScram.verifier(ADMIN_PASSWORD), Set.of("admin")),
            MONITOR, new PgUser(MONITOR, PgScram.verifier(MONITOR_PASSWORD), Set.of("monitor")),
            NO_ROLE, new PgUser(NO_ROLE, PgScram.verifier(NO_ROLE_PASSWORD), Set.of()),
            BAD_VERIFIER, new PgUser(BAD_VERIFIER, "md5deadbeef", Set.of("admin")));
  }

  @Override
  public Optional<PgUser> user(String name) {
    return Optional.ofNullable(users.get(name));
  }

  /** Only {@code echo} can say what it returns without running. */
  @Override
  public Optional<List<PgColumn>> describe(PgSession session, String commandText) {
    described.add(commandText);
    if (commandText.toLowerCase().startsWith("echo ")) {
      return Optional.of(List.of(PgColumn.text("echo")));
    }
    return Optional.empty();
  }

  @Override
  public boolean superuser(PgUser user) {
    return user.roles().contains("admin");
  }

  @Override
  public void sessionOpened(PgSession session) {
    opened.add(session);
  }

  @Override
  public void sessionClosed(PgSession session) {
    closed.add(session);
  }

  /** Counted down by the action {@code admin after} registers for after its ReadyForQuery. */
  final java.util.concurrent.CountDownLatch afterReady = new java.util.concurrent.CountDownLatch(1);

  @Override
  public PgResult execute(PgSession session, String commandText) throws PgException {
    executed.add(commandText);
    String lower = commandText.toLowerCase();
    if (lower.startsWith("echo ")) {
      return PgResult.rows(
          List.of(PgColumn.text("echo")), List.of(List.<Object>of(commandText.substring(5))));
    }
    if (lower.startsWith("suspend connection to ")) {
      return PgResult.command("SUSPEND CONNECTION");
    }
    String[] words = commandText.split("\\s+");
    if (!words[0].equalsIgnoreCase("admin") || words.length < 2) {
      throw syntaxError(commandText, words[0]);
    }
    switch (words[1].toLowerCase()) {
      case "who":
        return PgResult.rows(
            WHO_COLUMNS,
            List.of(
                List.of(1, "DSI EXEC", "Awaiting Command", "101(1) ds.db"),
                Arrays.asList(2, "SQM", "Active", null)));
      case "types":
        return PgResult.rows(TYPE_COLUMNS, List.of(typesRow(), Arrays.asList(new Object[8])));
      case "notice":
        return PgResult.command("ADMIN").withNotice("first notice").withNotice("second notice");
      case "rows":
        {
          int n = Integer.parseInt(words[2]);
          List<List<Object>> rows = new ArrayList<>();
          for (int i = 1; i <= n; i++) {
            rows.add(List.of(i));
          }
          return PgResult.rows(List.of(new PgColumn("n", PgType.INT4)), rows);
        }
      case "session":
        return PgResult.rows(
            List.of(
                PgColumn.text("user"),
                PgColumn.text("roles"),
                PgColumn.text("application_name"),
                new PgColumn("tls", PgType.BOOL),
                new PgColumn("pid", PgType.INT4)),
            List.of(
                List.of(
                    session.user(),
                    String.join(",", new TreeSet<>(session.roles())),
                    session.applicationName(),
                    session.tls(),
                    session.processId())));
      case "barrier":
        enteredBarrier.add(session.user());
        try {
          barrier.await(30, TimeUnit.SECONDS);
          return PgResult.command("ADMIN BARRIER");
        } catch (InterruptedException | BrokenBarrierException | TimeoutException e) {
          throw new PgException("57014", "barrier not reached: " + e, e);
        }
      case "after":
        session.afterReadyForQuery(afterReady::countDown);
        return PgResult.command("ADMIN AFTER");
      case "fail":
        throw new IllegalStateException("the backend broke");
      case "badvalue":
        return PgResult.rows(List.of(new PgColumn("i", PgType.INT4)), List.of(List.of("x")));
      default:
        throw syntaxError(commandText, words[1]);
    }
  }

  static List<Object> typesRow() {
    return List.of("héllo", 42, 1234567890123L, 1.5, NUMERIC, true, TIMESTAMP, BYTES);
  }

  private static PgException syntaxError(String command, String word) {
    return new PgException(
        PgSqlState.SYNTAX_ERROR,
        "syntax error at or near \"" + word + "\"",
        command.indexOf(word) + 1,
        "see docs/admin-commands.md",
        null);
  }
}
