package io.openrs.dsi.internal.hvar;

import static org.assertj.core.api.Assertions.assertThat;

import io.openrs.dsi.CommandConversion;
import io.openrs.dsi.dialect.ColumnMeta;
import io.openrs.dsi.dialect.TableMeta;
import io.openrs.ltl.ByteBuilder;
import io.openrs.ltl.Column;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.LtlCommand.InTransaction;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TableName;
import io.openrs.ltl.TranId;
import io.openrs.ltl.Value;
import io.openrs.ltl.packed.PackedEncoder;
import io.openrs.ltl.packed.PackedRowReader;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The net-change rules, one test per rule, and random command sequences checked against a reference
 * model: the sealed plan applied to an in-memory replicate (saved rows, deletes, updates, inserts,
 * as the bulk apply runs them) must give what applying the commands one by one gives.
 */
class NetChangeDbTest {
  private static final TableName T = new TableName("s", "t");
  private static final TableName N = new TableName("s", "n");
  private static final TableMeta T_META =
      new TableMeta(
          T,
          List.of(
              new ColumnMeta("id", "int8", false),
              new ColumnMeta("a", "int8", true),
              new ColumnMeta("b", "text", true),
              new ColumnMeta("big", "text", true)),
          List.of("id"),
          List.of());
  private static final TableMeta N_META =
      new TableMeta(
          N,
          List.of(new ColumnMeta("x", "int8", true), new ColumnMeta("y", "text", true)),
          List.of(),
          List.of());

  private static final TableSource SOURCE =
      new TableSource() {
        @Override
        public TableMeta table(TableName name) {
          return name.equals(T) ? T_META : N_META;
        }

        @Override
        public Optional<String> restriction(TableMeta t) {
          return Optional.empty();
        }
      };

  private long oqid;

  private NetChangeDb db(Set<CommandConversion> conv) {
    return new NetChangeDb(SOURCE, t -> t.equals(T) ? conv : Set.of());
  }

  private NetChangeDb db() {
    return db(Set.of());
  }

  // ---- command builders
  // --------------------------------------------------------------------------

  private Oqid next() {
    return Oqid.ofLong(++oqid, 8);
  }

  private static final TranId TRAN = TranId.ofLong(1);

  private LtlCommand.Insert ins(long id, Object... cols) {
    List<Column> after = new ArrayList<>(List.of(new Column("id", new Value.Int64(id))));
    after.addAll(cols(cols));
    return new LtlCommand.Insert(TRAN, next(), T, false, after);
  }

  private LtlCommand.Update upd(long id, Object... cols) {
    return new LtlCommand.Update(
        TRAN, next(), T, List.of(new Column("id", new Value.Int64(id))), cols(cols));
  }

  private LtlCommand.Delete del(long id) {
    return new LtlCommand.Delete(TRAN, next(), T, List.of(new Column("id", new Value.Int64(id))));
  }

  private static List<Column> cols(Object... nv) {
    List<Column> out = new ArrayList<>();
    for (int i = 0; i < nv.length; i += 2) {
      Object v = nv[i + 1];
      Value value =
          v instanceof Value x
              ? x
              : v instanceof Long l ? new Value.Int64(l) : new Value.Text((String) v);
      out.add(new Column((String) nv[i], value));
    }
    return out;
  }

  private static TablePlan plan(NetChangeDb db, TableName t) {
    return db.seal().tablePlans().stream()
        .filter(p -> p.meta.name().equals(t))
        .findFirst()
        .orElseThrow();
  }

  private static String image(Value[] v) {
    return Arrays.toString(v);
  }

  // ---- the rules
  // ---------------------------------------------------------------------------------

  @Test
  void insertThenUpdateIsAnInsertOfTheFinalImage() throws SQLException {
    NetChangeDb db = db();
    assertThat(db.add(List.of(ins(1, "a", 1L, "b", "x"), upd(1, "a", 2L), upd(1, "b", "y"))))
        .isEmpty();
    TablePlan p = plan(db, T);
    assertThat(p.inserts.values()).singleElement().satisfies(l -> assertThat(l).hasSize(1));
    TablePlan.Change c = p.inserts.values().iterator().next().get(0);
    assertThat(c.image()).containsExactly(new Value.Int64(1), new Value.Int64(2), text("y"), null);
    assertThat(c.fill()).isNull();
    assertThat(p.netUpdates() + p.netDeletes()).isZero();
  }

  @Test
  void insertThenDeleteIsNothing() throws SQLException {
    NetChangeDb db = db();
    assertThat(db.add(List.of(ins(1, "a", 1L), upd(1, "a", 2L), del(1)))).isEmpty();
    GroupPlan g = db.seal();
    assertThat(g.empty()).isTrue();
    assertThat(g.commands()).isEqualTo(3);
  }

  @Test
  void updateThenUpdateIsOneUpdateOfTheUnionWithTheLastValues() throws SQLException {
    NetChangeDb db = db();
    assertThat(db.add(List.of(upd(1, "a", 1L), upd(1, "b", "x"), upd(1, "a", 3L)))).isEmpty();
    TablePlan p = plan(db, T);
    assertThat(p.updates).hasSize(1);
    BitSet mask = p.updates.keySet().iterator().next();
    assertThat(mask.stream().toArray()).containsExactly(1, 2);
    assertThat(p.updates.get(mask).get(0).image())
        .containsExactly(null, new Value.Int64(3), text("x"), null);
  }

  @Test
  void updateThenDeleteIsADelete() throws SQLException {
    NetChangeDb db = db();
    assertThat(db.add(List.of(upd(1, "a", 1L), del(1)))).isEmpty();
    TablePlan p = plan(db, T);
    assertThat(p.deletes).hasSize(1);
    assertThat(p.netUpdates() + p.netInserts()).isZero();
  }

  @Test
  void deleteThenInsertIsADeleteAndAnInsert() throws SQLException {
    NetChangeDb db = db();
    assertThat(db.add(List.of(del(1), ins(1, "a", 5L), upd(1, "b", "z")))).isEmpty();
    TablePlan p = plan(db, T);
    assertThat(p.deletes).hasSize(1);
    assertThat(p.netInserts()).isEqualTo(1);
    assertThat(p.inserts.values().iterator().next().get(0).image())
        .containsExactly(new Value.Int64(1), new Value.Int64(5), text("z"), null);
  }

  @Test
  void aPrimaryKeyUpdateIsADeleteOfTheOldKeyAndAnInsertFilledFromTheOldRow() throws SQLException {
    NetChangeDb db = db();
    assertThat(db.add(List.of(upd(1, "a", 7L), upd(1, "id", 2L, "big", Value.UNCHANGED))))
        .isEmpty();
    TablePlan p = plan(db, T);
    assertThat(p.deletes).extracting(RowKey::toString).containsExactly("(Int64[value=1])");
    TablePlan.Change c = p.fillInserts.values().iterator().next().get(0);
    assertThat(image(c.image())).isEqualTo("[Int64[value=2], Int64[value=7], null, null]");
    assertThat(c.fill().toString()).isEqualTo("(Int64[value=1])");
  }

  @Test
  void unchangedColumnsKeepTheReplicatesValueUnlessALaterCommandProvidesOne() throws SQLException {
    NetChangeDb db = db();
    assertThat(
            db.add(
                List.of(
                    upd(1, "a", 1L, "big", Value.UNCHANGED),
                    upd(2, "big", Value.UNCHANGED),
                    upd(3, "big", Value.UNCHANGED),
                    upd(3, "big", "new"))))
        .isEmpty();
    TablePlan p = plan(db, T);
    List<String> sets = new ArrayList<>();
    p.updates.forEach((m, l) -> l.forEach(c -> sets.add(c.key() + " " + image(c.image()))));
    assertThat(sets)
        .containsExactly(
            "(Int64[value=1]) [null, Int64[value=1], null, null]",
            "(Int64[value=3]) [null, null, null, Text[value=new]]");
  }

  @Test
  void aSecondInsertOfAKeyIsNotCompiledAndLeavesTheGroupAsItWas() throws SQLException {
    NetChangeDb db = db();
    assertThat(db.add(List.of(ins(1, "a", 1L)))).isEmpty();
    assertThat(db.add(List.of(upd(1, "a", 2L), ins(2), ins(1))))
        .get()
        .asString()
        .contains("already holds");
    TablePlan p = plan(db, T);
    assertThat(p.netInserts()).isEqualTo(1);
    assertThat(p.inserts.values().iterator().next().get(0).image()[1])
        .isEqualTo(new Value.Int64(1));
  }

  @Test
  void ddlTruncateTicketAndSnapshotRowsAreNotCompiled() throws SQLException {
    assertThat(db().add(List.of(new LtlCommand.Truncate(TRAN, next(), T)))).isPresent();
    assertThat(db().add(List.of(new LtlCommand.Ddl(TRAN, next(), Optional.empty(), "x"))))
        .isPresent();
    assertThat(
            db().add(
                    List.of(
                        new LtlCommand.Insert(
                            TRAN, next(), T, true, List.of(new Column("id", Value.NULL))))))
        .isPresent();
  }

  @Test
  void decimalKeysOfEqualValueAreOneRow() {
    assertThat(RowKey.of(new Value[] {new Value.Decimal(new BigDecimal("1.50"))}))
        .isEqualTo(RowKey.of(new Value[] {new Value.Decimal(new BigDecimal("1.5"))}));
    assertThat(RowKey.of(new Value[] {new Value.Int32(7)}))
        .isEqualTo(RowKey.of(new Value[] {new Value.Int64(7)}));
  }

  @Test
  void rowsWithoutPrimaryKeyAreCountedPerDistinctRow() throws SQLException {
    NetChangeDb db = db();
    LtlCommand.Insert i = new LtlCommand.Insert(TRAN, next(), N, false, cols("x", 1L, "y", "a"));
    LtlCommand.Delete d = new LtlCommand.Delete(TRAN, next(), N, cols("x", 1L, "y", "a"));
    LtlCommand.Update u =
        new LtlCommand.Update(TRAN, next(), N, cols("x", 2L, "y", "b"), cols("y", "c"));
    assertThat(db.add(List.of(i, i, i, d, u))).isEmpty();
    TablePlan p = plan(db, N);
    assertThat(p.countedInserts).hasSize(3); // two (1,a) and one (2,c)
    assertThat(p.countedDeletes).singleElement().satisfies(c -> assertThat(c.count()).isEqualTo(1));
  }

  @Test
  void conversionsApplyToTheNetRows() throws SQLException {
    NetChangeDb db = db(EnumSet.of(CommandConversion.I2DI, CommandConversion.U2DI));
    assertThat(db.add(List.of(ins(1, "a", 1L), upd(1, "a", 2L), upd(5, "b", "x")))).isEmpty();
    TablePlan p = plan(db, T);
    assertThat(p.deletesUnchecked).hasSize(1); // i2di: the key may not exist
    assertThat(p.deletes).hasSize(1); // u2di: the updated row exists
    assertThat(p.netInserts()).isEqualTo(2);
    assertThat(p.netUpdates()).isZero();
    assertThat(p.fillInserts.values().iterator().next().get(0).fill().toString())
        .isEqualTo("(Int64[value=5])");
  }

  private static Value text(String s) {
    return new Value.Text(s);
  }

  // ---- random sequences against the model
  // ----------------------------------------------------------

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
  void randomSequencesApplyAsTheCommandsDo(long seed) throws SQLException {
    for (boolean packed : new boolean[] {false, true})
      for (Set<CommandConversion> conv :
          List.of(
              Set.<CommandConversion>of(),
              EnumSet.of(CommandConversion.I2DI, CommandConversion.U2DI))) {
        Random r = new Random(seed);
        for (int round = 0; round < 30; round++) {
          Map<Long, Value[]> before = new TreeMap<>();
          for (long k = 1; k <= 8; k++) {
            if (r.nextBoolean()) {
              before.put(k, fullRow(r, k));
            }
          }
          Map<List<Value>, Integer> nkBefore = new HashMap<>();
          for (int i = 0; i < 4; i++) {
            nkBefore.merge(nkRow(r), 1, Integer::sum);
          }
          Map<Long, Value[]> source = copy(before);
          Map<List<Value>, Integer> nkSource = new HashMap<>(nkBefore);
          NetChangeDb db = db(conv);
          int txs = 1 + r.nextInt(5);
          for (int t = 0; t < txs; t++) {
            List<InTransaction> body = new ArrayList<>();
            for (int c = 1 + r.nextInt(12); c > 0; c--) {
              body.add(randomCommand(r, source, nkSource));
            }
            assertThat(add(db, body, packed)).as("seed %d round %d", seed, round).isEmpty();
          }
          GroupPlan plan = db.seal();
          Map<Long, Value[]> replica = copy(before);
          Map<List<Value>, Integer> nkReplica = new HashMap<>(nkBefore);
          applyPlan(plan, replica, nkReplica);
          assertThat(render(replica))
              .as("seed %d round %d conversions %s", seed, round, conv)
              .isEqualTo(render(source));
          assertThat(nkReplica).isEqualTo(nkSource);
        }
      }
  }

  /**
   * A key an earlier group (not committed yet, on another session) holds does not go ahead: its
   * insert waits for the group's own apply. A key it does not hold goes ahead.
   */
  @Test
  void aKeyAnEarlierGroupHoldsDoesNotGoAhead() throws SQLException {
    NetChangeDb first =
        new NetChangeDb(SOURCE, t -> Set.of(), new AheadRecorder(), t -> 0, List.of());
    assertThat(first.add(List.of(del(1), upd(2, "a", 5L), ins(3, "a", 3L, "b", "c", "big", ""))))
        .isEmpty();
    first.seal();
    AheadRecorder ahead = new AheadRecorder();
    NetChangeDb next = new NetChangeDb(SOURCE, t -> Set.of(), ahead, t -> 0, List.of(first));
    assertThat(
            next.add(
                List.of(
                    ins(1, "a", 10L, "b", "again", "big", ""),
                    ins(4, "a", 40L, "b", "new", "big", ""))))
        .isEmpty();
    assertThat(ahead.sent).extracting(v -> v[0]).containsExactly(new Value.Int64(4));
    TablePlan p = plan(next, T);
    assertThat(p.netInserts()).isEqualTo(1); // key 1, applied with the group
  }

  /** Holds the rows a group sends ahead, per transaction as the contract says. */
  private static final class AheadRecorder implements InsertStream {
    final List<Value[]> sent = new ArrayList<>();
    final List<Value[]> pending = new ArrayList<>();

    @Override
    public boolean accepts(TableMeta t) {
      return true;
    }

    @Override
    public void row(TableMeta t, Value[] image) {
      assertThat(t.name()).isEqualTo(T);
      pending.add(image.clone());
    }

    @Override
    public void row(TableMeta t, PackedRowReader.Image image, int[] columns) {
      Value[] row = new Value[columns.length];
      for (int p = 0; p < row.length; p++) {
        row[p] = image.value(columns[p]);
      }
      row(t, row);
    }

    @Override
    public void transactionAdded() {
      sent.addAll(pending);
      pending.clear();
    }

    @Override
    public void transactionDropped() {
      pending.clear();
    }

    @Override
    public long bytes() {
      return 0;
    }
  }

  /**
   * With inserts going ahead, the rows sent (inserted first, each a key the replicate does not
   * hold) and then the plan give what the commands give; a transaction that cannot be compiled
   * sends nothing.
   */
  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
  void randomSequencesWithInsertsAheadApplyAsTheCommandsDo(long seed) throws SQLException {
    long sentAhead = 0;
    for (boolean packed : new boolean[] {false, true})
      for (Set<CommandConversion> conv :
          List.of(Set.<CommandConversion>of(), EnumSet.of(CommandConversion.U2DI))) {
        Random r = new Random(seed);
        for (int round = 0; round < 30; round++) {
          Map<Long, Value[]> before = new TreeMap<>();
          for (long k = 1; k <= 8; k++) {
            if (r.nextBoolean()) {
              before.put(k, fullRow(r, k));
            }
          }
          Map<List<Value>, Integer> nkBefore = new HashMap<>();
          for (int i = 0; i < 4; i++) {
            nkBefore.merge(nkRow(r), 1, Integer::sum);
          }
          Map<Long, Value[]> source = copy(before);
          Map<List<Value>, Integer> nkSource = new HashMap<>(nkBefore);
          AheadRecorder ahead = new AheadRecorder();
          NetChangeDb db = new NetChangeDb(SOURCE, t -> t.equals(T) ? conv : Set.of(), ahead);
          int txs = 1 + r.nextInt(6);
          for (int t = 0; t < txs; t++) {
            boolean refused = r.nextInt(4) == 0;
            Map<Long, Value[]> on = refused ? copy(source) : source;
            Map<List<Value>, Integer> nkOn = refused ? new HashMap<>(nkSource) : nkSource;
            List<InTransaction> body = new ArrayList<>();
            for (int c = 1 + r.nextInt(12); c > 0; c--) {
              body.add(randomCommand(r, on, nkOn));
            }
            if (refused) {
              body.add(new LtlCommand.Truncate(TRAN, next(), T));
              assertThat(add(db, body, packed)).isPresent();
            } else {
              assertThat(add(db, body, packed)).as("seed %d round %d", seed, round).isEmpty();
            }
            assertThat(ahead.pending).isEmpty();
          }
          GroupPlan plan = db.seal();
          Map<Long, Value[]> replica = copy(before);
          for (Value[] row : ahead.sent) {
            long k = ((Value.Int64) row[0]).value();
            assertThat(replica)
                .as("seed %d round %d: key %d sent ahead", seed, round, k)
                .doesNotContainKey(k);
            replica.put(k, row);
          }
          Map<List<Value>, Integer> nkReplica = new HashMap<>(nkBefore);
          applyPlan(plan, replica, nkReplica);
          assertThat(render(replica))
              .as("seed %d round %d conversions %s", seed, round, conv)
              .isEqualTo(render(source));
          assertThat(nkReplica).isEqualTo(nkSource);
          assertThat(plan.insertedAhead()).isEqualTo(ahead.sent.size());
          sentAhead += ahead.sent.size();
        }
      }
    assertThat(sentAhead).as("rows sent ahead").isPositive();
  }

  private final PackedEncoder encoder = new PackedEncoder();
  private final PackedRowReader reader = new PackedRowReader();

  /**
   * Adds {@code body} as it is, or ({@code packed}) packed and read in place, as HVAR's executor
   * adds a held transaction.
   */
  private Optional<String> add(NetChangeDb db, List<InTransaction> body, boolean packed)
      throws SQLException {
    if (!packed) {
      return db.add(body);
    }
    ByteBuilder out = new ByteBuilder(256);
    body.forEach(c -> encoder.encode(c, out));
    try {
      return db.add(reader.reset(out.toByteArray(), 0, out.size()), body.size());
    } catch (io.openrs.ltl.packed.PackedFormatException e) {
      throw new AssertionError(e);
    }
  }

  private static Value[] fullRow(Random r, long k) {
    return new Value[] {
      new Value.Int64(k),
      new Value.Int64(r.nextInt(100)),
      new Value.Text("b" + r.nextInt(100)),
      new Value.Text("big" + r.nextInt(100))
    };
  }

  private static List<Value> nkRow(Random r) {
    return List.of(new Value.Int64(r.nextInt(3)), new Value.Text("y" + r.nextInt(2)));
  }

  /** A command consistent with {@code source}, which it changes as the primary did. */
  private InTransaction randomCommand(
      Random r, Map<Long, Value[]> source, Map<List<Value>, Integer> nk) {
    if (r.nextInt(5) == 0) {
      return nokeyCommand(r, nk);
    }
    long k = 1 + r.nextInt(8);
    Value[] row = source.get(k);
    if (row == null) {
      Value[] img = fullRow(r, k);
      List<Column> after = new ArrayList<>();
      String[] names = {"id", "a", "b", "big"};
      for (int i = 0; i < 4; i++) {
        if (i == 0 || r.nextInt(4) != 0) {
          after.add(new Column(names[i], img[i]));
        } else {
          img[i] = Value.NULL; // left out: the default (null here)
        }
      }
      source.put(k, img);
      return new LtlCommand.Insert(TRAN, next(), T, false, after);
    }
    int p = r.nextInt(10);
    if (p < 2) {
      source.remove(k);
      return del(k);
    }
    Value[] now = row.clone();
    List<Column> after = new ArrayList<>();
    long to = k;
    if (p < 4) {
      long cand = 1 + r.nextInt(8);
      if (!source.containsKey(cand)) {
        to = cand;
        after.add(new Column("id", new Value.Int64(to)));
        now[0] = new Value.Int64(to);
      }
    }
    String[] names = {"id", "a", "b", "big"};
    for (int i = 1; i < 4; i++) {
      int how = r.nextInt(4);
      if (how == 0) {
        Value v =
            i == 1 ? new Value.Int64(r.nextInt(100)) : new Value.Text(names[i] + r.nextInt(100));
        after.add(new Column(names[i], v));
        now[i] = v;
      } else if (how == 1) {
        after.add(new Column(names[i], Value.UNCHANGED));
      }
    }
    if (after.isEmpty()) {
      Value v = new Value.Int64(r.nextInt(100));
      after.add(new Column("a", v));
      now[1] = v;
    }
    source.remove(k);
    source.put(to, now);
    return upd(
        k, after.stream().flatMap(c -> java.util.stream.Stream.of(c.name(), c.value())).toArray());
  }

  private InTransaction nokeyCommand(Random r, Map<List<Value>, Integer> nk) {
    List<List<Value>> present = new ArrayList<>();
    nk.forEach(
        (row, n) -> {
          for (int i = 0; i < n; i++) {
            present.add(row);
          }
        });
    int p = r.nextInt(3);
    if (p == 0 || present.isEmpty()) {
      List<Value> row = nkRow(r);
      nk.merge(row, 1, Integer::sum);
      return new LtlCommand.Insert(TRAN, next(), N, false, nkCols(row));
    }
    List<Value> row = present.get(r.nextInt(present.size()));
    nk.merge(row, -1, Integer::sum);
    nk.remove(row, 0);
    if (p == 1) {
      return new LtlCommand.Delete(TRAN, next(), N, nkCols(row));
    }
    List<Value> after = nkRow(r);
    nk.merge(after, 1, Integer::sum);
    return new LtlCommand.Update(TRAN, next(), N, nkCols(row), nkCols(after));
  }

  private static List<Column> nkCols(List<Value> row) {
    return List.of(new Column("x", row.get(0)), new Column("y", row.get(1)));
  }

  /** Applies a plan as the bulk apply does: save, deletes, updates, inserts. */
  private static void applyPlan(
      GroupPlan plan, Map<Long, Value[]> replica, Map<List<Value>, Integer> nk) {
    for (TablePlan p : plan.tablePlans()) {
      if (p.meta.name().equals(N)) {
        for (TablePlan.Counted c : p.countedDeletes) {
          List<Value> row = List.of(c.row());
          int have = nk.getOrDefault(row, 0);
          assertThat(have)
              .as("rows %s to delete %d times", row, c.count())
              .isGreaterThanOrEqualTo((int) c.count());
          nk.put(row, have - (int) c.count());
          nk.remove(row, 0);
        }
        for (Value[] row : p.countedInserts) {
          nk.merge(List.of(row), 1, Integer::sum);
        }
        continue;
      }
      Map<Long, Value[]> saved = copy(replica);
      for (RowKey k : p.deletes) {
        assertThat(replica.remove(id(k))).as("checked delete of %s", k).isNotNull();
      }
      for (RowKey k : p.deletesUnchecked) {
        replica.remove(id(k));
      }
      for (List<TablePlan.Change> l : p.updates.values()) {
        for (TablePlan.Change c : l) {
          Value[] row = replica.get(id(c.key()));
          assertThat(row).as("update of %s", c.key()).isNotNull();
          for (int i = 0; i < row.length; i++) {
            if (c.image()[i] != null) {
              row[i] = c.image()[i];
            }
          }
        }
      }
      for (List<TablePlan.Change> l : p.inserts.values()) {
        for (TablePlan.Change c : l) {
          Value[] row = new Value[4];
          for (int i = 0; i < 4; i++) {
            row[i] = c.image()[i] == null ? Value.NULL : c.image()[i];
          }
          assertThat(replica.put(id(c.key()), row)).as("insert of %s", c.key()).isNull();
        }
      }
      for (List<TablePlan.Change> l : p.fillInserts.values()) {
        for (TablePlan.Change c : l) {
          Value[] from = saved.get(id(c.fill()));
          assertThat(from).as("saved row %s", c.fill()).isNotNull();
          Value[] row = new Value[4];
          for (int i = 0; i < 4; i++) {
            row[i] = c.image()[i] == null ? from[i] : c.image()[i];
          }
          assertThat(replica.put(id(c.key()), row)).as("insert of %s", c.key()).isNull();
        }
      }
    }
  }

  private static long id(RowKey k) {
    return ((Value.Int64) k.values()[0]).value();
  }

  private static Map<Long, Value[]> copy(Map<Long, Value[]> m) {
    Map<Long, Value[]> out = new TreeMap<>();
    m.forEach((k, v) -> out.put(k, v.clone()));
    return out;
  }

  private static Map<Long, String> render(Map<Long, Value[]> m) {
    Map<Long, String> out = new TreeMap<>();
    m.forEach((k, v) -> out.put(k, Arrays.toString(v)));
    return out;
  }
}
