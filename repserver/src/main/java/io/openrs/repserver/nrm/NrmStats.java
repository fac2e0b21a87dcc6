package io.openrs.repserver.nrm;

/** Counters of one origin's NRM, written by its thread and read by the meters. */
public final class NrmStats {
  /** Commands normalized and handed to the inbound queue. */
  public volatile long cmdsWritten;

  /** Row changes to tables no replication definition covers (RS {@code CmdsNoRepdef}). */
  public volatile long cmdsNoRepdef;

  /** Columns dropped because no replication definition lists them. */
  public volatile long columnsDropped;

  /** Commands at or below the origin's last OQID, dropped as resends (RS {@code Duplicates}). */
  public volatile long duplicates;

  /** Nanoseconds NRM waited for the inbound queue's writer (RS {@code RAWriteWaitsTime}). */
  public volatile long writeWaitNanos;

  /** Number of such waits measured (appends). */
  public volatile long writeWaits;
}
