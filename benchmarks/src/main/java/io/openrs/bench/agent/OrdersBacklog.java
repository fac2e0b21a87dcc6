package io.openrs.bench.agent;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.Random;
import java.util.UUID;

/**
 * Writes the LTL benchmark's realistic mix ({@link io.openrs.bench.ltl.RealisticMix}) into a real
 * PostgreSQL {@code orders} table: transactions of 10-100 row changes, 70% inserts, 20% updates,
 * 10% deletes (by primary key, of a random earlier order id), one commit per transaction. The
 * statements of a transaction are sent as three JDBC batches (its inserts, then its updates, then
 * its deletes), so a change's position inside its transaction differs from RealisticMix's order;
 * the log holds the same kinds and sizes of changes. Deterministic for a given seed.
 *
 * <p>An update or delete of an order already deleted changes no row and so writes nothing to the
 * log: the counts come from the rows each statement actually changed.
 */
final class OrdersBacklog {

  private static final String[] STATUS = {"new", "paid", "shipped", "returned", "cancelled"};
  private static final String WORDS =
      "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut"
          + " labore et dolore magna aliqua enim ad minim veniam quis nostrud exercitation";

  /** What reached the log: committed transactions with at least one change, and the changes. */
  record Counts(long transactions, long changes, long inserts, long updates, long deletes) {}

  private final Random random;
  private long nextId = 1;

  OrdersBacklog(long seed) {
    this.random = new Random(seed);
  }

  /** The table the mix writes, in {@code schema}. */
  static String createTable(String schema) {
    return "CREATE TABLE "
        + schema
        + ".orders (order_id bigint PRIMARY KEY, customer_id int, status text,"
        + " amount numeric(12,2), quantity smallint, created_at timestamp, express boolean,"
        + " note text, tracking uuid)";
  }

  /** Commits {@code transactions} transactions of the mix on {@code c}. */
  Counts write(Connection c, String schema, int transactions) throws SQLException {
    c.setAutoCommit(false);
    long tx = 0;
    long ins = 0;
    long upd = 0;
    long del = 0;
    try (PreparedStatement insert =
            c.prepareStatement(
                "INSERT INTO "
                    + schema
                    + ".orders (order_id, customer_id, status, amount, quantity, created_at,"
                    + " express, note, tracking) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
        PreparedStatement update =
            c.prepareStatement(
                "UPDATE "
                    + schema
                    + ".orders SET customer_id = ?, status = ?, amount = ?, quantity = ?,"
                    + " created_at = ?, express = ?, note = ?, tracking = ? WHERE order_id = ?");
        PreparedStatement delete =
            c.prepareStatement("DELETE FROM " + schema + ".orders WHERE order_id = ?")) {
      for (int t = 0; t < transactions; t++) {
        int changes = 10 + random.nextInt(91);
        boolean anyInsert = false;
        boolean anyUpdate = false;
        boolean anyDelete = false;
        for (int i = 0; i < changes; i++) {
          int dice = random.nextInt(10);
          if (dice < 7 || nextId < 10) {
            insert.setLong(1, nextId++);
            row(insert, 2);
            insert.addBatch();
            anyInsert = true;
          } else if (dice < 9) {
            long id = 1 + (long) (random.nextDouble() * (nextId - 1));
            row(update, 1);
            update.setLong(9, id);
            update.addBatch();
            anyUpdate = true;
          } else {
            long id = 1 + (long) (random.nextDouble() * (nextId - 1));
            delete.setLong(1, id);
            delete.addBatch();
            anyDelete = true;
          }
        }
        long i = anyInsert ? sum(insert.executeBatch()) : 0;
        long u = anyUpdate ? sum(update.executeBatch()) : 0;
        long d = anyDelete ? sum(delete.executeBatch()) : 0;
        c.commit();
        if (i + u + d > 0) {
          tx++;
        }
        ins += i;
        upd += u;
        del += d;
      }
    }
    c.setAutoCommit(true);
    return new Counts(tx, ins + upd + del, ins, upd, del);
  }

  private static long sum(int[] counts) {
    long n = 0;
    for (int k : counts) {
      if (k < 0) {
        throw new IllegalStateException("the driver did not report a batch's row count: " + k);
      }
      n += k;
    }
    return n;
  }

  /** The non-key columns, from parameter {@code first} on (RealisticMix's value shapes). */
  private void row(PreparedStatement ps, int first) throws SQLException {
    int noteStart = random.nextInt(40);
    String note = WORDS.substring(noteStart, noteStart + 20 + random.nextInt(30));
    ps.setInt(first, random.nextInt(1_000_000));
    ps.setString(first + 1, STATUS[random.nextInt(STATUS.length)]);
    ps.setBigDecimal(first + 2, BigDecimal.valueOf(random.nextInt(10_000_000), 2));
    ps.setShort(first + 3, (short) (1 + random.nextInt(50)));
    ps.setObject(
        first + 4,
        LocalDateTime.of(2026, 11, 21, 10, 0).plusNanos(1000L * random.nextInt(1 << 30)));
    ps.setBoolean(first + 5, random.nextBoolean());
    ps.setString(first + 6, note);
    ps.setObject(first + 7, new UUID(random.nextLong(), random.nextLong()));
  }
}
