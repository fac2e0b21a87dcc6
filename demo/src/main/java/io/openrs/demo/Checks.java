package io.openrs.demo;

import java.io.IOException;
import java.net.BindException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What a new user gets wrong, each turned into a message naming the problem, where it is and how to
 * fix it. Pure decisions over values the demo reads, so each rule is unit-tested.
 */
final class Checks {
  static final String SETUP = "sudo scripts/setup-databases.sh";

  private Checks() {}

  /**
   * Whether {@code host:port} can be listened on; a problem names the port, what it is for and the
   * option that changes it.
   */
  static Optional<String> portProblem(String host, int port, String what, String option) {
    if (port == 0) {
      return Optional.empty();
    }
    try (ServerSocket s = new ServerSocket()) {
      s.setReuseAddress(true);
      s.bind(new InetSocketAddress(host, port));
      return Optional.empty();
    } catch (BindException e) {
      return Optional.of(
          "port "
              + port
              + " on "
              + host
              + " ("
              + what
              + ") is in use by another program. Stop that program, or give the demo another"
              + " port: "
              + option
              + " <port> (0 takes any free port).");
    } catch (IOException e) {
      return Optional.of(
          "cannot listen on " + host + ":" + port + " (" + what + "): " + e.getMessage());
    }
  }

  /** Why connecting to {@code e} failed, and what to do about it. */
  static String connectProblem(Endpoint e, SQLException ex) {
    String hostOptions = optionPrefix(e.kind());
    Throwable network = networkCause(ex);
    if (network instanceof UnknownHostException) {
      return e.kind().title()
          + " host '"
          + e.host()
          + "' is unknown. Give the right host with "
          + hostOptions
          + "-host.";
    }
    if (network != null || isConnectionState(ex.getSQLState()) && refusedText(ex)) {
      String why =
          network instanceof SocketTimeoutException
              ? "no answer within 5 s"
              : network instanceof ConnectException ? "connection refused" : describe(ex);
      return e.kind().title()
          + " is not reachable at "
          + e.address()
          + " ("
          + why
          + "). Is it running? On this machine `"
          + SETUP
          + "` installs, configures and starts PostgreSQL and MariaDB; if yours listens"
          + " elsewhere, give "
          + hostOptions
          + "-host and "
          + hostOptions
          + "-port.";
    }
    String state = ex.getSQLState() == null ? "" : ex.getSQLState();
    if (state.startsWith("28") || ex.getErrorCode() == 1045) {
      return e.kind().title()
          + " at "
          + e.address()
          + " refused the login of user '"
          + e.user()
          + "' ("
          + describe(ex)
          + "). `"
          + SETUP
          + "` creates the user openrs with password openrs; for another user give "
          + hostOptions
          + "-user and "
          + hostOptions
          + "-password.";
    }
    return "cannot connect to " + e.kind().title() + " at " + e.address() + ": " + describe(ex);
  }

  /** A PostgreSQL primary must run with {@code wal_level = logical}. */
  static Optional<String> walLevelProblem(Endpoint pg, String walLevel) {
    if ("logical".equalsIgnoreCase(walLevel)) {
      return Optional.empty();
    }
    return Optional.of(
        "PostgreSQL at "
            + pg.address()
            + " runs with wal_level = "
            + walLevel
            + "; the agent reads the primary's log through logical decoding, which needs"
            + " wal_level = logical. Run `"
            + SETUP
            + "` (it sets wal_level = logical and restarts PostgreSQL), or do it yourself:"
            + " ALTER SYSTEM SET wal_level = logical; then restart PostgreSQL.");
  }

  /** The PostgreSQL user must be allowed to read the log (superuser or REPLICATION). */
  static Optional<String> replicationRoleProblem(Endpoint pg, boolean superuser, boolean repl) {
    if (superuser || repl) {
      return Optional.empty();
    }
    return Optional.of(
        "PostgreSQL user '"
            + pg.user()
            + "' at "
            + pg.address()
            + " may not read the log: it lacks the REPLICATION attribute. Run ALTER ROLE \""
            + pg.user()
            + "\" REPLICATION; (`"
            + SETUP
            + "` makes the user openrs a superuser), or give another --pg-user.");
  }

  /**
   * The agent needs one replication slot; {@code used} are the slots that stay (the demo drops its
   * own from an earlier run first).
   */
  static Optional<String> slotProblem(Endpoint pg, int maxSlots, List<String> used) {
    if (used.size() < maxSlots) {
      return Optional.empty();
    }
    return Optional.of(
        "PostgreSQL at "
            + pg.address()
            + " has no free replication slot: max_replication_slots = "
            + maxSlots
            + " and all are used ("
            + String.join(", ", used)
            + "). Drop slots nobody needs with SELECT pg_drop_replication_slot('<name>'); or"
            + " raise max_replication_slots (`"
            + SETUP
            + "` sets at least 20).");
  }

  /** A MariaDB primary must write a row-based binlog with full row images. */
  static List<String> binlogProblems(
      Endpoint m, String logBin, String binlogFormat, String rowImage) {
    List<String> out = new ArrayList<>();
    String fix =
        " Run `"
            + SETUP
            + "` (it sets log_bin, binlog_format = ROW and binlog_row_image = FULL and restarts"
            + " MariaDB).";
    if (!isOn(logBin)) {
      out.add(
          "MariaDB at "
              + m.address()
              + " has binary logging off (log_bin = "
              + logBin
              + "); the agent reads the changes from the binlog."
              + fix);
      return out;
    }
    if (!"ROW".equalsIgnoreCase(binlogFormat)) {
      out.add(
          "MariaDB at "
              + m.address()
              + " runs with binlog_format = "
              + binlogFormat
              + "; the agent needs binlog_format = ROW (row images, not statements)."
              + fix
              + " Or: SET GLOBAL binlog_format = 'ROW'; and binlog_format = ROW in its"
              + " configuration file.");
    }
    if (!"FULL".equalsIgnoreCase(rowImage)) {
      out.add(
          "MariaDB at "
              + m.address()
              + " runs with binlog_row_image = "
              + rowImage
              + "; the agent needs binlog_row_image = FULL (whole before and after images)."
              + fix);
    }
    return out;
  }

  private static boolean isOn(String v) {
    String s = v == null ? "" : v.trim().toUpperCase(Locale.ROOT);
    return s.equals("1") || s.equals("ON") || s.equals("TRUE");
  }

  private static String optionPrefix(Source kind) {
    return kind == Source.POSTGRESQL ? "--pg" : "--mariadb";
  }

  private static Throwable networkCause(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof ConnectException
          || c instanceof SocketTimeoutException
          || c instanceof UnknownHostException) {
        return c;
      }
    }
    return null;
  }

  private static boolean isConnectionState(String state) {
    return state != null && state.startsWith("08");
  }

  private static boolean refusedText(SQLException ex) {
    String m = String.valueOf(ex.getMessage()).toLowerCase(Locale.ROOT);
    return m.contains("refused") || m.contains("timed out") || m.contains("fail to connect");
  }

  /** SQLSTATE, vendor code and the message's first line. */
  static String describe(SQLException ex) {
    StringBuilder b = new StringBuilder();
    if (ex.getSQLState() != null) {
      b.append("SQLSTATE ").append(ex.getSQLState()).append(": ");
    }
    String m = String.valueOf(ex.getMessage());
    int nl = m.indexOf('\n');
    b.append(nl >= 0 ? m.substring(0, nl) : m);
    return b.toString();
  }
}
