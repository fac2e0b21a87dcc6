package io.openrs.repserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openrs.config.param.ParameterValues;
import io.openrs.config.param.Scope;
import io.openrs.config.rssd.LeaseTable;
import io.openrs.config.rssd.Rssd;
import io.openrs.config.rssd.RssdSettings;
import io.openrs.queue.file.PartitionSpec;
import io.openrs.repserver.lease.ServerLease;
import io.openrs.repserver.support.ReplicateDb;
import io.openrs.repserver.support.TestServers;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * {@code server_lease_ms}: servers sharing an RSSD on PostgreSQL run one at a time. A standby waits
 * in {@code start} until the active server gives the lease up or loses it; a server whose lease
 * another took is stopped at once.
 */
class ServerLeaseIT {

  private static final String PG_URL = "jdbc:postgresql://127.0.0.1:5432/openrs_test";
  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir Path dir;
  private String schema;
  private final ListAppender<ILoggingEvent> events = new ListAppender<>();
  private final ch.qos.logback.classic.Logger leaseLog =
      (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(ServerLease.class);

  @BeforeEach
  void freshRssdSchema() throws Exception {
    schema = "rssd_lease_" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffL);
    sql("create schema " + schema);
    events.start();
    leaseLog.addAppender(events);
    leaseLog.setLevel(Level.INFO);
  }

  @AfterEach
  void dropRssdSchema() throws Exception {
    leaseLog.detachAppender(events);
    leaseLog.setLevel(null);
    sql("drop schema if exists " + schema + " cascade");
  }

  private static void sql(String statement) throws Exception {
    try (Connection c =
            DriverManager.getConnection(PG_URL, ReplicateDb.USER, ReplicateDb.PASSWORD);
        Statement st = c.createStatement()) {
      st.execute(statement);
    }
  }

  private RssdSettings sharedRssd() {
    return new RssdSettings(PG_URL, ReplicateDb.USER, ReplicateDb.PASSWORD, Optional.of(schema));
  }

  /** A server named {@code name} in its own directory, on the shared RSSD, with a lease. */
  private ServerSettings settings(String name, RssdSettings rssd, long leaseMs) {
    Path home = dir.resolve(name);
    Map<String, String> p = new HashMap<>();
    p.put("ltl_port", "0");
    p.put("admin_port", "0");
    p.put("listen_address", "127.0.0.1");
    p.put("prometheus_port", "0");
    p.put("sqm_segment_size", String.valueOf(4 * 1024 * 1024));
    p.put("server_lease_ms", Long.toString(leaseMs));
    return new ServerSettings(
        name,
        home,
        ParameterValues.of(Scope.SERVER, p),
        List.of(new PartitionSpec("p1", home.resolve("p1"), 256L * 1024 * 1024)),
        rssd,
        Optional.of(TestServers.ADMIN_PASSWORD.toCharArray()));
  }

  private static ReplicationServer start(ServerSettings s, Runnable onLeaseLost) throws Exception {
    return ReplicationServer.start(s, new SimpleMeterRegistry(), () -> {}, onLeaseLost);
  }

  private LeaseTable.LeaseState lease() {
    try (Rssd rssd = Rssd.open(sharedRssd())) {
      return rssd.lease().read();
    }
  }

  @Test
  void aStandbyWaitsForTheLeaseAndTakesItWhenTheActiveServerStops() throws Exception {
    ReplicationServer active = start(settings("RS_A", sharedRssd(), 3000), () -> {});
    CompletableFuture<ReplicationServer> standby =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return start(settings("RS_B", sharedRssd(), 3000), () -> {});
              } catch (Exception e) {
                throw new java.util.concurrent.CompletionException(e);
              }
            });
    try {
      await()
          .atMost(WAIT)
          .until(
              () ->
                  events.list.stream()
                      .map(ILoggingEvent::getFormattedMessage)
                      .anyMatch(m -> m.startsWith("standby: the server lease is held by RS_A@")));
      assertThat(standby).as("the standby has not started while RS_A holds the lease").isNotDone();
      assertThat(lease().holder()).hasValueSatisfying(h -> assertThat(h).startsWith("RS_A@"));
      long epochOfA = lease().epoch();
      // The active server's admin who names it as the lease holder.
      try (java.sql.Connection c = io.openrs.repserver.support.AdminSql.connect(active);
          java.sql.Statement st = c.createStatement();
          java.sql.ResultSet rs = st.executeQuery("admin who")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString("name")).isEqualTo("LEASE");
        assertThat(rs.getString("state")).isEqualTo("Active");
        assertThat(rs.getString("info"))
            .startsWith("RS_A@")
            .contains("epoch " + epochOfA + ", server_lease_ms 3000, counted on for ");
      }

      active.close();

      ReplicationServer b = standby.get(WAIT.toSeconds(), TimeUnit.SECONDS);
      try {
        LeaseTable.LeaseState now = lease();
        assertThat(now.holder()).hasValueSatisfying(h -> assertThat(h).startsWith("RS_B@"));
        assertThat(now.epoch()).isEqualTo(epochOfA + 1);
        assertThat(b.ltlPort()).isPositive();
      } finally {
        b.close();
      }
      assertThat(lease().holder()).as("released by a graceful stop").isEmpty();
    } finally {
      active.close();
      standby.cancel(true);
    }
  }

  @Test
  void aServerWhoseLeaseAnotherTookIsStoppedAtOnce() throws Exception {
    CountDownLatch lost = new CountDownLatch(1);
    ReplicationServer active = start(settings("RS_A", sharedRssd(), 1500), lost::countDown);
    try {
      long epoch = lease().epoch();
      // What a standby does once the active server's lease has expired.
      sql(
          "update "
              + schema
              + ".rs_lease set holder = 'RS_B@elsewhere', epoch = "
              + (epoch + 1)
              + ", expires_at = current_timestamp + interval '1 minute'");

      assertThat(lost.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
      assertThat(events.list.stream().map(ILoggingEvent::getFormattedMessage))
          .anyMatch(m -> m.contains("lost: another server took it; this server stops now"));
    } finally {
      active.close();
    }
    assertThat(lease().holder())
        .as("a server that lost the lease does not release the new holder's")
        .contains("RS_B@elsewhere");
  }

  @Test
  void aLeaseNeedsASharedRssdAndAtLeastASecond() {
    assertThatThrownBy(() -> start(settings("RS_A", RssdSettings.embedded(dir), 3000), () -> {}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("server_lease_ms needs an RSSD the servers share");
    assertThatThrownBy(() -> start(settings("RS_A", sharedRssd(), 500), () -> {}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("server_lease_ms = 500: a lease is at least 1000 ms");
  }
}
