package io.openrs.repagent;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * What differs between primary databases: how the primary is checked and prepared, the Debezium
 * connector's properties, and how its records become LTL (OQIDs above all). One implementation per
 * {@link SourceProfile}.
 */
interface SourceDialect {

  /** Bytes of an OQID's commit position (before the 4-byte index). */
  int prefixBytes();

  /**
   * Whether the primary itself keeps this agent's read position (a PostgreSQL replication slot), so
   * that a session without a resume blob still starts at or before what the server holds.
   * MariaDB/MySQL keep none: without offsets the connector starts at the current end of the binlog.
   */
  boolean keepsReadPosition();

  /** The position in the primary's log an OQID of this source names, for messages. */
  String describePosition(io.openrs.ltl.Oqid oqid);

  /**
   * Checks that the primary's log can be read (failing with a message naming the setting) and
   * creates what the agent needs there (the heartbeat table). Runs before every session.
   *
   * @throws AgentException {@link AgentException.Code#SOURCE_SETUP} for a setup the DBA must fix,
   *     {@link AgentException.Code#SOURCE_UNAVAILABLE} when the primary cannot be reached
   */
  void prepare();

  /**
   * The stored offsets as the connector should read them at start: by default unchanged; a dialect
   * whose connector could resume inside a transaction from them makes them safe ({@link
   * PostgresResumeOffsets}). A dialect whose primary keeps a position for the agent checks here
   * that it does not lie past {@code serverPoint}, the truncation point the server handed over (the
   * last command it holds durably): past it, changes the server never received are gone.
   */
  default Map<ByteBuffer, ByteBuffer> restartOffsets(
      Map<ByteBuffer, ByteBuffer> stored, Optional<io.openrs.ltl.Oqid> serverPoint) {
    return stored;
  }

  /**
   * What the agent does not capture from this primary: the findings of the last {@link #prepare()}
   * and the tables left out while streaming since. One per dialect, so it outlives sessions.
   */
  CaptureStatus captureStatus();

  /** The connector's properties (the common engine properties are added by the session). */
  Properties connectorProperties();

  /** A mapper for one session, writing into {@code out}. */
  RecordMapper newMapper(TransactionAssembler out, AgentCounters counters);

  /** Turns records of one session into LTL; owned by the engine's thread. */
  interface RecordMapper extends AutoCloseable {
    /**
     * Maps one record.
     *
     * @return whether the record's offset is a safe restart point: no transaction is open after it
     *     (the log reader restarted from it replays whole transactions only)
     */
    boolean map(SourceRecord record) throws InterruptedException;

    @Override
    default void close() {}
  }

  /** The dialect for {@code settings}. */
  static SourceDialect of(AgentSettings settings) {
    switch (settings.source().profile()) {
      case POSTGRESQL:
        return new PostgresDialect(settings);
      case MARIADB:
      case MYSQL:
        return new MariaDbDialect(settings);
      default:
        throw new IllegalArgumentException("no dialect for " + settings.source().profile());
    }
  }
}
