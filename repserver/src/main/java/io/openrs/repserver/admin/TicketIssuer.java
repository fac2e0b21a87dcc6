package io.openrs.repserver.admin;

import io.openrs.config.rssd.ConnectionDef;
import io.openrs.config.rssd.Profile;
import io.openrs.dsi.DsiTarget;
import io.openrs.repserver.dsi.DsiTargets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code rs_ticket} from the admin port: calls the {@code rs_ticket} routine the replication agent
 * created in the primary database (PostgreSQL {@code SELECT public.rs_ticket(...)}, MariaDB {@code
 * CALL rs_ticket(...)} in the connection's database), logging in with the connection's settings, so
 * the ticket travels with the primary's log like one a DBA issues there.
 */
final class TicketIssuer {
  private TicketIssuer() {}

  /**
   * Issues the ticket at {@code primary}.
   *
   * @throws SQLException as the primary reports it (e.g. the routine does not exist yet because its
   *     agent never started)
   * @throws IllegalArgumentException if the connection has no login settings
   */
  static void issue(ConnectionDef primary, List<String> headers) throws SQLException {
    DsiTarget t = DsiTargets.target(primary);
    List<String> args = new ArrayList<>(headers);
    String sql;
    if (primary.profile() == Profile.POSTGRESQL) {
      sql = "SELECT public.rs_ticket(" + placeholders(args.size()) + ")";
    } else {
      while (args.size() < 4) {
        args.add(null);
      }
      sql = "CALL rs_ticket(?, ?, ?, ?)";
    }
    try (Connection c = DriverManager.getConnection(t.jdbcUrl(), t.user(), t.password());
        PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < args.size(); i++) {
        ps.setString(i + 1, args.get(i));
      }
      ps.execute();
    }
  }

  private static String placeholders(int n) {
    return String.join(", ", java.util.Collections.nCopies(n, "?"));
  }
}
