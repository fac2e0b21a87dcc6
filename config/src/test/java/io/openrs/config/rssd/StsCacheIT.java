package io.openrs.config.rssd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The STS cache in front of an embedded RSSD. */
class StsCacheIT {
  @TempDir static Path serverDirectory;
  static Rssd rssd;

  final MeterRegistry registry = new SimpleMeterRegistry();
  final List<StsCache> caches = new ArrayList<>();
  ConnectionDef primary;
  ConnectionDef replicate;

  @BeforeAll
  static void open() {
    rssd =
        Rssd.open(
            RssdSettings.embedded(serverDirectory),
            new ManualClock(Instant.parse("2025-01-01T00:00:00Z")));
  }

  @AfterAll
  static void close() {
    rssd.close();
  }

  @BeforeEach
  void freshRows() throws Exception {
    TestDatabases.deleteAllRows(rssd);
    primary = rssd.connections().create("PDS", "pdb", Profile.POSTGRESQL, true, Map.of());
    replicate = rssd.connections().create("RDS", "rdb", Profile.POSTGRESQL, false, Map.of());
  }

  @AfterEach
  void closeCaches() {
    caches.forEach(StsCache::close);
  }

  StsCache cache(int size, Set<String> full) {
    StsCache c = new StsCache(rssd, size, full, registry);
    caches.add(c);
    return c;
  }

  static RepDef repDef(String name, int conn, String table) {
    return new RepDef(
        name,
        conn,
        "public",
        table,
        "public",
        table,
        List.of(new RepDefColumn("id", "int"), new RepDefColumn("v", "varchar(10)")),
        List.of("id"),
        List.of());
  }

  double counter(String name, String table) {
    return registry.get(name).tag("module", "STS").tag("instance", table).counter().count();
  }

  @Test
  void lruTableIsBoundedBySizeAndCountsSwapsAsStsCacheExceed() {
    for (int i = 0; i < 5; i++) {
      rssd.repDefs().create(repDef("rd_t" + i, primary.id(), "t" + i));
    }
    StsCache sts = cache(3, Set.of());

    for (int i = 0; i < 3; i++) {
      assertThat(sts.repDefsForTable(primary.id(), "public", "t" + i)).hasSize(1);
    }
    assertThat(sts.misses()).isEqualTo(3);
    assertThat(sts.repDefsForTable(primary.id(), "public", "t0"))
        .hasSize(1); // hit; t1 is now eldest
    assertThat(sts.hits()).isEqualTo(1);

    sts.repDefsForTable(primary.id(), "public", "t3"); // swaps out t1
    assertThat(sts.cacheExceeded()).isEqualTo(1);
    assertThat(sts.cachedEntries("rs_objects")).isEqualTo(3);

    sts.repDefsForTable(primary.id(), "public", "t0"); // still cached
    assertThat(sts.hits()).isEqualTo(2);
    sts.repDefsForTable(primary.id(), "public", "t1"); // was swapped out: RSSD again, swaps t2
    assertThat(sts.misses()).isEqualTo(5);
    assertThat(sts.cacheExceeded()).isEqualTo(2);

    assertThat(counter("STSCacheExceed", "rs_objects")).isEqualTo(2);
    assertThat(counter("STSCacheHits", "rs_objects")).isEqualTo(2);
    assertThat(counter("STSCacheMisses", "rs_objects")).isEqualTo(5);
    assertThat(counter("STSCacheExceed", "rs_users")).isZero();
  }

  @Test
  void answersThatNothingIsThereAreCachedToo() {
    StsCache sts = cache(10, Set.of());
    assertThat(sts.repDefsForTable(primary.id(), "public", "unreplicated")).isEmpty();
    assertThat(sts.repDefsForTable(primary.id(), "public", "unreplicated")).isEmpty();
    assertThat(sts.user("nobody")).isEmpty();
    assertThat(sts.user("nobody")).isEmpty();
    assertThat(sts.misses()).isEqualTo(2);
    assertThat(sts.hits()).isEqualTo(2);
  }

  @Test
  void sizeZeroCachesNothing() {
    StsCache sts = cache(0, Set.of());
    sts.connection(primary.id());
    sts.connection(primary.id());
    assertThat(sts.misses()).isEqualTo(2);
    assertThat(sts.cacheExceeded()).isEqualTo(2);
    assertThat(sts.cachedEntries("rs_connections")).isZero();
  }

  @Test
  void fullyCachedTablesAreLoadedOnceNeverSwappedAndNotBoundedBySize() {
    for (int i = 0; i < 10; i++) {
      rssd.users()
          .create(
              new RssdUser(
                  "u" + i, UserRole.MONITOR, ScramVerifier.derive(("p" + i).toCharArray())));
      rssd.repDefs().create(repDef("rd_t" + i, primary.id(), "t" + i));
    }
    StsCache sts = cache(2, Set.of("rs_users", "rs_columns"));
    assertThat(sts.fullyCachedTables()).containsExactly("rs_objects", "rs_users");
    long loads = sts.misses();
    assertThat(loads).isEqualTo(2);

    for (int round = 0; round < 2; round++) {
      for (int i = 0; i < 10; i++) {
        assertThat(sts.user("u" + i)).isPresent();
        assertThat(sts.repDefsForTable(primary.id(), "public", "t" + i)).hasSize(1);
      }
    }
    assertThat(sts.user("ghost")).isEmpty();
    assertThat(sts.repDefsForTable(primary.id(), "public", "ghost")).isEmpty();

    assertThat(sts.misses()).isEqualTo(loads);
    assertThat(sts.cacheExceeded()).isZero();
    assertThat(sts.cachedEntries("rs_users")).isEqualTo(10);
    assertThat(sts.cachedEntries("rs_columns")).isEqualTo(10);

    // An LRU table next to them is still bounded.
    sts.connection(primary.id());
    sts.connection(replicate.id());
    sts.connection("PDS", "pdb");
    assertThat(sts.cacheExceeded()).isEqualTo(1);
  }

  @ParameterizedTest(name = "fully cached: {0}")
  @ValueSource(booleans = {false, true})
  void writesThroughTheRssdAreSeenByTheNextRead(boolean fullyCached) {
    StsCache sts =
        cache(
            100,
            fullyCached
                ? Set.of(
                    "rs_connections", "rs_objects", "rs_dbreps", "rs_subscriptions", "rs_users")
                : Set.of());
    int p = primary.id();

    // Connections: state, properties through both tables, drop.
    assertThat(sts.connection(p).orElseThrow().state()).isEqualTo(ConnectionState.ACTIVE);
    assertThat(sts.connection("PDS", "pdb")).isPresent();
    rssd.connections().setState(p, ConnectionState.SUSPENDED);
    assertThat(sts.connection(p).orElseThrow().state()).isEqualTo(ConnectionState.SUSPENDED);
    rssd.config().setConnectionValue(p, "dsi_num_threads", "4");
    assertThat(sts.connection("PDS", "pdb").orElseThrow().properties())
        .containsEntry("dsi_num_threads", "4");
    rssd.connections().setProperty(p, "dsi_num_threads", "8");
    assertThat(sts.connection(p).orElseThrow().properties()).containsEntry("dsi_num_threads", "8");
    ConnectionDef extra = rssd.connections().create("XDS", "xdb", Profile.MARIADB, false, Map.of());
    assertThat(sts.connection("XDS", "xdb")).contains(extra);
    rssd.connections().drop(extra.id());
    assertThat(sts.connection("XDS", "xdb")).isEmpty();
    assertThat(sts.connection(extra.id())).isEmpty();

    // Table repdefs.
    assertThat(sts.repDefsForTable(p, "public", "orders")).isEmpty();
    rssd.repDefs().create(repDef("rd_orders", p, "orders"));
    assertThat(sts.repDefsForTable(p, "public", "orders"))
        .extracting(RepDef::name)
        .containsExactly("rd_orders");

    // Subscriptions.
    assertThat(sts.subscriptionsFor("rd_orders")).isEmpty();
    rssd.subscriptions()
        .create(
            "sub", "rd_orders", false, replicate.id(), Optional.empty(), SubscriptionState.DEFINED);
    assertThat(sts.subscriptionsFor("rd_orders"))
        .extracting(Subscription::state)
        .containsExactly(SubscriptionState.DEFINED);
    rssd.subscriptions().setState("sub", replicate.id(), SubscriptionState.VALID);
    assertThat(sts.subscriptionsFor("rd_orders"))
        .extracting(Subscription::state)
        .containsExactly(SubscriptionState.VALID);
    rssd.subscriptions().drop("sub", replicate.id());
    assertThat(sts.subscriptionsFor("rd_orders")).isEmpty();
    rssd.repDefs().drop("rd_orders");
    assertThat(sts.repDefsForTable(p, "public", "orders")).isEmpty();

    // Database repdefs.
    assertThat(sts.databaseRepDefs(p)).isEmpty();
    rssd.repDefs()
        .createDatabaseRepDef(new DatabaseRepDef("drd", p, List.of("public.%"), List.of()));
    assertThat(sts.databaseRepDefs(p)).extracting(DatabaseRepDef::name).containsExactly("drd");
    rssd.repDefs().dropDatabaseRepDef("drd");
    assertThat(sts.databaseRepDefs(p)).isEmpty();

    // Users.
    assertThat(sts.user("ops")).isEmpty();
    rssd.users()
        .create(new RssdUser("ops", UserRole.MONITOR, ScramVerifier.derive("x".toCharArray())));
    assertThat(sts.user("ops").orElseThrow().role()).isEqualTo(UserRole.MONITOR);
    rssd.users().setRole("ops", UserRole.ADMIN);
    assertThat(sts.user("ops").orElseThrow().role()).isEqualTo(UserRole.ADMIN);
    rssd.users().drop("ops");
    assertThat(sts.user("ops")).isEmpty();
  }

  @Test
  void failedWritesChangeNothingAndInvalidateAllEmptiesTheCache() {
    StsCache sts = cache(100, Set.of());
    sts.connection(primary.id());
    sts.user("nobody");
    assertThatThrownBy(
            () -> rssd.connections().create("PDS", "pdb", Profile.POSTGRESQL, false, Map.of()))
        .isInstanceOf(RssdException.class);
    assertThat(sts.cachedEntries("rs_connections")).isEqualTo(1);

    sts.invalidateAll();
    assertThat(sts.cachedEntries("rs_connections")).isZero();
    assertThat(sts.cachedEntries("rs_users")).isZero();
    long misses = sts.misses();
    sts.connection(primary.id());
    assertThat(sts.misses()).isEqualTo(misses + 1);
  }

  @Test
  void badArgumentsAreRefused() {
    assertThatThrownBy(() -> new StsCache(rssd, -1, Set.of(), registry))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sts_cachesize");
    assertThatThrownBy(() -> new StsCache(rssd, 10, Set.of("rs_functions"), registry))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'rs_functions'")
        .hasMessageContaining("rs_objects");
  }

  /**
   * Readers on several threads while one thread adds repdefs to a hot table and churns the LRU with
   * other tables: every read sees at least every repdef whose create returned before the read
   * started, and nothing fails.
   */
  @Test
  void concurrentReadersNeverSeeStaleDefinitionsAfterAWriteReturned() throws Exception {
    int p = primary.id();
    for (int k = 0; k < 8; k++) {
      rssd.repDefs().create(repDef("rd_cold" + k, p, "cold" + k));
    }
    StsCache sts = cache(4, Set.of());
    int writes = 30;
    AtomicInteger created = new AtomicInteger();
    AtomicBoolean done = new AtomicBoolean();
    AtomicInteger reads = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> readers = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int seed = t;
        readers.add(
            pool.submit(
                () -> {
                  int i = seed;
                  while (!done.get()) {
                    int before = created.get();
                    assertThat(sts.repDefsForTable(p, "public", "hot"))
                        .hasSizeGreaterThanOrEqualTo(before);
                    assertThat(sts.repDefsForTable(p, "public", "cold" + (i % 8))).hasSize(1);
                    assertThat(sts.connection(p)).isPresent();
                    reads.incrementAndGet();
                    i++;
                  }
                  return null;
                }));
      }
      for (int w = 0; w < writes; w++) {
        rssd.repDefs().create(repDef("rd_hot" + w, p, "hot"));
        created.incrementAndGet();
        if (w % 10 == 0) {
          rssd.connections()
              .setState(p, w % 20 == 0 ? ConnectionState.SUSPENDED : ConnectionState.ACTIVE);
        }
      }
      done.set(true);
      for (Future<?> f : readers) {
        f.get(30, TimeUnit.SECONDS);
      }
    } finally {
      done.set(true);
      pool.shutdownNow();
      assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(sts.repDefsForTable(p, "public", "hot")).hasSize(writes);
    assertThat(reads.get()).isPositive();
    assertThat(sts.cacheExceeded()).isPositive();
  }
}
