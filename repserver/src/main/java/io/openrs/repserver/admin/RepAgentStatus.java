package io.openrs.repserver.admin;

import io.openrs.config.rssd.ConnectionDef;
import io.openrs.pgwire.PgResult;
import io.openrs.repserver.catalog.Catalog;
import io.openrs.repserver.origin.AgentReport;
import io.openrs.repserver.origin.OriginPipeline;
import java.util.Optional;

/**
 * The REP AGENT as the admin commands show it: its state ({@code admin who}) and what each origin's
 * agent reported it does not capture ({@code admin who, rep}).
 */
final class RepAgentStatus {

  private RepAgentStatus() {}

  /**
   * {@code admin who, rep}: per origin, what its agent last reported it does not capture; one row
   * per item, or one row saying all is captured, or that the agent has not reported.
   */
  static PgResult table(Catalog catalog, ServerControl server, String tag) {
    Table t =
        new Table()
            .text("origin")
            .text("agent")
            .text("state")
            .timestamptz("reported")
            .text("subject")
            .text("status")
            .text("reason");
    for (ConnectionDef c : catalog.view().connections()) {
      OriginPipeline p = server.origins().get(c.id());
      if (p == null) {
        continue;
      }
      String state = state(p);
      Optional<AgentReport> report = p.state().agentReport();
      if (report.isEmpty()) {
        t.row(
            c.name(),
            null,
            state,
            null,
            null,
            "UNKNOWN",
            "no report from an agent since the server started (agents report from LTL protocol"
                + " version 5 on)");
        continue;
      }
      AgentReport r = report.get();
      if (r.items().isEmpty()) {
        t.row(c.name(), r.agent(), state, r.received(), null, "ALL CAPTURED", null);
      }
      for (AgentReport.Item i : r.items()) {
        t.row(
            c.name(),
            r.agent(),
            state,
            r.received(),
            i.subject().isEmpty() ? null : i.subject(),
            i.tableLeftOut() ? "NOT REPLICATED" : "WARNING",
            i.message());
      }
    }
    return t.result(tag);
  }

  /** The REP AGENT thread's state as {@code admin who} shows it. */
  static String state(OriginPipeline p) {
    if (!p.state().logTransfer().running()) {
      return "Suspended";
    }
    return p.agentConnected() ? "Active" : "Down";
  }
}
