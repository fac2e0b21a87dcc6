package io.openrs.queue;

import io.openrs.runtime.CounterDefinition;
import io.openrs.runtime.CounterKind;
import io.openrs.runtime.CounterModule;

/**
 * The catalogue of the stable queue's monitor counters, named as Replication Server names them.
 * Every queue engine registers these in Micrometer with tags {@code module} ({@code SQM} or {@code
 * SQMR}), {@code instance} (the queue id, e.g. {@code 101:1}) and, for readers, {@code reader}.
 * {@code docs/counters.md} describes each one (checked by a test). The {@link CounterDefinition}
 * pattern of every module's catalogue.
 */
public enum QueueCounter implements CounterDefinition {
  CMDS_WRITTEN(
      "CmdsWritten",
      Module.SQM,
      CounterKind.COUNTER,
      "messages",
      "Messages written and made durable."),
  BLOCKS_WRITTEN("BlocksWritten", Module.SQM, CounterKind.COUNTER, "blocks", "Blocks written."),
  BLOCKS_FULL_WRITE(
      "BlocksFullWrite",
      Module.SQM,
      CounterKind.COUNTER,
      "blocks",
      "Blocks written full; the rest were written partly filled because nothing more was"
          + " waiting."),
  BYTES_WRITTEN(
      "BytesWritten",
      Module.SQM,
      CounterKind.COUNTER,
      "bytes",
      "Bytes written to segment files: headers, messages and padding; the last block of a write"
          + " ends at its payload rounded up to 4 KiB."),
  SQM_WRITE_TIME(
      "SQMWriteTime",
      Module.SQM,
      CounterKind.TIMER,
      "seconds",
      "Write calls and the time spent in them, including the force to disk under"
          + " sqm_write_flush on/dio."),
  SQM_FLUSHES(
      "SQMFlushes",
      Module.SQM,
      CounterKind.COUNTER,
      "writes",
      "Write calls by the reason the writer ended the page (tag reason): page_full (sqm_page_size"
          + " blocks filled), drained (nothing more waiting), segment_end (the segment ended)."),
  SQM_WAIT_SEG_TIME(
      "SQMWaitSegTime",
      Module.SQM,
      CounterKind.TIMER,
      "seconds",
      "Waits for a free segment (every partition full, or an inbound queue held back by the"
          + " outbound reserve), and their total time; an ongoing wait counts with its time so"
          + " far."),
  SEGS_ACTIVE("SegsActive", Module.SQM, CounterKind.GAUGE, "segments", "Segments the queue holds."),
  SEGS_ALLOCATED(
      "SegsAllocated",
      Module.SQM,
      CounterKind.COUNTER,
      "segments",
      "Segments allocated in partitions."),
  SEGS_DEALLOCATED(
      "SegsDeallocated",
      Module.SQM,
      CounterKind.COUNTER,
      "segments",
      "Segments freed (every reader confirmed past them, or purge)."),
  SQM_BACKLOG_BYTES(
      "SQMBacklogBytes",
      Module.SQM,
      CounterKind.GAUGE,
      "bytes",
      "Bytes written after the slowest reader's confirmed block (all held bytes when the queue has"
          + " no reader)."),
  CMDS_READ(
      "CmdsRead", Module.SQMR, CounterKind.COUNTER, "messages", "Messages returned to the reader."),
  BLOCKS_READ(
      "BlocksRead",
      Module.SQMR,
      CounterKind.COUNTER,
      "blocks",
      "Blocks the reader read, from the cache or from disk."),
  BLOCKS_READ_CACHED(
      "BlocksReadCached",
      Module.SQMR,
      CounterKind.COUNTER,
      "blocks",
      "Blocks the reader took from the queue's cache (sqm_cache_size) instead of disk; should be"
          + " close to BlocksRead."),
  SQMR_READ_TIME(
      "SQMRReadTime",
      Module.SQMR,
      CounterKind.TIMER,
      "seconds",
      "Block reads from disk and the time spent in them (cache hits are not timed)."),
  SLEEPS_WRITE_Q(
      "SleepsWriteQ",
      Module.SQMR,
      CounterKind.COUNTER,
      "waits",
      "Times the reader had read everything durable and waited for the writer."),
  SQMR_BACKLOG_BLOCK(
      "SQMRBacklogBlock",
      Module.SQMR,
      CounterKind.GAUGE,
      "blocks",
      "Blocks written after the reader's confirmed block."),
  SQMR_BACKLOG_SEG(
      "SQMRBacklogSeg",
      Module.SQMR,
      CounterKind.GAUGE,
      "segments",
      "Segments after the segment of the reader's confirmed position.");

  /** Which Replication Server module a counter belongs to (the {@code module} tag). */
  public enum Module implements CounterModule {
    /** The queue writer. */
    SQM,
    /** A queue reader. */
    SQMR
  }

  private final String counterName;
  private final Module module;
  private final CounterKind kind;
  private final String unit;
  private final String description;

  QueueCounter(
      String counterName, Module module, CounterKind kind, String unit, String description) {
    this.counterName = counterName;
    this.module = module;
    this.kind = kind;
    this.unit = unit;
    this.description = description;
  }

  /** Replication Server's name, used as the Micrometer meter name. */
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

  /** Base unit of the value. */
  @Override
  public String unit() {
    return unit;
  }

  @Override
  public String description() {
    return description;
  }
}
