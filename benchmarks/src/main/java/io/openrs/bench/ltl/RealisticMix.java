package io.openrs.bench.ltl;

import io.openrs.ltl.Column;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TableName;
import io.openrs.ltl.TranId;
import io.openrs.ltl.Value;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;

/**
 * The "realistic mix" workload shared by the benchmarks: transactions of 10-100 row changes, 70%
 * inserts, 20% updates, 10% deletes, over an orders-like table whose rows take ~200 bytes of LTL
 * text (the row image; the whole insert line with its 12-byte OQID is ~280 bytes). Deterministic
 * for a given seed.
 */
public final class RealisticMix {
  private static final TableName TABLE = new TableName("public", "orders");
  private static final String[] STATUS = {"new", "paid", "shipped", "returned", "cancelled"};
  private static final String WORDS =
      "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut"
          + " labore et dolore magna aliqua enim ad minim veniam quis nostrud exercitation";

  private final Random random;
  private long nextOqid = 1;
  private long nextTran = 1;
  private long nextId = 1;
  private Instant clock = Instant.parse("2026-11-21T10:00:00Z");

  public RealisticMix(long seed) {
    this.random = new Random(seed);
  }

  /** At least {@code commands} commands: whole transactions, begin and commit included. */
  public List<LtlCommand> commands(int commands) {
    List<LtlCommand> out = new ArrayList<>(commands + 102);
    while (out.size() < commands) {
      transaction(out);
    }
    return out;
  }

  private void transaction(List<LtlCommand> out) {
    TranId tran = TranId.ofLong(nextTran++);
    clock = clock.plusNanos(1000L * (1 + random.nextInt(5000)));
    out.add(new LtlCommand.Begin(tran, oqid(), clock, java.util.Optional.of("app")));
    int changes = 10 + random.nextInt(91);
    for (int i = 0; i < changes; i++) {
      int dice = random.nextInt(10);
      if (dice < 7 || nextId < 10) {
        out.add(new LtlCommand.Insert(tran, oqid(), TABLE, false, row(nextId++)));
      } else if (dice < 9) {
        long id = 1 + (long) (random.nextDouble() * (nextId - 1));
        out.add(new LtlCommand.Update(tran, oqid(), TABLE, key(id), row(id)));
      } else {
        long id = 1 + (long) (random.nextDouble() * (nextId - 1));
        out.add(new LtlCommand.Delete(tran, oqid(), TABLE, key(id)));
      }
    }
    out.add(new LtlCommand.Commit(tran, oqid(), clock));
  }

  private Oqid oqid() {
    return Oqid.ofLong(nextOqid++, 12);
  }

  private static List<Column> key(long id) {
    return List.of(new Column("order_id", new Value.Int64(id)));
  }

  private List<Column> row(long id) {
    int noteStart = random.nextInt(40);
    String note = WORDS.substring(noteStart, noteStart + 20 + random.nextInt(30));
    return List.of(
        new Column("order_id", new Value.Int64(id)),
        new Column("customer_id", new Value.Int32(random.nextInt(1_000_000))),
        new Column("status", new Value.Text(STATUS[random.nextInt(STATUS.length)])),
        new Column("amount", new Value.Decimal(BigDecimal.valueOf(random.nextInt(10_000_000), 2))),
        new Column("quantity", new Value.Int16((short) (1 + random.nextInt(50)))),
        new Column(
            "created_at",
            new Value.Timestamp(
                LocalDateTime.of(2026, 11, 21, 10, 0).plusNanos(1000L * random.nextInt(1 << 30)))),
        new Column("express", Value.Bool.of(random.nextBoolean())),
        new Column("note", new Value.Text(note)),
        new Column("tracking", new Value.Uuid(new UUID(random.nextLong(), random.nextLong()))));
  }
}
