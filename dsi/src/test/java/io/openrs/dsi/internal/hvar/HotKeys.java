package io.openrs.dsi.internal.hvar;

import io.openrs.dsi.testkit.TestDb;
import io.openrs.dsi.testkit.Workload;
import io.openrs.ltl.Column;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TableName;
import io.openrs.ltl.TranId;
import io.openrs.ltl.Value;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;

/**
 * A seeded stream of origin 103 over table {@code hot}: a few keys inserted, updated many times
 * (full and changed-only images, a text column left unchanged), moved to another key and deleted,
 * again and again, so one group folds many commands per key. Keeps the reference model.
 */
final class HotKeys {
  static final int ORIGIN = 103;

  private final String schema;
  private final Random r;
  private final int keys;
  private final Map<Long, Row> model = new TreeMap<>();
  private long oqid = 5000;
  private long tran = 1;
  private Oqid lastCommit;

  private record Row(long n, String note) {}

  HotKeys(String schema, long seed, int keys) {
    this.schema = schema;
    this.r = new Random(seed);
    this.keys = keys;
  }

  static String ddl(TestDb db) {
    return db == TestDb.POSTGRESQL
        ? "CREATE TABLE hot (id bigint PRIMARY KEY, n bigint NOT NULL, note text)"
        : "CREATE TABLE hot (id BIGINT PRIMARY KEY, n BIGINT NOT NULL, note TEXT) ENGINE=InnoDB";
  }

  Oqid lastCommit() {
    return lastCommit;
  }

  /** The model's rows as {@code id,n,note}, by id. */
  List<String> expected() {
    List<String> out = new ArrayList<>();
    model.forEach((id, row) -> out.add(id + "," + row.n + "," + row.note));
    return out;
  }

  List<Workload.Tx> next(int n) {
    List<Workload.Tx> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(tx());
    }
    return out;
  }

  private Workload.Tx tx() {
    TranId id = TranId.ofLong(tran++);
    List<LtlCommand> cmds = new ArrayList<>();
    cmds.add(new LtlCommand.Begin(id, next(), Instant.EPOCH, Optional.empty()));
    int ops = 1 + r.nextInt(8);
    for (int i = 0; i < ops; i++) {
      long k = 1 + r.nextInt(keys);
      Row row = model.get(k);
      int p = r.nextInt(100);
      if (row == null) {
        Row nr = new Row(0, "note " + r.nextInt(1000));
        model.put(k, nr);
        cmds.add(new LtlCommand.Insert(id, next(), t(), false, full(k, nr)));
      } else if (p < 55) {
        Row nr = new Row(row.n + 1, row.note);
        model.put(k, nr);
        List<Column> after =
            r.nextBoolean()
                ? List.of(col("id", k), new Column("n", new Value.Int64(nr.n)))
                : List.of(
                    col("id", k),
                    new Column("n", new Value.Int64(nr.n)),
                    new Column("note", Value.UNCHANGED));
        cmds.add(new LtlCommand.Update(id, next(), t(), List.of(col("id", k)), after));
      } else if (p < 70) {
        Row nr = new Row(row.n, "note " + r.nextInt(1000));
        model.put(k, nr);
        cmds.add(new LtlCommand.Update(id, next(), t(), List.of(col("id", k)), full(k, nr)));
      } else if (p < 82) {
        long to = 1 + r.nextInt(keys);
        if (model.containsKey(to)) {
          continue;
        }
        model.remove(k);
        model.put(to, row);
        // a key move whose image leaves the note out: it stays as the replicate has it
        cmds.add(
            new LtlCommand.Update(
                id,
                next(),
                t(),
                List.of(col("id", k)),
                List.of(col("id", to), new Column("note", Value.UNCHANGED))));
      } else {
        model.remove(k);
        cmds.add(new LtlCommand.Delete(id, next(), t(), List.of(col("id", k))));
      }
    }
    LtlCommand.Commit c = new LtlCommand.Commit(id, next(), Instant.EPOCH);
    cmds.add(c);
    lastCommit = c.oqid();
    return new Workload.Tx(ORIGIN, cmds);
  }

  private Oqid next() {
    return Oqid.ofLong(++oqid, 12);
  }

  private TableName t() {
    return new TableName(schema, "hot");
  }

  private static Column col(String name, long v) {
    return new Column(name, new Value.Int64(v));
  }

  private static List<Column> full(long k, Row row) {
    return List.of(
        col("id", k),
        new Column("n", new Value.Int64(row.n)),
        new Column("note", new Value.Text(row.note)));
  }
}
