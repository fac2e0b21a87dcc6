package io.openrs.repserver.monitor;

import io.openrs.runtime.CounterDefinition;
import io.openrs.runtime.CounterKind;
import io.openrs.runtime.CounterModule;

/**
 * The catalogue of the inbound side's monitor counters, named as Replication Server names them
 * where it has a name ({@code rsName} true) and ours otherwise. Registered in Micrometer with tags
 * {@code module} and {@code instance} (the origin, {@code ds.db}); DIST's per-replicate counters
 * add {@code replicate}. {@code docs/counters.md} describes each one (checked by a test).
 */
public enum ServerCounter implements CounterDefinition {
  CMDS_RECV(
      "CmdsRecv",
      Module.REPAGENT,
      CounterKind.COUNTER,
      true,
      "LTL commands received from the agent."),
  AGENT_CONNECTED(
      "AgentConnected",
      Module.REPAGENT,
      CounterKind.GAUGE,
      false,
      "1 while an agent is connected for the origin, 0 while none is (REP AGENT Down or"
          + " Suspended in admin who)."),
  TABLES_NOT_REPLICATED(
      "TablesNotReplicated",
      Module.REPAGENT,
      CounterKind.GAUGE,
      false,
      "Tables the origin's agent last reported it leaves out of the capture (admin who, rep); 0"
          + " before its first report."),
  BYTES_RECEIVED(
      "BytesReceived",
      Module.REPAGENT,
      CounterKind.COUNTER,
      true,
      "Bytes of LTL text received in batches."),
  BATCHES_REJECTED(
      "BatchesRejected",
      Module.REPAGENT,
      CounterKind.COUNTER,
      false,
      "Batches answered with a parse error (the agent resends from the reported command)."),
  EXEC_BATCH_TIME(
      "ExecBatchTime",
      Module.REPAGENT,
      CounterKind.TIMER,
      false,
      "Batches answered and the time from receiving each to answering it: what the agent waits"
          + " for. Low with nrm_thread on, since EXEC answers once NRM has the batch queued."),
  EXEC_NRM_WAIT_TIME(
      "ExecNrmWaitTime",
      Module.REPAGENT,
      CounterKind.TIMER,
      false,
      "Times EXEC stopped reading from the agent because exec_nrm_request_limit bytes were queued"
          + " for NRM, and the time it waited."),
  RA_WRITE_WAITS_TIME(
      "RAWriteWaitsTime",
      Module.REPAGENT,
      CounterKind.TIMER,
      true,
      "Writes to the inbound queue and the time spent handing them to its writer (high when the"
          + " queue's exec_sqm_write_request_limit buffer is full: the disk is the bottleneck)."),
  LINK_BYTES_RECEIVED(
      "LinkBytesReceived",
      Module.REPAGENT,
      CounterKind.COUNTER,
      false,
      "Bytes received from the agent on the wire: compressed when the link is (inside TLS)."),
  LINK_FRAME_BYTES_RECEIVED(
      "LinkFrameBytesReceived",
      Module.REPAGENT,
      CounterKind.COUNTER,
      false,
      "Bytes of frames received from the agent, after decompression; divided by"
          + " LinkBytesReceived it is the compression ratio."),
  LINK_BYTES_SENT(
      "LinkBytesSent",
      Module.REPAGENT,
      CounterKind.COUNTER,
      false,
      "Bytes sent to the agent on the wire: compressed when the link is (inside TLS)."),
  LINK_FRAME_BYTES_SENT(
      "LinkFrameBytesSent",
      Module.REPAGENT,
      CounterKind.COUNTER,
      false,
      "Bytes of frames sent to the agent, before compression."),
  UPDS_RSLOCATER(
      "UpdsRslocater",
      Module.REPAGENT,
      CounterKind.COUNTER,
      true,
      "Writes of the origin's locator (and resume blob) to rs_locater in the RSSD."),
  CMDS_NO_REPDEF(
      "CmdsNoRepdef",
      Module.NRM,
      CounterKind.COUNTER,
      true,
      "Row changes to tables no replication definition covers; dropped at NRM (not loss: nothing"
          + " subscribes to them). A high value may mean a name or case mismatch."),
  DUPLICATES(
      "Duplicates",
      Module.NRM,
      CounterKind.COUNTER,
      true,
      "Commands at or below the origin's last written OQID, dropped as resends."),
  COLUMNS_DROPPED(
      "ColumnsDropped",
      Module.NRM,
      CounterKind.COUNTER,
      false,
      "Column values dropped because no table-level replication definition lists the column."),
  OPEN_TRANS_ADD("OpenTransAdd", Module.SQT, CounterKind.COUNTER, true, "Transactions opened."),
  CLOSED_TRANS_ADD(
      "ClosedTransAdd",
      Module.SQT,
      CounterKind.COUNTER,
      true,
      "Transactions committed and handed to DIST."),
  ROLLED_BACK_TRANS(
      "RolledBackTrans",
      Module.SQT,
      CounterKind.COUNTER,
      false,
      "Transactions rolled back and discarded (the only changes that disappear)."),
  TRANS_REMOVED(
      "TransRemoved",
      Module.SQT,
      CounterKind.COUNTER,
      true,
      "Open transactions whose commands were freed from the cache because sqt_max_cache_size was"
          + " reached; re-read from the queue at commit. Should be 0; raise sqt_max_cache_size."),
  CACHE_MEM_USED(
      "CacheMemUsed",
      Module.SQT,
      CounterKind.GAUGE,
      true,
      "Bytes of commands held in the SQT cache now."),
  CACHE_MEM_MAX(
      "CacheMemMax",
      Module.SQT,
      CounterKind.GAUGE,
      false,
      "The most bytes the SQT cache has held (compare with sqt_max_cache_size)."),
  CMDS_MAX_TRAN(
      "CmdsMaxTran",
      Module.SQT,
      CounterKind.GAUGE,
      false,
      "Commands in the largest transaction seen."),
  CMDS_REREAD(
      "CmdsReread",
      Module.SQT,
      CounterKind.COUNTER,
      false,
      "Commands re-read from the inbound queue for removed transactions."),
  DIST_CMDS_READ(
      "CmdsRead",
      Module.DIST,
      CounterKind.COUNTER,
      true,
      "Commands DIST processed (tag reader=DIST, so the name can share the tag keys of the"
          + " queue readers' CmdsRead; SQT's own reads are SQMR CmdsRead with reader=SQT)."),
  TRANS_PROCESSED(
      "TransProcessed", Module.DIST, CounterKind.COUNTER, true, "Transactions DIST processed."),
  CMDS_NO_SUBSCRIBER(
      "CmdsNoSubscriber",
      Module.DIST,
      CounterKind.COUNTER,
      false,
      "Commands of replicated tables that no subscription wanted (no subscriber, or no where"
          + " clause matched); not distributed."),
  RS_TICKET("RSTicket", Module.DIST, CounterKind.COUNTER, true, "rs_ticket markers distributed."),
  DIST_OUTBOUND_WAIT_TIME(
      "DISTOutboundWaitTime",
      Module.DIST,
      CounterKind.TIMER,
      false,
      "Hand-offs of transactions to outbound queue writers and the time spent in them (waiting"
          + " for another origin's transaction or for a full write buffer)."),
  CMDS_DISTRIBUTED(
      "CmdsDistributed",
      Module.DIST,
      CounterKind.COUNTER,
      false,
      "Commands written to a replicate's outbound queue (tag replicate)."),
  TRANS_DISTRIBUTED(
      "TransDistributed",
      Module.DIST,
      CounterKind.COUNTER,
      false,
      "Transactions written to a replicate's outbound queue (tag replicate).");

  /** The modules of the inbound side, as Replication Server names them. */
  public enum Module implements CounterModule {
    REPAGENT,
    NRM,
    SQT,
    DIST
  }

  private final String counterName;
  private final Module module;
  private final CounterKind kind;
  private final boolean rsName;
  private final String description;

  ServerCounter(
      String counterName, Module module, CounterKind kind, boolean rsName, String description) {
    this.counterName = counterName;
    this.module = module;
    this.kind = kind;
    this.rsName = rsName;
    this.description = description;
  }

  @Override
  public String counterName() {
    return counterName;
  }

  @Override
  public Module module() {
    return module;
  }

  @Override
  public CounterKind kind() {
    return kind;
  }

  /** Whether Replication Server has a counter of this name. */
  public boolean rsName() {
    return rsName;
  }

  @Override
  public String description() {
    return description;
  }

  /** Derived from the kind and the name: {@code seconds} for timers, else what is counted. */
  @Override
  public String unit() {
    if (kind == CounterKind.TIMER) {
      return "seconds";
    }
    String n = counterName;
    if (n.contains("Bytes") || n.contains("Mem")) {
      return "bytes";
    } else if (n.startsWith("Cmds") || n.equals("Duplicates")) {
      return "commands";
    } else if (n.contains("Trans")) {
      return "transactions";
    } else if (n.startsWith("Batches")) {
      return "batches";
    } else if (n.startsWith("Columns")) {
      return "columns";
    } else if (n.contains("Ticket")) {
      return "tickets";
    } else if (n.startsWith("Upds")) {
      return "writes";
    } else if (n.startsWith("Tables")) {
      return "tables";
    } else if (n.startsWith("Agent")) {
      return "agents";
    }
    return "events";
  }
}
