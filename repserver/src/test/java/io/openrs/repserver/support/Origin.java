package io.openrs.repserver.support;

import io.openrs.ltl.Column;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TableName;
import io.openrs.ltl.TranId;
import io.openrs.ltl.Value;
import io.openrs.ltl.text.LtlWriter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A scripted origin for tests: hands out strictly increasing OQIDs in the order commands are
 * created (the order an agent sends them) and renders commands as LTL text.
 */
public final class Origin {

  private long nextOqid;
  private final LtlWriter writer = new LtlWriter();

  public Origin() {
    this(0);
  }

  public Origin(long firstOqid) {
    this.nextOqid = firstOqid;
  }

  public Oqid next() {
    return Oqid.ofLong(++nextOqid, 12);
  }

  public static Instant now() {
    return Instant.now().truncatedTo(ChronoUnit.MICROS);
  }

  public LtlCommand.Begin begin(long tran) {
    return new LtlCommand.Begin(TranId.ofLong(tran), next(), now(), Optional.of("app"));
  }

  public LtlCommand.Commit commit(long tran) {
    return new LtlCommand.Commit(TranId.ofLong(tran), next(), now());
  }

  public LtlCommand.Rollback rollback(long tran) {
    return new LtlCommand.Rollback(TranId.ofLong(tran), next());
  }

  public LtlCommand.Insert insert(long tran, TableName table, Column... after) {
    return new LtlCommand.Insert(TranId.ofLong(tran), next(), table, false, List.of(after));
  }

  public LtlCommand.Update update(
      long tran, TableName table, List<Column> before, List<Column> after) {
    return new LtlCommand.Update(TranId.ofLong(tran), next(), table, before, after);
  }

  public LtlCommand.Delete delete(long tran, TableName table, Column... before) {
    return new LtlCommand.Delete(TranId.ofLong(tran), next(), table, List.of(before));
  }

  public LtlCommand.Ticket ticket(long tran, String... headers) {
    return new LtlCommand.Ticket(TranId.ofLong(tran), next(), now(), List.of(headers));
  }

  public static Column col(String name, int v) {
    return new Column(name, new Value.Int32(v));
  }

  public static Column col(String name, String v) {
    return new Column(name, new Value.Text(v));
  }

  /** The LTL text of {@code commands}, one per line. */
  public byte[] text(List<? extends LtlCommand> commands) {
    StringBuilder b = new StringBuilder();
    for (LtlCommand c : commands) {
      b.append(writer.toText(c)).append('\n');
    }
    return b.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** Splits {@code commands} into batches of at most {@code perBatch} commands. */
  public static <T> List<List<T>> chunks(List<T> commands, int perBatch) {
    List<List<T>> out = new ArrayList<>();
    for (int i = 0; i < commands.size(); i += perBatch) {
      out.add(commands.subList(i, Math.min(commands.size(), i + perBatch)));
    }
    return out;
  }
}
