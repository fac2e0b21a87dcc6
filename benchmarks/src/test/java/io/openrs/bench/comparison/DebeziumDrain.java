package io.openrs.bench.comparison;

import io.openrs.consistency.support.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Debezium's embedded engine alone draining a backlog into a consumer that discards it (the capture
 * ceiling), as {@code io.openrs.bench.agent.AgentDrainBenchmark} measures it: its own slot created
 * before the backlog, the native system's publication, and a JVM of its own ({@link
 * DebeziumDrainMain}) started as our agent's is, kept for the whole run so it warms up across
 * drains as the agent does. The drain ends when the run's end marker (an insert into {@code
 * bench_marker}, committed last) has been seen.
 */
final class DebeziumDrain implements AutoCloseable {
  /** The agent's heap limit in {@link OurSystem}. */
  private static final String HEAP = "1g";

  private static final Duration START = Duration.ofMinutes(2);

  private final BenchDb primary;
  private final String publication;
  private final String slot;
  private final ChildJvm jvm;

  private DebeziumDrain(BenchDb primary, String publication, ChildJvm jvm) {
    this.primary = primary;
    this.publication = publication;
    this.slot = primary.name().replace("openrs_cs_", "b_") + "_dbz";
    this.jvm = jvm;
  }

  /** Starts the JVM that drains (its log in {@code dir}). */
  static DebeziumDrain start(BenchDb primary, String publication, Path dir) throws Exception {
    Files.createDirectories(dir);
    ChildJvm jvm =
        ChildJvm.start(
            "debezium",
            dir,
            HEAP,
            List.of(),
            DebeziumDrainMain.class.getName(),
            List.of(),
            Map.of(),
            l -> l.contains("debezium drain ready"),
            START);
    return new DebeziumDrain(primary, publication, jvm);
  }

  /** Creates the slot: the backlog starts here. */
  void createSlot() throws Exception {
    primary.exec("SELECT pg_create_logical_replication_slot('" + slot + "', 'pgoutput')");
  }

  /** CPU the draining JVM has used since it started. */
  Duration cpu() {
    return jvm.cpuTime();
  }

  /**
   * Drains the slot until the insert of marker {@code marker} is seen; the engine still runs (so
   * does its walsender, whose CPU counts in the measurement) until {@link #finish}.
   *
   * @return {seconds, change records seen}
   */
  double[] drain(long marker, long timeoutMs) throws Exception {
    boolean drained = false;
    try {
      jvm.send(
          String.join(
              " ",
              "drain",
              primary.name(),
              primary.schema(),
              publication,
              slot,
              Long.toString(marker),
              Long.toString(timeoutMs)));
      String[] a = jvm.answer(Duration.ofMillis(timeoutMs).plusMinutes(2)).split(" ", 3);
      if (!a[0].equals("drained")) {
        throw new IllegalStateException("Debezium alone: " + String.join(" ", a));
      }
      drained = true;
      return new double[] {Double.parseDouble(a[1]), Double.parseDouble(a[2])};
    } finally {
      if (!drained) {
        dropSlot();
      }
    }
  }

  /** After {@link #drain}: waits until the engine stopped, then drops the slot. */
  void finish() throws Exception {
    try {
      String a = jvm.answer(Duration.ofMinutes(2));
      if (!a.equals("closed")) {
        throw new IllegalStateException("Debezium alone: " + a);
      }
    } finally {
      dropSlot();
    }
  }

  private void dropSlot() {
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

  @Override
  public void close() throws InterruptedException {
    jvm.close();
  }
}
