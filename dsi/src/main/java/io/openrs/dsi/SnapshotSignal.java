package io.openrs.dsi;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Asks a primary's replication agent for a snapshot of some tables ({@code create subscription ...
 * with materialization}): inserts a Debezium {@code execute-snapshot} signal row into the signal
 * table the agent created in the primary ({@code rs_signal}, see docs/repagent.md). The agent reads
 * the row from the primary's log like any change, so the request takes effect at its place in the
 * log, also when the agent is down at the time (it reads the row when it comes back).
 *
 * <p>A subscription dropped while it materializes gets a {@code stop-snapshot} row for its tables.
 *
 * <p>The row: {@code id} the request's id (the agent's completion marker carries it back), {@code
 * type} {@code execute-snapshot}, {@code data} {@code {"data-collections": ["schema.table", ...],
 * "type": "incremental"}}. PostgreSQL primaries only. The server reaches databases only through
 * this module.
 */
public final class SnapshotSignal {

  /** The signal table's name; the agent creates it in its {@code rs_ticket_schema}. */
  public static final String TABLE = "rs_signal";

  private SnapshotSignal() {}

  /**
   * The schema-qualified, quoted signal table at {@code primary}.
   *
   * @throws IllegalStateException naming the problem: the primary cannot be reached (with its
   *     SQLSTATE), there is no signal table, or several
   */
  public static String locate(DsiTarget primary) {
    requirePostgres(primary);
    try (Connection c = connect(primary)) {
      return locate(c, primary);
    } catch (SQLException e) {
      throw failed(primary, e);
    }
  }

  private static IllegalStateException failed(DsiTarget primary, SQLException e) {
    return new IllegalStateException(
        "primary " + primary.name() + " (SQLSTATE " + e.getSQLState() + "): " + e.getMessage(), e);
  }

  /**
   * Inserts the {@code execute-snapshot} signal {@code id} for {@code dataCollections} ({@code
   * schema.table} names) at {@code primary}.
   *
   * @throws IllegalStateException naming the problem (with the primary's SQLSTATE), or when there
   *     is no signal table
   */
  public static void request(DsiTarget primary, String id, List<String> dataCollections) {
    insert(primary, id, "execute-snapshot", dataCollections);
  }

  /**
   * Inserts a {@code stop-snapshot} signal {@code id} for {@code dataCollections}: the agent's
   * incremental snapshot stops reading them (a subscription dropped while it materializes).
   *
   * @throws IllegalStateException naming the problem (with the primary's SQLSTATE), or when there
   *     is no signal table
   */
  public static void stop(DsiTarget primary, String id, List<String> dataCollections) {
    insert(primary, id, "stop-snapshot", dataCollections);
  }

  private static void insert(
      DsiTarget primary, String id, String type, List<String> dataCollections) {
    requirePostgres(primary);
    try (Connection c = connect(primary)) {
      String table = locate(c, primary);
      try (PreparedStatement ps =
          c.prepareStatement("INSERT INTO " + table + " (id, type, data) VALUES (?, ?, ?)")) {
        ps.setString(1, id);
        ps.setString(2, type);
        ps.setString(3, data(dataCollections));
        ps.executeUpdate();
      }
    } catch (SQLException e) {
      throw failed(primary, e);
    }
  }

  /** The signal's {@code data}: a JSON object naming the tables, incremental snapshot. */
  static String data(List<String> dataCollections) {
    List<String> quoted = new ArrayList<>();
    for (String d : dataCollections) {
      StringBuilder b = new StringBuilder("\"");
      for (char ch : d.toCharArray()) {
        if (ch == '"' || ch == '\\') {
          b.append('\\').append(ch);
        } else if (ch < 0x20) {
          b.append(String.format("\\u%04x", (int) ch));
        } else {
          b.append(ch);
        }
      }
      quoted.add(b.append('"').toString());
    }
    return "{\"data-collections\": [" + String.join(", ", quoted) + "], \"type\": \"incremental\"}";
  }

  private static String locate(Connection c, DsiTarget primary) throws SQLException {
    List<String> found = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT quote_ident(n.nspname) || '.' || quote_ident(c.relname) FROM pg_class c"
                + " JOIN pg_namespace n ON n.oid = c.relnamespace"
                + " WHERE c.relname = ? AND c.relkind IN ('r', 'p') ORDER BY n.nspname")) {
      ps.setString(1, TABLE);
      try (ResultSet r = ps.executeQuery()) {
        while (r.next()) {
          found.add(r.getString(1));
        }
      }
    }
    if (found.isEmpty()) {
      throw new IllegalStateException(
          "the primary "
              + primary.name()
              + " has no table "
              + TABLE
              + ": its replication agent creates it when it starts (in rs_ticket_schema); start"
              + " the agent once, or create it yourself (docs/repagent.md, materialization)");
    }
    if (found.size() > 1) {
      throw new IllegalStateException(
          "the primary "
              + primary.name()
              + " has several "
              + TABLE
              + " tables ("
              + String.join(", ", found)
              + "); keep the one in the agent's rs_ticket_schema");
    }
    return found.get(0);
  }

  private static void requirePostgres(DsiTarget primary) {
    if (!primary.dialect().equals("postgresql")) {
      throw new IllegalArgumentException(
          "snapshot signals are sent to PostgreSQL primaries only, not to " + primary.name());
    }
  }

  private static Connection connect(DsiTarget t) throws SQLException {
    return DriverManager.getConnection(t.jdbcUrl(), t.user(), t.password());
  }
}
