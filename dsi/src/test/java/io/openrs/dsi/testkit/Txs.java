package io.openrs.dsi.testkit;

import io.openrs.ltl.Column;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TableName;
import io.openrs.ltl.TranId;
import io.openrs.ltl.Value;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Hand-written transactions for focused tests; OQIDs increase across everything it builds. */
public final class Txs {
  private final String schema;
  private final int origin;
  private long oqid = 100;
  private long tran = 1;
  private TranId current;
  private final List<LtlCommand> cmds = new ArrayList<>();

  public Txs(String schema, int origin) {
    this.schema = schema;
    this.origin = origin;
  }

  public int origin() {
    return origin;
  }

  public Txs begin() {
    cmds.clear();
    current = TranId.ofLong(tran++);
    cmds.add(
        new LtlCommand.Begin(
            current, next(), Instant.parse("2026-01-01T00:00:00Z"), Optional.empty()));
    return this;
  }

  private Oqid next() {
    return Oqid.ofLong(++oqid, 12);
  }

  public static List<Column> row(Object... nameValues) {
    List<Column> out = new ArrayList<>();
    for (int i = 0; i < nameValues.length; i += 2) {
      out.add(new Column((String) nameValues[i], (Value) nameValues[i + 1]));
    }
    return out;
  }

  public Txs insert(String table, List<Column> after) {
    cmds.add(new LtlCommand.Insert(current, next(), t(table), false, after));
    return this;
  }

  public Txs snapshot(String table, List<Column> after) {
    cmds.add(new LtlCommand.Insert(current, next(), t(table), true, after));
    return this;
  }

  public Txs update(String table, List<Column> before, List<Column> after) {
    cmds.add(new LtlCommand.Update(current, next(), t(table), before, after));
    return this;
  }

  public Txs delete(String table, List<Column> before) {
    cmds.add(new LtlCommand.Delete(current, next(), t(table), before));
    return this;
  }

  public Txs truncate(String table) {
    cmds.add(new LtlCommand.Truncate(current, next(), t(table)));
    return this;
  }

  public Txs ddl(Optional<String> inSchema, String statement) {
    cmds.add(new LtlCommand.Ddl(current, next(), inSchema, statement));
    return this;
  }

  public Txs ticket(String... headers) {
    cmds.add(
        new LtlCommand.Ticket(
            current, next(), Instant.parse("2026-01-01T00:00:01Z"), List.of(headers)));
    return this;
  }

  /** The commands so far without a commit (an unfinished run). */
  public List<LtlCommand> open() {
    return List.copyOf(cmds);
  }

  public Workload.Tx commit() {
    return commit(Instant.parse("2026-01-01T00:00:02Z"));
  }

  /** The commit, at origin commit time {@code time} (whole microseconds). */
  public Workload.Tx commit(Instant time) {
    cmds.add(new LtlCommand.Commit(current, next(), time));
    return new Workload.Tx(origin, List.copyOf(cmds));
  }

  private TableName t(String table) {
    return new TableName(schema, table);
  }

  public static Value i64(long v) {
    return new Value.Int64(v);
  }

  public static Value i32(int v) {
    return new Value.Int32(v);
  }

  public static Value text(String s) {
    return new Value.Text(s);
  }
}
