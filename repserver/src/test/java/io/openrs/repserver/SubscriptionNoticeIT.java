package io.openrs.repserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openrs.config.rssd.ConnectionDef;
import io.openrs.config.rssd.Profile;
import io.openrs.config.rssd.RepDef;
import io.openrs.config.rssd.RepDefColumn;
import io.openrs.repserver.support.ReplicateDb;
import io.openrs.repserver.support.TestServers;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A where clause on non-key columns at a PostgreSQL primary needs the old values of those columns,
 * which PostgreSQL logs only with {@code REPLICA IDENTITY FULL}: {@code create subscription} says
 * so unless the primary's table already has it (read at the primary, a real PostgreSQL database).
 */
class SubscriptionNoticeIT {
  @TempDir Path dir;
  private ReplicateDb primaryDb;
  private ReplicateDb replicateDb;
  private ReplicationServer server;

  @BeforeEach
  void start() throws Exception {
    primaryDb = ReplicateDb.create("rs_notice_p");
    replicateDb = ReplicateDb.create("rs_notice_r");
    primaryDb.exec(
        "CREATE TABLE public.full_orders (id int PRIMARY KEY, region varchar(8))",
        "ALTER TABLE public.full_orders REPLICA IDENTITY FULL",
        "CREATE TABLE public.plain_orders (id int PRIMARY KEY, region varchar(8))");
    server = TestServers.start(dir, Map.of(), new SimpleMeterRegistry());
    ConnectionDef primary =
        server.createConnection(
            "pds", primaryDb.name(), Profile.POSTGRESQL, true, primaryDb.connectionSettings());
    server.createConnection(
        "rds", replicateDb.name(), Profile.POSTGRESQL, false, replicateDb.connectionSettings());
    for (String t : List.of("full_orders", "plain_orders")) {
      server
          .catalog()
          .createRepDef(
              new RepDef(
                  t + "_rd",
                  primary.id(),
                  "public",
                  t,
                  "public",
                  t,
                  List.of(new RepDefColumn("id", "int"), new RepDefColumn("region", "varchar(8)")),
                  List.of("id"),
                  List.of("region")));
    }
  }

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.close();
    }
    primaryDb.close();
    replicateDb.close();
  }

  @Test
  void aTableWithReplicaIdentityFullGetsNoNotice() throws Exception {
    List<String> notices =
        server
            .catalog()
            .subscriptions()
            .create(
                "full_sub",
                "full_orders_rd",
                false,
                "rds",
                replicateDb.name(),
                Optional.of("region = 'EU'"));

    assertThat(notices).noneMatch(n -> n.contains("REPLICA IDENTITY"));
  }

  @Test
  void aTableWithTheDefaultIdentityIsNamedInTheNotice() throws Exception {
    List<String> notices =
        server
            .catalog()
            .subscriptions()
            .create(
                "plain_sub",
                "plain_orders_rd",
                false,
                "rds",
                replicateDb.name(),
                Optional.of("region = 'EU'"));

    assertThat(notices)
        .anyMatch(
            n ->
                n.contains("ALTER TABLE public.plain_orders REPLICA IDENTITY FULL")
                    && n.contains("[region]"));
  }
}
