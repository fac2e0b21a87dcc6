package io.openrs.consistency.bench;

import io.debezium.embedded.Connect;
import io.debezium.engine.ChangeEvent;
import io.debezium.engine.DebeziumEngine;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Debezium's embedded engine alone draining a backlog into a consumer that discards it (the capture
 * ceiling), as e2e's {@code AgentDrainBenchmark} measures it: the agent's connector settings
 * (pgoutput, precise decimals, microsecond times, transaction metadata), memory offsets, its own
 * slot created before the backlog, the native system's publication. The drain ends when the run's
 * end marker (an insert into {@code bench_marker}, committed last) has been seen.
 */
final class DebeziumDrain {
  private final BenchDb primary;
  private final String publication;
  private final String slot;

  DebeziumDrain(BenchDb primary, String publication) {
    this.primary = primary;
    this.publication = publication;
    this.slot = primary.name().replace("openrs_cs_", "b_") + "_dbz";
  }

  /** Creates the slot: the backlog starts here. */
  void createSlot() throws Exception {
    primary.exec("SELECT pg_create_logical_replication_slot('" + slot + "', 'pgoutput')");
  }

  private Properties properties() {
    Properties p = new Properties();
    p.setProperty("connector.class", "io.debezium.connector.postgresql.PostgresConnector");
    p.setProperty("database.hostname", BenchDb.HOST);
    p.setProperty("database.port", "5432");
    p.setProperty("database.user", BenchDb.USER);
    p.setProperty("database.password", BenchDb.PASSWORD);
    p.setProperty("database.dbname", primary.name());
    p.setProperty("plugin.name", "pgoutput");
    p.setProperty("slot.name", slot);
    p.setProperty("slot.drop.on.stop", "false");
    p.setProperty("publication.name", publication);
    p.setProperty("publication.autocreate.mode", "disabled");
    p.setProperty("lsn.flush.mode", "connector");
    p.setProperty("snapshot.mode", "no_data");
    p.setProperty("interval.handling.mode", "string");
    p.setProperty("skipped.operations", "none");
    p.setProperty("include.unknown.datatypes", "true");
    p.setProperty("table.include.list", primary.schema() + "\\..*");
    p.setProperty("name", "bench-debezium");
    p.setProperty("topic.prefix", "bench_" + primary.name());
    p.setProperty("offset.storage", "org.apache.kafka.connect.storage.MemoryOffsetBackingStore");
    p.setProperty("offset.flush.interval.ms", "1000");
    p.setProperty("errors.max.retries", "0");
    p.setProperty("provide.transaction.metadata", "true");
    p.setProperty("tombstones.on.delete", "false");
    p.setProperty("decimal.handling.mode", "precise");
    p.setProperty( // as the agent, scan_sleep_max_ms at its default
        "poll.interval.ms",
        io.openrs.repagent.AgentParameter.SCAN_SLEEP_MAX_MS.defaultValue().orElseThrow());
    p.setProperty("time.precision.mode", "adaptive_time_microseconds");
    p.setProperty("binary.handling.mode", "bytes");
    return p;
  }

  /**
   * Drains the slot until the insert of marker {@code marker} is seen, then drops the slot.
   *
   * @return {seconds, change records seen}
   */
  double[] drain(long marker, long timeoutMs) throws Exception {
    AtomicLong changes = new AtomicLong();
    AtomicBoolean done = new AtomicBoolean();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    DebeziumEngine<ChangeEvent<SourceRecord, SourceRecord>> engine =
        DebeziumEngine.create(Connect.class)
            .using(properties())
            .notifying(
                (records, committer) -> {
                  for (ChangeEvent<SourceRecord, SourceRecord> e : records) {
                    if (e.value() != null
                        && e.value().value() instanceof Struct v
                        && v.schema().field("op") != null) {
                      changes.incrementAndGet();
                      if ("c".equals(v.getString("op"))
                          && "bench_marker".equals(v.getStruct("source").getString("table"))
                          && v.getStruct("after").getInt64("id") == marker) {
                        done.set(true);
                      }
                    }
                    committer.markProcessed(e);
                  }
                  committer.markBatchFinished();
                })
            .using(
                (success, message, error) -> {
                  if (!success) {
                    failure.compareAndSet(
                        null, error != null ? error : new IllegalStateException(message));
                  }
                })
            .build();
    ExecutorService ex = Executors.newSingleThreadExecutor();
    long t0 = System.nanoTime();
    try {
      ex.execute(engine);
      long end = t0 + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
      while (!done.get()) {
        if (failure.get() != null) {
          throw new IllegalStateException("Debezium stopped", failure.get());
        }
        if (System.nanoTime() > end) {
          throw new IllegalStateException("Debezium did not see marker " + marker + " in time");
        }
        TimeUnit.MILLISECONDS.sleep(5); // polling an in-process flag
      }
      return new double[] {(System.nanoTime() - t0) / 1e9, changes.get()};
    } finally {
      engine.close();
      ex.shutdown();
      ex.awaitTermination(60, TimeUnit.SECONDS);
      // The walsender may hold the slot a moment after the engine closed.
      org.awaitility.Awaitility.await()
          .atMost(java.time.Duration.ofSeconds(30))
          .pollInterval(java.time.Duration.ofMillis(100))
          .ignoreExceptions()
          .until(
              () -> {
                primary.exec(
                    "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots"
                        + " WHERE slot_name = '"
                        + slot
                        + "'");
                return true;
              });
    }
  }
}
