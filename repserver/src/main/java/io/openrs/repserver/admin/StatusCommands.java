package io.openrs.repserver.admin;

import io.openrs.config.rssd.ConnectionDef;
import io.openrs.config.rssd.TicketEntry;
import io.openrs.config.secret.Secrets;
import io.openrs.dsi.DsiConnection;
import io.openrs.dsi.DsiState;
import io.openrs.pgwire.PgException;
import io.openrs.pgwire.PgResult;
import io.openrs.queue.QueueInfo;
import io.openrs.queue.ReaderInfo;
import io.openrs.queue.file.PartitionInfo;
import io.openrs.repserver.admin.rcl.RclCommand;
import io.openrs.repserver.catalog.Catalog;
import io.openrs.repserver.dist.DistStats;
import io.openrs.repserver.origin.AgentReport;
import io.openrs.repserver.origin.OriginPipeline;
import io.openrs.repserver.sqt.SqtStats;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** {@code admin who}, {@code who_is_down}, {@code disk_space}, version, health, echo, tickets. */
final class StatusCommands {

  /** Version reported by {@code admin version}. */
  static final String VERSION = "openrs 0.1.0";

  /** One thread or module as {@code admin who} lists it. */
  record Who(String name, String state, String info) {}

  private final Catalog catalog;
  private final ServerControl server;

  StatusCommands(Catalog catalog, ServerControl server) {
    this.catalog = catalog;
    this.server = server;
  }

  PgResult execute(RclCommand c) throws PgException {
    if (c instanceof RclCommand.AdminShowConnections) {
      Table t =
          new Table()
              .int4("id")
              .text("connection")
              .text("profile")
              .bool("log_transfer")
              .text("state")
              .text("log_transfer_state")
              .text("settings");
      for (ConnectionDef d : catalog.view().connections()) {
        Map<String, String> shown = new TreeMap<>();
        d.properties().forEach((k, v) -> shown.put(k, Secrets.isSecretName(k) ? "***" : v));
        t.row(
            d.id(),
            d.name(),
            d.profile().name().toLowerCase(Locale.ROOT),
            d.logTransfer(),
            d.state().name(),
            d.logTransfer() ? d.logTransferState().name() : null,
            shown.toString());
      }
      return t.result(c.commandTag());
    } else if (c instanceof RclCommand.AdminWho w) {
      return who(w.module().map(m -> m.toLowerCase(Locale.ROOT)).orElse(""), c.commandTag());
    } else if (c instanceof RclCommand.AdminWhoIsDown) {
      Table t = new Table().int4("spid").text("name").text("state").text("info");
      int spid = 0;
      for (Who w : threads()) {
        spid++;
        if (w.state().startsWith("Down") || w.state().equals("Suspended")) {
          t.row(spid, w.name(), w.state(), w.info());
        }
      }
      return t.result(c.commandTag());
    } else if (c instanceof RclCommand.AdminDiskSpace) {
      Table t =
          new Table()
              .text("partition")
              .text("path")
              .int8("total_mb")
              .int8("used_mb")
              .float8("used_percent")
              .text("state");
      for (PartitionInfo p : server.partitions()) {
        t.row(
            p.name(),
            p.directory().toString(),
            p.limitBytes() >> 20,
            p.usedBytes() >> 20,
            p.limitBytes() == 0 ? 0.0 : Math.round(1000.0 * p.usedBytes() / p.limitBytes()) / 10.0,
            p.dropPending() ? "DROP PENDING" : "ON-LINE");
      }
      return t.result(c.commandTag());
    } else if (c instanceof RclCommand.AdminVersion) {
      return new Table()
          .text("version")
          .row(
              VERSION
                  + " (LTL protocol "
                  + io.openrs.wire.WireProtocol.MIN_VERSION
                  + "-"
                  + io.openrs.wire.WireProtocol.MAX_VERSION
                  + ", RSSD schema "
                  + catalog.view().schemaVersion()
                  + ", Java "
                  + Runtime.version()
                  + ")")
          .result(c.commandTag());
    } else if (c instanceof RclCommand.AdminHealth) {
      List<Who> threads = threads();
      long down =
          threads.stream()
              .filter(w -> w.state().startsWith("Down") || w.state().equals("Suspended"))
              .count();
      List<String> waiting = new ArrayList<>();
      List<String> kafkaWaits = new ArrayList<>();
      for (QueueInfo q : server.queueInfos()) {
        String queue = "queue " + q.queue() + " (" + queueOwner(q.queue().number()) + ")";
        if (q.waitingForSegment()) {
          waiting.add(queue + " has waited " + q.segmentWait().toSeconds() + " s for a segment");
        }
        if (q.waitsLongForAcknowledgement()) {
          kafkaWaits.add(
              queue
                  + " has waited "
                  + q.acknowledgementWait().toSeconds()
                  + " s for Kafka to acknowledge a write");
        }
      }
      List<String> leftOut = new ArrayList<>();
      for (OriginPipeline p : server.origins().values()) {
        long n = p.state().agentReport().map(AgentReport::tablesLeftOut).orElse(0L);
        if (n > 0) {
          leftOut.add(
              "origin "
                  + p.state().name()
                  + ": "
                  + n
                  + (n == 1 ? " table" : " tables")
                  + " not replicated");
        }
      }
      List<String> reasons = new ArrayList<>();
      if (down > 0) {
        reasons.add(down + " threads down or suspended (admin who_is_down)");
      }
      if (!waiting.isEmpty()) {
        reasons.add(String.join("; ", waiting) + " (admin disk_space; admin who, sqm)");
      }
      if (!kafkaWaits.isEmpty()) {
        reasons.add(String.join("; ", kafkaWaits) + " (admin who, sqm)");
      }
      if (!leftOut.isEmpty()) {
        reasons.add(String.join("; ", leftOut) + " (admin who, rep)");
      }
      boolean healthy = reasons.isEmpty();
      return new Table()
          .text("mode")
          .text("quiesce")
          .text("status")
          .int4("threads_down")
          .int4("queues_waiting_for_space")
          .text("reason")
          .row(
              "NORMAL",
              "FALSE",
              healthy ? "HEALTHY" : "SUSPECT",
              (int) down,
              waiting.size(),
              healthy ? null : String.join("; ", reasons))
          .result(c.commandTag());
    } else if (c instanceof RclCommand.AdminEcho e) {
      return new Table().text("echo").row(e.text()).result(c.commandTag());
    } else if (c instanceof RclCommand.AdminTicketHistory h) {
      Table t =
          new Table()
              .int8("id")
              .text("origin")
              .text("replicate")
              .text("headers")
              .timestamptz("pdb_time")
              .timestamptz("exec_time")
              .timestamptz("dist_time")
              .timestamptz("dsi_time")
              .timestamptz("rdb_time")
              .float8("latency_ms");
      for (TicketEntry e : catalog.view().recentTickets(h.limit().orElse(20))) {
        Instant pdb = e.moduleTimes().get("pdb");
        Instant rdb = e.moduleTimes().get("rdb");
        t.row(
            e.id(),
            name(e.originConnectionId()),
            name(e.replicateConnectionId()),
            e.headers(),
            pdb,
            e.moduleTimes().get("exec"),
            e.moduleTimes().get("dist"),
            e.moduleTimes().get("dsi"),
            rdb,
            pdb != null && rdb != null ? Duration.between(pdb, rdb).toNanos() / 1e6 : null);
      }
      return t.result(c.commandTag());
    }
    throw new IllegalStateException("not a status command: " + c.kind());
  }

  private String name(int connectionId) {
    return catalog
        .view()
        .connection(connectionId)
        .map(ConnectionDef::name)
        .orElse(String.valueOf(connectionId));
  }

  private PgResult who(String module, String tag) throws PgException {
    switch (module) {
      case "":
        {
          Table t = new Table().int4("spid").text("name").text("state").text("info");
          int spid = 0;
          for (Who w : threads()) {
            t.row(++spid, w.name(), w.state(), w.info());
          }
          return t.result(tag);
        }
      case "sqm":
        {
          Table t =
              new Table()
                  .text("queue")
                  .text("info")
                  .text("state")
                  .int8("first_seg")
                  .int8("last_seg")
                  .int8("segments_active")
                  .text("last_position")
                  .int8("backlog_bytes")
                  .text("readers");
          for (QueueInfo q : server.queueInfos()) {
            List<String> readers = new ArrayList<>();
            for (ReaderInfo r : q.readers()) {
              readers.add(
                  r.name()
                      + "@"
                      + r.confirmed().map(Object::toString).orElse("start")
                      + " backlog "
                      + r.backlogBytes());
            }
            t.row(
                q.queue().toString(),
                queueOwner(q.queue().number()),
                q.state().name()
                    + (q.waitingForSegment()
                        ? " (waiting for a segment for " + q.segmentWait().toSeconds() + " s)"
                        : "")
                    + (q.waitsLongForAcknowledgement()
                        ? " (waiting "
                            + q.acknowledgementWait().toSeconds()
                            + " s for Kafka to acknowledge a write)"
                        : ""),
                q.firstSegment(),
                q.lastSegment(),
                q.segmentsActive(),
                q.lastPosition().map(Object::toString).orElse(null),
                q.backlogBytes(),
                String.join("; ", readers));
          }
          return t.result(tag);
        }
      case "sqt":
        {
          Table t =
              new Table()
                  .text("queue")
                  .text("info")
                  .int8("open")
                  .int8("closed")
                  .int8("rolled_back")
                  .int8("removed")
                  .int8("cache_mem_used")
                  .int8("cache_mem_max")
                  .int8("largest_tran_cmds")
                  .text("state");
          for (OriginPipeline p : server.origins().values()) {
            SqtStats s = p.sqtStats();
            t.row(
                p.inbound().id().toString(),
                p.state().name(),
                s.openTrans - s.closedTrans - s.rolledBackTrans,
                s.closedTrans,
                s.rolledBackTrans,
                s.transRemoved,
                s.cacheMemUsed,
                s.cacheMemMax,
                s.largestTranCmds,
                p.sqtDistAlive() ? "Active" : "Down");
          }
          return t.result(tag);
        }
      case "dist":
        {
          Table t =
              new Table()
                  .text("origin")
                  .text("state")
                  .int8("cmds_read")
                  .int8("trans_processed")
                  .int8("cmds_no_subscriber")
                  .int8("tickets")
                  .text("stopped_because");
          for (OriginPipeline p : server.origins().values()) {
            DistStats s = p.distStats();
            t.row(
                p.state().name(),
                p.distributorStopped().isPresent() ? "Down" : "Active",
                s.cmdsRead,
                s.transProcessed,
                s.cmdsNoSubscriber,
                s.tickets,
                p.distributorStopped().orElse(null));
          }
          return t.result(tag);
        }
      case "dsi":
        {
          Table t =
              new Table()
                  .int4("id")
                  .text("connection")
                  .text("state")
                  .int4("threads")
                  .text("serialization")
                  .text("origin_qid")
                  .text("failure")
                  .float8("lag_seconds")
                  .int8("backlog_bytes");
          for (Map.Entry<Integer, DsiConnection> e : server.dsis().all().entrySet()) {
            DsiConnection d = e.getValue();
            DsiState st = d.state();
            long backlog = d.backlogBytes();
            double lag = d.lagSeconds(backlog);
            t.row(
                e.getKey(),
                d.target().name(),
                dsiState(st),
                d.settings().numThreads(),
                d.settings().serializationMethod().label(),
                st.failure().flatMap(f -> f.commitOqid()).map(Object::toString).orElse(null),
                st.failure().map(f -> f.describe()).orElse(null),
                Double.isNaN(lag) ? null : lag,
                backlog);
          }
          return t.result(tag);
        }
      case "rep":
        return RepAgentStatus.table(catalog, server, tag);
      default:
        throw new PgException(
            AdminErrors.INVALID_PARAMETER_VALUE,
            "admin who: unknown module '" + module + "'; known: sqm, sqt, dist, dsi, rep");
    }
  }

  /**
   * How far a DSI is behind, for its {@code admin who} row: {@code " (lag 12.3 s, 40960 bytes to
   * apply)"}, or nothing when it has caught up.
   */
  private static String behind(DsiConnection dsi) {
    long backlog = dsi.backlogBytes();
    double lag = dsi.lagSeconds(backlog);
    if (backlog == 0 && lag == 0) {
      return "";
    }
    return " (lag "
        + (Double.isNaN(lag) ? "unknown" : String.format(java.util.Locale.ROOT, "%.1f s", lag))
        + ", "
        + backlog
        + " bytes to apply)";
  }

  /** Replication Server's words for a DSI's state. */
  private static String dsiState(DsiState s) {
    switch (s.status()) {
      case RUNNING:
        return "Active";
      case DOWN:
        return "Down";
      default:
        return "Suspended";
    }
  }

  private String queueOwner(int connectionId) {
    return name(connectionId);
  }

  /** Every module thread with its state, as {@code admin who} lists them. */
  List<Who> threads() {
    List<Who> out = new ArrayList<>();
    server
        .lease()
        .ifPresent(
            l ->
                out.add(
                    new Who(
                        "LEASE",
                        l.held() ? "Active" : "Down",
                        l.holder()
                            + " epoch "
                            + l.epoch()
                            + ", server_lease_ms "
                            + l.ttl().toMillis()
                            + (l.held()
                                ? ", counted on for " + l.remaining().toMillis() + " ms more"
                                : ", lost"))));
    Map<io.openrs.queue.QueueId, QueueInfo> queues = new java.util.HashMap<>();
    for (QueueInfo q : server.queueInfos()) {
      queues.put(q.queue(), q);
    }
    for (ConnectionDef c : catalog.view().connections()) {
      OriginPipeline p = server.origins().get(c.id());
      String q = c.id() + ":1 " + c.name();
      if (p != null) {
        long leftOut = p.state().agentReport().map(AgentReport::tablesLeftOut).orElse(0L);
        out.add(
            new Who(
                "REP AGENT",
                RepAgentStatus.state(p),
                c.name()
                    + (leftOut == 0
                        ? ""
                        : " ("
                            + leftOut
                            + (leftOut == 1 ? " table" : " tables")
                            + " not replicated: admin who, rep)")));
        if (p.nrmThread()) {
          out.add(new Who("NRM", p.nrmAlive() ? "Awaiting Wakeup" : "Down", c.name()));
        }
        out.add(sqm(queues.get(io.openrs.queue.QueueId.inbound(c.id())), q));
        out.add(new Who("SQT", p.sqtDistAlive() ? "Awaiting Wakeup" : "Down", q));
        out.add(
            new Who(
                "DIST",
                p.distributorStopped().isPresent() ? "Down" : "Active",
                q + p.distributorStopped().map(r -> " (" + r + ")").orElse("")));
      }
      out.add(sqm(queues.get(io.openrs.queue.QueueId.outbound(c.id())), c.id() + ":0 " + c.name()));
      DsiConnection dsi = server.dsis().all().get(c.id());
      if (dsi != null) {
        DsiState st = dsi.state();
        String state = dsiState(st);
        String info =
            c.id()
                + ":0 "
                + c.name()
                + behind(dsi)
                + st.failure().map(f -> " " + f.describe()).orElse("");
        out.add(new Who("DSI", state, info));
        for (int t = 1; t <= dsi.settings().numThreads(); t++) {
          out.add(new Who("DSI EXEC", state, c.id() + "(" + t + ") " + c.name()));
        }
      }
    }
    return out;
  }

  /**
   * An SQM thread as {@code admin who} shows it: Down when its queue failed, Waiting for Segment
   * while its writer waits for a free segment, else Awaiting Message.
   */
  private static Who sqm(QueueInfo q, String info) {
    if (q == null) {
      return new Who("SQM", "Awaiting Message", info);
    }
    if (q.state() == io.openrs.queue.QueueState.FAILED) {
      return new Who("SQM", "Down", info);
    }
    if (q.waitingForSegment()) {
      return new Who(
          "SQM", "Waiting for Segment", info + " (for " + q.segmentWait().toSeconds() + " s)");
    }
    if (q.waitsLongForAcknowledgement()) {
      return new Who(
          "SQM",
          "Waiting for Kafka",
          info + " (for " + q.acknowledgementWait().toSeconds() + " s)");
    }
    return new Who("SQM", "Awaiting Message", info);
  }
}
