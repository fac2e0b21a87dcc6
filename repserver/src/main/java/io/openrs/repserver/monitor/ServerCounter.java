package io.openrs.repserver.monitor;

/**
 * The catalogue of the inbound side's monitor counters, named as Replication Server names them
 * where it has a name ({@code rsName} true) and ours otherwise. Registered in Micrometer with tags
 * {@code module} and {@code instance} (the origin, {@code ds.db}); DIST's per-replicate counters
 * add {@code replicate}. {@code docs/counters.md} describes each one (checked by a test).
 */
public enum ServerCounter {
  CMDS_RECV("CmdsRecv", "REPAGENT", Kind.COUNTER, true, "LTL commands received from the agent."),
  BYTES_RECEIVED(
      "BytesReceived", "REPAGENT", Kind.COUNTER, true, "Bytes of LTL text received in batches."),
  BATCHES_REJECTED(
      "BatchesRejected",
      "REPAGENT",
      Kind.COUNTER,
      false,
      "Batches answered with a parse error (the agent resends from the reported command)."),
  EXEC_BATCH_TIME(
      "ExecBatchTime",
      "REPAGENT",
      Kind.TIMER,
      false,
      "Batches answered and the time from receiving each to answering it: what the agent waits"
          + " for. Low with nrm_thread on, since EXEC answers once NRM has the batch queued."),
  EXEC_NRM_WAIT_TIME(
      "ExecNrmWaitTime",
      "REPAGENT",
      Kind.TIMER,
      false,
      "Times EXEC stopped reading from the agent because exec_nrm_request_limit bytes were queued"
          + " for NRM, and the time it waited."),
  RA_WRITE_WAITS_TIME(
      "RAWriteWaitsTime",
      "REPAGENT",
      Kind.TIMER,
      true,
      "Writes to the inbound queue and the time spent handing them to its writer (high when the"
          + " queue's exec_sqm_write_request_limit buffer is full: the disk is the bottleneck)."),
  LINK_BYTES_RECEIVED(
      "LinkBytesReceived",
      "REPAGENT",
      Kind.COUNTER,
      false,
      "Bytes received from the agent on the wire: compressed when the link is (inside TLS)."),
  LINK_FRAME_BYTES_RECEIVED(
      "LinkFrameBytesReceived",
      "REPAGENT",
      Kind.COUNTER,
      false,
      "Bytes of frames received from the agent, after decompression; divided by"
          + " LinkBytesReceived it is the compression ratio."),
  LINK_BYTES_SENT(
      "LinkBytesSent",
      "REPAGENT",
      Kind.COUNTER,
      false,
      "Bytes sent to the agent on the wire: compressed when the link is (inside TLS)."),
  LINK_FRAME_BYTES_SENT(
      "LinkFrameBytesSent",
      "REPAGENT",
      Kind.COUNTER,
      false,
      "Bytes of frames sent to the agent, before compression."),
  UPDS_RSLOCATER(
      "UpdsRslocater",
      "REPAGENT",
      Kind.COUNTER,
      true,
      "Writes of the origin's locator (and resume blob) to rs_locater in the RSSD."),
  CMDS_NO_REPDEF(
      "CmdsNoRepdef",
      "NRM",
      Kind.COUNTER,
      true,
      "Row changes to tables no replication definition covers; dropped at NRM (not loss: nothing"
          + " subscribes to them). A high value may mean a name or case mismatch."),
  DUPLICATES(
      "Duplicates",
      "NRM",
      Kind.COUNTER,
      true,
      "Commands at or below the origin's last written OQID, dropped as resends."),
  COLUMNS_DROPPED(
      "ColumnsDropped",
      "NRM",
      Kind.COUNTER,
      false,
      "Column values dropped because no table-level replication definition lists the column."),
  OPEN_TRANS_ADD("OpenTransAdd", "SQT", Kind.COUNTER, true, "Transactions opened."),
  CLOSED_TRANS_ADD(
      "ClosedTransAdd", "SQT", Kind.COUNTER, true, "Transactions committed and handed to DIST."),
  ROLLED_BACK_TRANS(
      "RolledBackTrans",
      "SQT",
      Kind.COUNTER,
      false,
      "Transactions rolled back and discarded (the only changes that disappear)."),
  TRANS_REMOVED(
      "TransRemoved",
      "SQT",
      Kind.COUNTER,
      true,
      "Open transactions whose commands were freed from the cache because sqt_max_cache_size was"
          + " reached; re-read from the queue at commit. Should be 0; raise sqt_max_cache_size."),
  CACHE_MEM_USED(
      "CacheMemUsed", "SQT", Kind.GAUGE, true, "Bytes of commands held in the SQT cache now."),
  CACHE_MEM_MAX(
      "CacheMemMax",
      "SQT",
      Kind.GAUGE,
      false,
      "The most bytes the SQT cache has held (compare with sqt_max_cache_size)."),
  CMDS_MAX_TRAN(
      "CmdsMaxTran", "SQT", Kind.GAUGE, false, "Commands in the largest transaction seen."),
  CMDS_REREAD(
      "CmdsReread",
      "SQT",
      Kind.COUNTER,
      false,
      "Commands re-read from the inbound queue for removed transactions."),
  DIST_CMDS_READ(
      "CmdsRead",
      "DIST",
      Kind.COUNTER,
      true,
      "Commands DIST processed (tag reader=DIST, so the name can share the tag keys of the"
          + " queue readers' CmdsRead; SQT's own reads are SQMR CmdsRead with reader=SQT)."),
  TRANS_PROCESSED("TransProcessed", "DIST", Kind.COUNTER, true, "Transactions DIST processed."),
  CMDS_NO_SUBSCRIBER(
      "CmdsNoSubscriber",
      "DIST",
      Kind.COUNTER,
      false,
      "Commands of replicated tables that no subscription wanted (no subscriber, or no where"
          + " clause matched); not distributed."),
  RS_TICKET("RSTicket", "DIST", Kind.COUNTER, true, "rs_ticket markers distributed."),
  DIST_OUTBOUND_WAIT_TIME(
      "DISTOutboundWaitTime",
      "DIST",
      Kind.TIMER,
      false,
      "Hand-offs of transactions to outbound queue writers and the time spent in them (waiting"
          + " for another origin's transaction or for a full write buffer)."),
  CMDS_DISTRIBUTED(
      "CmdsDistributed",
      "DIST",
      Kind.COUNTER,
      false,
      "Commands written to a replicate's outbound queue (tag replicate)."),
  TRANS_DISTRIBUTED(
      "TransDistributed",
      "DIST",
      Kind.COUNTER,
      false,
      "Transactions written to a replicate's outbound queue (tag replicate).");

  /** How the value behaves. */
  public enum Kind {
    COUNTER,
    GAUGE,
    TIMER
  }

  private final String counterName;
  private final String module;
  private final Kind kind;
  private final boolean rsName;
  private final String description;

  ServerCounter(String counterName, String module, Kind kind, boolean rsName, String description) {
    this.counterName = counterName;
    this.module = module;
    this.kind = kind;
    this.rsName = rsName;
    this.description = description;
  }

  public String counterName() {
    return counterName;
  }

  public String module() {
    return module;
  }

  public Kind kind() {
    return kind;
  }

  /** Whether Replication Server has a counter of this name. */
  public boolean rsName() {
    return rsName;
  }

  public String description() {
    return description;
  }
}
