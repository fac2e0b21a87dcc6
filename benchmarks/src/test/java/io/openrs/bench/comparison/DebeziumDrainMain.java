package io.openrs.bench.comparison;

import io.debezium.embedded.Connect;
import io.debezium.engine.ChangeEvent;
import io.debezium.engine.DebeziumEngine;
import io.openrs.consistency.support.ChildJvm;
import io.openrs.repagent.AgentConfigFile;
import io.openrs.repagent.AgentSettings;
import io.openrs.repagent.LogReaderProperties;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
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
 * Debezium's embedded engine alone, in a JVM of its own started as our agent's is ({@link
 * ChildJvm}: the same collector, heap limit and time zone), so the capture ceiling is measured
 * under the conditions of the agent it is compared with, and warms up across a run's drains as the
 * agent does. It reads requests from its standard input, one per line:
 *
 * <pre>
 * drain &lt;database&gt; &lt;schema&gt; &lt;publication&gt; &lt;slot&gt; &lt;marker&gt; &lt;timeout ms&gt;
 * </pre>
 *
 * and for each starts an engine on the slot with the agent's log reader settings ({@link
 * #properties}), hands every record to a consumer that discards it, and stops once the insert of
 * {@code marker} into {@code bench_marker} (committed last) has been seen. It answers
 * {@code @answer drained <seconds> <change records>} when it has seen the marker (the engine and
 * its walsender still running, so the harness can read their CPU), then {@code @answer closed} once
 * the engine stopped; or {@code @answer failed <reason>}. The seconds run from the engine's start
 * to the marker.
 */
public final class DebeziumDrainMain {

  private DebeziumDrainMain() {}

  public static void main(String[] args) throws Exception {
    System.out.println("debezium drain ready");
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      String[] r = line.trim().split("\\s+");
      if (r.length != 7 || !r[0].equals("drain")) {
        System.out.println(ChildJvm.ANSWER_PREFIX + "failed not a request: " + line);
        continue;
      }
      try {
        drain(r[1], r[2], r[3], r[4], Long.parseLong(r[5]), Long.parseLong(r[6]));
        System.out.println(ChildJvm.ANSWER_PREFIX + "closed");
      } catch (Exception e) {
        e.printStackTrace(System.out);
        System.out.println(
            ChildJvm.ANSWER_PREFIX + "failed " + String.valueOf(e).replace('\n', ' '));
      }
    }
  }

  /**
   * The agent's log reader properties ({@link LogReaderProperties}) for the agent's parameters in
   * {@link OurSystem} without heartbeats, on its own slot and native's publication (never altered:
   * {@code publication.autocreate.mode} disabled), with offsets in memory.
   */
  static Properties properties(String database, String schema, String publication, String slot) {
    Map<String, String> m = new HashMap<>();
    m.put("agent_name", "bench-debezium");
    m.put("origin", "pg." + database);
    m.put("rs_host", "127.0.0.1"); // the server part of the settings is not used
    m.put("rs_port", "1");
    m.put("rs_user", "sa");
    m.put("rs_password_env", "UNUSED");
    m.put("source_profile", "postgresql");
    m.put("source_host", BenchDb.HOST);
    m.put("source_port", "5432");
    m.put("source_database", database);
    m.put("source_user", BenchDb.USER);
    m.put("source_password_env", "BENCH_SOURCE_PASSWORD");
    m.put("table_include_list", schema + ".%");
    m.put("slot_name", slot);
    m.put("publication_name", publication);
    m.put("heartbeat_interval_ms", "0");
    m.put("data_directory", "."); // no files: offsets stay in memory
    AgentSettings settings =
        AgentConfigFile.fromMap(
            "Debezium alone",
            m,
            env -> env.equals("BENCH_SOURCE_PASSWORD") ? BenchDb.PASSWORD : "unused",
            Path.of("."));
    Properties p = LogReaderProperties.of(settings);
    p.setProperty("publication.autocreate.mode", "disabled");
    p.setProperty("offset.storage", "org.apache.kafka.connect.storage.MemoryOffsetBackingStore");
    p.setProperty("offset.flush.interval.ms", "1000");
    p.setProperty("errors.max.retries", "0");
    return p;
  }

  /** Drains up to the marker, answers how long it took, then closes the engine. */
  static void drain(
      String database, String schema, String publication, String slot, long marker, long timeoutMs)
      throws Exception {
    AtomicLong changes = new AtomicLong();
    AtomicBoolean done = new AtomicBoolean();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    DebeziumEngine<ChangeEvent<SourceRecord, SourceRecord>> engine =
        DebeziumEngine.create(Connect.class)
            .using(properties(database, schema, publication, slot))
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
      double seconds = (System.nanoTime() - t0) / 1e9;
      System.out.println(ChildJvm.ANSWER_PREFIX + "drained " + seconds + " " + changes.get());
    } finally {
      engine.close();
      ex.shutdown();
      ex.awaitTermination(60, TimeUnit.SECONDS);
    }
  }
}
