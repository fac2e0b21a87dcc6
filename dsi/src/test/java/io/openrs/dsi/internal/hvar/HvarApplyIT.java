package io.openrs.dsi.internal.hvar;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openrs.dsi.DsiConnection;
import io.openrs.dsi.DsiCounter;
import io.openrs.dsi.DsiSettings;
import io.openrs.dsi.DsiState;
import io.openrs.dsi.testkit.Awaits;
import io.openrs.dsi.testkit.OutboundQueueFixture;
import io.openrs.dsi.testkit.RecordingSink;
import io.openrs.dsi.testkit.TestDb;
import io.openrs.dsi.testkit.Workload;
import io.openrs.ltl.Oqid;
import io.openrs.runtime.CounterKind;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * HVAR against the real databases: random streams (fixed seeds) over the DSI test schema (composite
 * keys, a table without primary key, a unique secondary key whose values move between rows,
 * parent/child foreign keys, every value type, primary key updates, unchanged columns) plus hot
 * keys folded many times per group leave the replicate identical to continuous mode and to the
 * primary, for every group size.
 */
class HvarApplyIT {
  private static final int REPLICATE = 201;
  private static final int[] GROUP_SIZES = {1, 10, 1_000, 100_000};

  @TempDir Path dir;

  /** The workload and the hot keys, interleaved. */
  private record Stream(Workload w, HotKeys hot, List<Workload.Tx> txs) {
    Map<Integer, Oqid> lastCommits() {
      Map<Integer, Oqid> m = new TreeMap<>(w.lastCommits());
      m.put(HotKeys.ORIGIN, hot.lastCommit());
      return m;
    }
  }

  private static Stream stream(TestDb db, String schema, int n) {
    Workload w = new Workload(db, schema, 77, 0.1);
    HotKeys hot = new HotKeys(schema, 78, 12);
    List<Workload.Tx> a = w.next(n);
    List<Workload.Tx> b = hot.next(n / 2);
    List<Workload.Tx> all = new ArrayList<>();
    for (int i = 0; i < a.size(); i++) {
      all.add(a.get(i));
      if (i % 2 == 1) {
        all.add(b.get(i / 2));
      }
    }
    return new Stream(w, hot, all);
  }

  private static void setUp(TestDb db, TestDb.Scratch s) throws Exception {
    s.exec(Workload.ddl(db).toArray(String[]::new));
    s.exec(HotKeys.ddl(db));
  }

  /** Every row of every table, canonical: what "identical" compares. */
  private static List<String> dump(TestDb.Scratch s) throws Exception {
    List<String> out = new ArrayList<>();
    try (Connection c = s.connect()) {
      for (String t : List.of("parent", "child", "item", "nokey")) {
        for (String row : Workload.actual(s.db(), c, t)) {
          out.add(t + ": " + row);
        }
      }
    }
    for (String row : Hvar.rows(s, "SELECT id, n, note FROM hot ORDER BY id")) {
      out.add("hot: " + row);
    }
    return out;
  }

  /** What a run left: the replicate's rows and the DSI's counters. */
  private record Result(List<String> rows, Map<DsiCounter, Long> counters) {
    long get(DsiCounter c) {
      return counters.get(c);
    }
  }

  private Result run(TestDb db, String prefix, DsiSettings settings) throws Exception {
    SimpleMeterRegistry reg = new SimpleMeterRegistry();
    Map<DsiCounter, Long> counters = new java.util.EnumMap<>(DsiCounter.class);
    try (TestDb.Scratch s = db.scratch(prefix);
        OutboundQueueFixture q = new OutboundQueueFixture(dir.resolve(prefix), REPLICATE)) {
      setUp(db, s);
      Stream st = stream(db, s.name(), 500);
      q.append(st.txs());
      try (DsiConnection dsi =
          DsiConnection.start(s.target(REPLICATE), q.queue(), settings, new RecordingSink(), reg)) {
        Awaits.applied(dsi, s, st.lastCommits());
        st.w().assertReplicaMatches(s);
        assertThat(Hvar.rows(s, "SELECT id, n, note FROM hot ORDER BY id"))
            .containsExactlyElementsOf(st.hot().expected());
        assertThat(dsi.state()).isEqualTo(DsiState.RUNNING);
        for (DsiCounter c : DsiCounter.values()) {
          counters.put(
              c,
              c.kind() == CounterKind.SUMMARY ? Hvar.observations(reg, c) : Hvar.counter(reg, c));
        }
      }
      return new Result(
          dump(s).stream().map(l -> l.replace(s.name(), "<schema>")).toList(), counters);
    }
  }

  @ParameterizedTest
  @EnumSource(TestDb.class)
  void randomStreamsEndIdenticalToContinuousModeAndThePrimary(TestDb db) throws Exception {
    List<String> continuous =
        run(db, "hvar_cont", Hvar.settings("dsi_compile_enable", "off")).rows();
    // A high retry threshold keeps every table compiled, so unique values moving between parent
    // rows fail many groups, each applied again in continuous mode.
    Map<String, DsiSettings> configs = new java.util.LinkedHashMap<>();
    for (int size : GROUP_SIZES) {
      configs.put(
          "group size " + size,
          Hvar.maxCmds(Hvar.settings("dsi_compile_retry_threshold", "1000"), size));
    }
    configs.put(
        "group size 1000, dsi_keep_triggers off (PostgreSQL: unique moves as delete and insert)",
        Hvar.maxCmds(
            Hvar.settings("dsi_keep_triggers", "off", "dsi_compile_retry_threshold", "1000"),
            1000));
    configs.put(
        "group size 1000, 2 threads (pipelined), dsi_keep_triggers off",
        Hvar.maxCmds(
            Hvar.settings(
                "dsi_num_threads",
                "2",
                "dsi_keep_triggers",
                "off",
                "dsi_compile_retry_threshold",
                "1000"),
            1000));
    configs.put(
        "bulk threshold 1 (every set through work tables), dsi_keep_triggers off",
        Hvar.settings(
            "dsi_bulk_threshold",
            "1",
            "dsi_keep_triggers",
            "off",
            "dsi_compile_retry_threshold",
            "1000"));
    for (Map.Entry<String, DsiSettings> e : configs.entrySet()) {
      Result r = run(db, "hvar_run", e.getValue());
      assertThat(r.rows()).as(e.getKey()).containsExactlyElementsOf(continuous);
      assertThat(r.get(DsiCounter.HVAR_CMDS_COMPILED)).isPositive();
      assertThat(r.get(DsiCounter.HVAR_GROUP_CMDS)).isPositive();
      System.out.printf(
          "%s %s: groups %d, commands compiled %d, net rows %d/%d/%d, fallbacks %d,"
              + " continuous transactions %d%n",
          db,
          e.getKey(),
          r.get(DsiCounter.HVAR_GROUP_CMDS),
          r.get(DsiCounter.HVAR_CMDS_COMPILED),
          r.get(DsiCounter.HVAR_NET_INSERTS),
          r.get(DsiCounter.HVAR_NET_UPDATES),
          r.get(DsiCounter.HVAR_NET_DELETES),
          r.get(DsiCounter.HVAR_FALLBACKS),
          r.get(DsiCounter.HVAR_TRANS_CONTINUOUS));
    }
  }

  /**
   * Hot keys alone (no unique values moving between rows, so no group falls back): big groups fold
   * many commands per row, moves included, through work tables and row statements, one thread and
   * pipelined, and end equal to the model.
   */
  @ParameterizedTest
  @EnumSource(TestDb.class)
  void hotKeysFoldManyCommandsPerRowInBigGroups(TestDb db) throws Exception {
    Map<String, DsiSettings> configs = new java.util.LinkedHashMap<>();
    configs.put("bulk threshold 1", Hvar.settings("dsi_bulk_threshold", "1"));
    configs.put("bulk threshold 20", Hvar.settings());
    configs.put(
        "bulk threshold 1, 2 threads",
        Hvar.settings("dsi_bulk_threshold", "1", "dsi_num_threads", "2"));
    for (Map.Entry<String, DsiSettings> e : configs.entrySet()) {
      try (TestDb.Scratch s = db.scratch("hvar_hot");
          OutboundQueueFixture q = new OutboundQueueFixture(dir.resolve("hot"), REPLICATE)) {
        s.exec(HotKeys.ddl(db));
        HotKeys hot = new HotKeys(s.name(), 5, 40);
        q.append(hot.next(1500));
        SimpleMeterRegistry reg = new SimpleMeterRegistry();
        try (DsiConnection dsi =
            DsiConnection.start(
                s.target(REPLICATE), q.queue(), e.getValue(), new RecordingSink(), reg)) {
          Awaits.applied(dsi, s, Map.of(HotKeys.ORIGIN, hot.lastCommit()));
          assertThat(Hvar.rows(s, "SELECT id, n, note FROM hot ORDER BY id"))
              .as(e.getKey())
              .containsExactlyElementsOf(hot.expected());
          long net =
              Hvar.counter(reg, DsiCounter.HVAR_NET_INSERTS)
                  + Hvar.counter(reg, DsiCounter.HVAR_NET_UPDATES)
                  + Hvar.counter(reg, DsiCounter.HVAR_NET_DELETES);
          assertThat(Hvar.counter(reg, DsiCounter.HVAR_FALLBACKS)).as(e.getKey()).isZero();
          assertThat(Hvar.counter(reg, DsiCounter.HVAR_CMDS_COMPILED)).isGreaterThan(3 * net);
        }
      }
    }
  }

  /**
   * Groups that really hold tens of thousands of commands: 20,000 transactions of hot keys (about
   * 90,000 commands over 5,000 keys: inserts, many updates, key moves with unchanged columns,
   * deletes; no command that would close a group) compiled with {@code dsi_compile_max_cmds}
   * 100,000, one thread and pipelined: the backlog waits before the DSI starts, so groups fill.
   */
  @ParameterizedTest
  @EnumSource(TestDb.class)
  void groupsOfAHundredThousandCommandsEndEqualToThePrimary(TestDb db) throws Exception {
    for (String threads : List.of("1", "2")) {
      try (TestDb.Scratch s = db.scratch("hvar_soak");
          OutboundQueueFixture q =
              new OutboundQueueFixture(dir.resolve("soak" + threads), REPLICATE)) {
        s.exec(HotKeys.ddl(db));
        HotKeys hot = new HotKeys(s.name(), 17, 5_000);
        appendFast(q, hot.next(20_000));
        SimpleMeterRegistry reg = new SimpleMeterRegistry();
        DsiSettings settings = Hvar.maxCmds(Hvar.settings("dsi_num_threads", threads), 100_000);
        try (DsiConnection dsi =
            DsiConnection.start(
                s.target(REPLICATE), q.queue(), settings, new RecordingSink(), reg)) {
          org.awaitility.Awaitility.await()
              .atMost(java.time.Duration.ofMinutes(2))
              .pollInterval(java.time.Duration.ofMillis(200))
              .until(
                  () -> {
                    assertThat(dsi.state().status()).isEqualTo(DsiState.Status.RUNNING);
                    return io.openrs.dsi.testkit.Replicate.reached(
                        s, Map.of(HotKeys.ORIGIN, hot.lastCommit()));
                  });
          assertThat(Hvar.rows(s, "SELECT id, n, note FROM hot ORDER BY id"))
              .containsExactlyElementsOf(hot.expected());
          double largest =
              reg.find(DsiCounter.HVAR_GROUP_CMDS.counterName()).summaries().stream()
                  .mapToDouble(io.micrometer.core.instrument.DistributionSummary::max)
                  .max()
                  .orElse(0);
          System.out.printf(
              "%s soak, %s thread(s): groups %d, largest %.0f commands, commands %d, net rows"
                  + " %d, fallbacks %d%n",
              db,
              threads,
              Hvar.observations(reg, DsiCounter.HVAR_GROUP_CMDS),
              largest,
              Hvar.counter(reg, DsiCounter.HVAR_CMDS_COMPILED),
              Hvar.counter(reg, DsiCounter.HVAR_NET_INSERTS)
                  + Hvar.counter(reg, DsiCounter.HVAR_NET_UPDATES)
                  + Hvar.counter(reg, DsiCounter.HVAR_NET_DELETES),
              Hvar.counter(reg, DsiCounter.HVAR_FALLBACKS));
          assertThat(largest).isGreaterThan(10_000);
          assertThat(Hvar.counter(reg, DsiCounter.HVAR_FALLBACKS)).isZero();
        }
      }
    }
  }

  /** Appends many transactions with one durable write per 500 (the fixture waits for each). */
  private static void appendFast(OutboundQueueFixture q, List<Workload.Tx> txs) throws Exception {
    io.openrs.ltl.packed.PackedEncoder enc = new io.openrs.ltl.packed.PackedEncoder();
    List<byte[]> msgs = new ArrayList<>();
    for (int i = 0; i < txs.size(); i++) {
      for (io.openrs.ltl.LtlCommand c : txs.get(i).commands()) {
        msgs.add(io.openrs.ltl.packed.OriginEnvelope.pack(txs.get(i).origin(), c, enc));
      }
      if (i % 500 == 499 || i == txs.size() - 1) {
        q.queue().appendAll(msgs).get();
        msgs = new ArrayList<>();
      }
    }
  }
}
