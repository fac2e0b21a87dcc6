package io.openrs.demo;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** The end of the demo: the counters that matter and the verdict, from what was measured. */
final class Report {
  private Report() {}

  /**
   * One line per stage, left to right: the primary (as the workload counted), the server's modules
   * ({@code admin stats}), the tickets ({@code admin ticket_history}).
   */
  static List<String> counters(
      Workload.Stats st, Progress.Sample last, List<Double> latenciesMillis, int exceptions) {
    List<String> out = new ArrayList<>();
    out.add(
        String.format(
            Locale.ROOT,
            "primary     %,d transactions committed (initial load included), %,d rolled back,"
                + " %,d failed",
            st.committed.sum(),
            st.rolledBack.sum(),
            st.failed.sum()));
    out.add(
        String.format(
            Locale.ROOT,
            "rows        changed at the primary: %,d inserts, %,d updates, %,d deletes;"
                + " applied at the replicate: %,.0f, %,.0f, %,.0f",
            st.inserts.sum(),
            st.updates.sum(),
            st.deletes.sum(),
            last.total("DSIEXEC.InsertsRead"),
            last.total("DSIEXEC.UpdatesRead"),
            last.total("DSIEXEC.DeletesRead")));
    out.add(
        String.format(
            Locale.ROOT,
            "agent       %,.0f LTL commands received by the server (%s)",
            last.total(Progress.RA_IN),
            Progress.bytes((long) last.total("REPAGENT.BytesReceived"))));
    out.add(
        String.format(
            Locale.ROOT,
            "SQT         %,.0f transactions put in commit order, %,.0f rolled back and discarded",
            last.total("SQT.ClosedTransAdd"),
            last.total("SQT.RolledBackTrans")));
    out.add(
        String.format(
            Locale.ROOT,
            "DIST        %,.0f transactions, %,.0f commands distributed, %,.0f rs_tickets",
            last.total("DIST.TransProcessed"),
            last.total("DIST.CmdsDistributed"),
            last.total("DIST.RSTicket")));
    out.add(
        String.format(
            Locale.ROOT,
            "DSI         %,.0f transactions applied in %,.0f replicate transactions (grouped),"
                + " %,.0f commands; %,.0f skipped as already applied; %,.0f in the exceptions"
                + " log (rs_helpexception lists %d)",
            last.total("DSI.DSITransUngroupedCommit"),
            last.total("DSI.DSITranGroupsCommit"),
            last.total(Progress.DSI_OUT),
            last.total("DSI.DSITransIgnored"),
            last.total("DSI.DSITransLogged"),
            exceptions));
    if (!latenciesMillis.isEmpty()) {
      List<Double> sorted = latenciesMillis.stream().sorted().toList();
      out.add(
          String.format(
              Locale.ROOT,
              "rs_ticket   %d tickets; latency primary -> replicate: min %,.0f ms, median %,.0f"
                  + " ms, max %,.0f ms",
              sorted.size(),
              sorted.get(0),
              sorted.get(sorted.size() / 2),
              sorted.get(sorted.size() - 1)));
    }
    return out;
  }

  /** {@code VERDICT: IDENTICAL (...)} or {@code VERDICT: DIFFERENT (...)}. */
  static String verdict(List<TableCompare.Result> results, boolean caughtUp, List<Path> logs) {
    boolean identical = results.stream().allMatch(TableCompare.Result::identical);
    if (identical) {
      long rows = results.stream().mapToLong(TableCompare.Result::primaryRows).sum();
      return String.format(
          Locale.ROOT,
          "VERDICT: IDENTICAL (%d tables, %,d rows: the replicate equals the primary)",
          results.size(),
          rows);
    }
    return "VERDICT: DIFFERENT ("
        + results.stream()
            .filter(r -> !r.identical())
            .map(
                r ->
                    String.format(
                        Locale.ROOT,
                        "%s: %,d of %,d rows differ",
                        r.table(),
                        r.differences(),
                        Math.max(r.primaryRows(), r.replicateRows())))
            .collect(Collectors.joining(", "))
        + (caughtUp ? "" : "; the replicate had not caught up")
        + "). Logs: "
        + logs.stream().map(Path::toString).collect(Collectors.joining(", "));
  }
}
