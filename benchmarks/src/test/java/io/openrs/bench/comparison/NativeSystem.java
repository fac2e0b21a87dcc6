package io.openrs.bench.comparison;

import java.sql.SQLException;
import java.time.Duration;

/**
 * PostgreSQL's native logical replication from one database of the cluster to another: a
 * publication of the schema, a {@code pgoutput} slot created beforehand (in the same cluster,
 * {@code CREATE SUBSCRIPTION} creating its own slot would wait for itself), and a subscription
 * without the initial copy (both sides start with the same rows). Default subscription settings
 * otherwise ({@code synchronous_commit = off} for its apply worker, streaming off).
 */
final class NativeSystem implements AutoCloseable {
  private final BenchDb primary;
  private final BenchDb replicate;
  private final String publication;
  private final String slot;
  private final String subscription;
  private boolean created;
  private long lastEnableNanos = System.nanoTime();

  NativeSystem(BenchDb primary, BenchDb replicate) {
    this.primary = primary;
    this.replicate = replicate;
    String stem = primary.name().replace("openrs_cs_", "b_");
    this.publication = stem + "_pub";
    this.slot = stem + "_sub";
    this.subscription = stem + "_sub";
  }

  String publication() {
    return publication;
  }

  void start() throws SQLException {
    String free =
        primary.scalar(
            "SELECT current_setting('max_logical_replication_workers')::int - (SELECT count(*)"
                + " FROM pg_stat_subscription)");
    if (Integer.parseInt(free) < 1) {
      throw new IllegalStateException(
          "no logical replication worker free (max_logical_replication_workers): raise it in"
              + " scripts/setup-databases.sh");
    }
    primary.exec(
        "CREATE PUBLICATION " + publication + " FOR TABLES IN SCHEMA " + primary.schema(),
        "SELECT pg_create_logical_replication_slot('" + slot + "', 'pgoutput')");
    replicate.exec(
        "CREATE SUBSCRIPTION "
            + subscription
            + " CONNECTION 'host="
            + BenchDb.HOST
            + " port=5432 dbname="
            + primary.name()
            + " user="
            + BenchDb.USER
            + " password="
            + BenchDb.PASSWORD
            + "' PUBLICATION "
            + publication
            + " WITH (create_slot = false, slot_name = '"
            + slot
            + "', copy_data = false, enabled = true)");
    created = true;
  }

  /** Stops applying (the apply worker exits; changes wait in the slot). */
  void disable() throws SQLException {
    replicate.exec("ALTER SUBSCRIPTION " + subscription + " DISABLE");
    // The apply worker and its walsender exit asynchronously.
    primary.awaitTrue(
        "SELECT NOT active FROM pg_replication_slots WHERE slot_name = '" + slot + "'",
        Duration.ofSeconds(30));
  }

  /** The primary, whose database holds the subscription's slot. */
  BenchDb primary() {
    return primary;
  }

  void enable() throws SQLException {
    replicate.exec("ALTER SUBSCRIPTION " + subscription + " ENABLE");
    lastEnableNanos = System.nanoTime();
  }

  /**
   * Returns once an {@link #enable} starts the apply worker at once. PostgreSQL's launcher starts a
   * subscription's worker at most once per {@code wal_retrieve_retry_interval} (5 s by default) and
   * otherwise sleeps that long: enabled again sooner (after a catch-up between measurements), the
   * worker would start up to 5 s late, inside the measurement. Call before the clock starts.
   */
  void awaitWorkerStartAllowed() throws SQLException, InterruptedException {
    long intervalMs =
        Long.parseLong(
            replicate.scalar(
                "SELECT setting FROM pg_settings WHERE name = 'wal_retrieve_retry_interval'"));
    long sinceMs = (System.nanoTime() - lastEnableNanos) / 1_000_000;
    long waitMs = intervalMs + 100 - sinceMs; // the launcher's own clock is a little behind ours
    if (waitMs > 0) {
      Thread.sleep(waitMs); // a throttle's remaining time, not a wait for a state
    }
  }

  void awaitMarker(long id, Duration timeout) {
    replicate.awaitMarker(id, timeout);
  }

  @Override
  public void close() throws SQLException {
    if (created) {
      replicate.exec(
          "ALTER SUBSCRIPTION " + subscription + " DISABLE",
          "ALTER SUBSCRIPTION " + subscription + " SET (slot_name = NONE)",
          "DROP SUBSCRIPTION " + subscription);
      // The slot goes with the primary database (BenchDb.close).
    }
  }
}
