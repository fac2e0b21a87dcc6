package io.openrs.config.rssd;

import static io.openrs.config.rssd.SystemTable.RS_TICKET_HISTORY;

import io.openrs.config.rssd.RssdException.Reason;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** {@link TicketsTable} on {@code rs_ticket_history}. */
final class SqlTicketsTable implements TicketsTable {
  /** Module keys in column order: {@code <key>_t}. */
  private static final List<String> COLUMN_ORDER = List.of("pdb", "exec", "dist", "dsi", "rdb");

  private final Jdbc jdbc;
  private final Clock clock;

  SqlTicketsTable(Jdbc jdbc, Clock clock) {
    this.jdbc = jdbc;
    this.clock = clock;
  }

  @Override
  public long add(
      int originConnectionId,
      int replicateConnectionId,
      String headers,
      Map<String, Instant> moduleTimes) {
    Objects.requireNonNull(headers, "headers");
    for (String module : moduleTimes.keySet()) {
      if (!MODULES.contains(module)) {
        throw new RssdException(
            Reason.INVALID,
            RS_TICKET_HISTORY.sqlName(),
            headers,
            "unknown ticket module '" + module + "'; known: " + COLUMN_ORDER);
      }
    }
    return jdbc.write(
        RS_TICKET_HISTORY,
        headers,
        null,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "insert into rs_ticket_history (orig_conn_id, repl_conn_id, ticket, pdb_t,"
                      + " exec_t, dist_t, dsi_t, rdb_t, logged) values (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                  new String[] {"cnt"})) {
            ps.setInt(1, originConnectionId);
            ps.setInt(2, replicateConnectionId);
            ps.setString(3, headers);
            int i = 4;
            for (String module : COLUMN_ORDER) {
              Jdbc.setInstant(ps, i++, moduleTimes.get(module));
            }
            Jdbc.setInstant(ps, i, clock.instant());
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
              keys.next();
              return keys.getLong(1);
            }
          }
        });
  }

  @Override
  public List<TicketEntry> recent(int limit) {
    if (limit < 0) {
      throw new IllegalArgumentException("limit must not be negative: " + limit);
    }
    return jdbc.read(
        RS_TICKET_HISTORY,
        "recent " + limit,
        c -> {
          List<TicketEntry> result = new ArrayList<>();
          try (PreparedStatement ps =
              c.prepareStatement(
                  "select cnt, orig_conn_id, repl_conn_id, ticket, pdb_t, exec_t, dist_t, dsi_t,"
                      + " rdb_t, logged from rs_ticket_history order by cnt desc"
                      + " fetch first ? rows only")) {
            ps.setInt(1, limit);
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                Map<String, Instant> times = new HashMap<>();
                for (String module : COLUMN_ORDER) {
                  Instant t = Jdbc.getInstant(rs, module + "_t");
                  if (t != null) {
                    times.put(module, t);
                  }
                }
                result.add(
                    new TicketEntry(
                        rs.getLong("cnt"),
                        rs.getInt("orig_conn_id"),
                        rs.getInt("repl_conn_id"),
                        rs.getString("ticket"),
                        times,
                        Jdbc.getInstant(rs, "logged")));
              }
            }
          }
          return List.copyOf(result);
        });
  }
}
