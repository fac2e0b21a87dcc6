package io.openrs.dsi;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Calls the {@code rs_ticket} routine the replication agent created in a primary database
 * (PostgreSQL {@code SELECT public.rs_ticket(...)}, MariaDB {@code CALL rs_ticket(?, ?, ?, ?)} in
 * the URL's database), so a ticket issued at the admin port travels with the primary's log like one
 * a DBA issues there. The server reaches databases only through this module.
 */
public final class RsTicketCall {
  private RsTicketCall() {}

  /**
   * Issues a ticket with {@code headers} (at most four) at {@code primary}.
   *
   * @throws SQLException as the primary reports it (e.g. the routine does not exist yet because its
   *     agent never started)
   */
  public static void issue(DsiTarget primary, List<String> headers) throws SQLException {
    List<String> args = new ArrayList<>(headers);
    String sql;
    if (primary.dialect().equals("postgresql")) {
      sql =
          "SELECT public.rs_ticket("
              + String.join(", ", Collections.nCopies(args.size(), "?"))
              + ")";
    } else {
      while (args.size() < 4) {
        args.add(null);
      }
      sql = "CALL rs_ticket(?, ?, ?, ?)";
    }
    try (Connection c =
            DriverManager.getConnection(primary.jdbcUrl(), primary.user(), primary.password());
        PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < args.size(); i++) {
        ps.setString(i + 1, args.get(i));
      }
      ps.execute();
    }
  }
}
