package io.openrs.ltl;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One LTL command. Session commands ({@link Connect}, {@link Connected}, {@link GetTruncation},
 * {@link Truncation}) manage the agent's connection; every other command belongs to an origin
 * transaction and carries its {@link Oqid} ({@link InTransaction}). Transactions of one origin may
 * interleave in a stream; {@link Begin} ... {@link Commit} or {@link Rollback} bracket each one.
 *
 * <p>The text syntax of each command is in {@code docs/ltl.md}.
 */
public sealed interface LtlCommand {

  /** The {@code origin time} of commit and begin: UTC, microsecond precision. */
  static Instant requireMicros(Instant time) {
    Objects.requireNonNull(time, "time");
    if (time.getNano() % 1000 != 0) {
      throw new IllegalArgumentException("LTL times carry microseconds at most, got " + time);
    }
    return time;
  }

  /** A command of an origin transaction. */
  sealed interface InTransaction extends LtlCommand {
    TranId tran();

    Oqid oqid();
  }

  /** A row change: insert, update or delete of one row of one table. */
  sealed interface RowChange extends InTransaction {
    TableName table();
  }

  /**
   * First command of a session: the agent names its origin ({@code dataserver.database}), the range
   * of protocol versions it speaks, its credentials and (protocol version 4 on) the compression
   * methods it offers for the link, in its order of preference.
   *
   * @param password in the text for protocol versions 1-3; a version 4 agent sends none (it proves
   *     the password in SCRAM frames, docs/formats/ltl-wire.md)
   * @param compression names of compression methods ({@code lz4}, {@code zstd}), most preferred
   *     first; empty: no compression offered. A server ignores names it does not know.
   */
  record Connect(
      String originServer,
      String originDatabase,
      int minVersion,
      int maxVersion,
      String user,
      Optional<String> password,
      Optional<String> agent,
      List<String> compression)
      implements LtlCommand {

    /** Most compression methods one connect command may offer. */
    public static final int MAX_COMPRESSION_METHODS = 8;

    /** What a compression method's name may look like. */
    public static final String COMPRESSION_NAME_PATTERN = "[a-z0-9_-]{1,32}";

    public Connect {
      Objects.requireNonNull(originServer, "originServer");
      Objects.requireNonNull(originDatabase, "originDatabase");
      Objects.requireNonNull(user, "user");
      Objects.requireNonNull(password, "password");
      Objects.requireNonNull(agent, "agent");
      if (minVersion < 1 || maxVersion < minVersion) {
        throw new IllegalArgumentException(
            "protocol versions must be 1 <= min <= max, got " + minVersion + "-" + maxVersion);
      }
      compression = List.copyOf(compression);
      if (compression.size() > MAX_COMPRESSION_METHODS) {
        throw new IllegalArgumentException(
            "at most " + MAX_COMPRESSION_METHODS + " compression methods, got " + compression);
      }
      for (String name : compression) {
        if (!name.matches(COMPRESSION_NAME_PATTERN)) {
          throw new IllegalArgumentException(
              "compression method '" + name + "' must match " + COMPRESSION_NAME_PATTERN);
        }
      }
    }

    /** A connect command with a password that offers no compression. */
    public Connect(
        String originServer,
        String originDatabase,
        int minVersion,
        int maxVersion,
        String user,
        String password,
        Optional<String> agent) {
      this(
          originServer,
          originDatabase,
          minVersion,
          maxVersion,
          user,
          Optional.of(password),
          agent,
          List.of());
    }

    /** A connect command that offers no compression. */
    public Connect(
        String originServer,
        String originDatabase,
        int minVersion,
        int maxVersion,
        String user,
        Optional<String> password,
        Optional<String> agent) {
      this(originServer, originDatabase, minVersion, maxVersion, user, password, agent, List.of());
    }

    /** The same command without the password (what a version 4 agent sends). */
    public Connect withoutPassword() {
      return new Connect(
          originServer,
          originDatabase,
          minVersion,
          maxVersion,
          user,
          Optional.empty(),
          agent,
          compression);
    }

    /** Never prints the password. */
    @Override
    public String toString() {
      return "Connect[origin="
          + originServer
          + "."
          + originDatabase
          + ", versions="
          + minVersion
          + "-"
          + maxVersion
          + ", user="
          + user
          + (password.isPresent() ? ", password=***" : "")
          + ", agent="
          + agent.orElse("")
          + (compression.isEmpty() ? "" : ", compression=" + String.join(",", compression))
          + "]";
    }
  }

  /** The server's answer to {@link Connect}: the protocol version both will speak. */
  record Connected(int version) implements LtlCommand {
    public Connected {
      if (version < 1) {
        throw new IllegalArgumentException("protocol version must be >= 1, got " + version);
      }
    }
  }

  /** The agent asks for the origin's secondary truncation point. */
  record GetTruncation() implements LtlCommand {}

  /** The server's answer to {@link GetTruncation}: the last durable OQID, if any. */
  record Truncation(Optional<Oqid> oqid) implements LtlCommand {
    public Truncation {
      Objects.requireNonNull(oqid, "oqid");
    }
  }

  /** Opens origin transaction {@code tran}, begun at {@code time} by {@code user}. */
  record Begin(TranId tran, Oqid oqid, Instant time, Optional<String> user)
      implements InTransaction {
    public Begin {
      Objects.requireNonNull(tran, "tran");
      Objects.requireNonNull(oqid, "oqid");
      requireMicros(time);
      Objects.requireNonNull(user, "user");
    }
  }

  /** Commits origin transaction {@code tran} at origin time {@code time}. */
  record Commit(TranId tran, Oqid oqid, Instant time) implements InTransaction {
    public Commit {
      Objects.requireNonNull(tran, "tran");
      Objects.requireNonNull(oqid, "oqid");
      requireMicros(time);
    }
  }

  /** Rolls back origin transaction {@code tran}: all its commands disappear. */
  record Rollback(TranId tran, Oqid oqid) implements InTransaction {
    public Rollback {
      Objects.requireNonNull(tran, "tran");
      Objects.requireNonNull(oqid, "oqid");
    }
  }

  /**
   * A new row. {@code snapshot} marks rows read by initial materialization (the replicate may apply
   * them as upserts).
   */
  record Insert(TranId tran, Oqid oqid, TableName table, boolean snapshot, List<Column> after)
      implements RowChange {
    public Insert {
      Objects.requireNonNull(tran, "tran");
      Objects.requireNonNull(oqid, "oqid");
      Objects.requireNonNull(table, "table");
      after = List.copyOf(after);
      if (after.isEmpty()) {
        throw new IllegalArgumentException("an insert needs at least one column");
      }
    }
  }

  /**
   * A changed row: {@code before} holds at least the key columns (all columns when the source has
   * them), {@code after} the new values (columns the source did not provide are {@link
   * Value#UNCHANGED} or absent).
   */
  record Update(TranId tran, Oqid oqid, TableName table, List<Column> before, List<Column> after)
      implements RowChange {
    public Update {
      Objects.requireNonNull(tran, "tran");
      Objects.requireNonNull(oqid, "oqid");
      Objects.requireNonNull(table, "table");
      before = List.copyOf(before);
      after = List.copyOf(after);
      if (before.isEmpty() || after.isEmpty()) {
        throw new IllegalArgumentException("an update needs a before and an after image");
      }
    }
  }

  /** A deleted row, identified by its before image (key columns at least). */
  record Delete(TranId tran, Oqid oqid, TableName table, List<Column> before) implements RowChange {
    public Delete {
      Objects.requireNonNull(tran, "tran");
      Objects.requireNonNull(oqid, "oqid");
      Objects.requireNonNull(table, "table");
      before = List.copyOf(before);
      if (before.isEmpty()) {
        throw new IllegalArgumentException("a delete needs a before image");
      }
    }
  }

  /** All rows of {@code table} removed. */
  record Truncate(TranId tran, Oqid oqid, TableName table) implements InTransaction {
    public Truncate {
      Objects.requireNonNull(tran, "tran");
      Objects.requireNonNull(oqid, "oqid");
      Objects.requireNonNull(table, "table");
    }
  }

  /** A DDL statement as the origin ran it, with the schema it ran in when known. */
  record Ddl(TranId tran, Oqid oqid, Optional<String> schema, String statement)
      implements InTransaction {
    public Ddl {
      Objects.requireNonNull(tran, "tran");
      Objects.requireNonNull(oqid, "oqid");
      Objects.requireNonNull(schema, "schema");
      Objects.requireNonNull(statement, "statement");
    }
  }

  /**
   * An {@code rs_ticket} latency marker: free-text headers, stamped with the origin time; each
   * module adds its own timestamp on the way to the replicate.
   */
  record Ticket(TranId tran, Oqid oqid, Instant time, List<String> headers)
      implements InTransaction {
    public Ticket {
      Objects.requireNonNull(tran, "tran");
      Objects.requireNonNull(oqid, "oqid");
      requireMicros(time);
      headers = List.copyOf(headers);
    }
  }
}
