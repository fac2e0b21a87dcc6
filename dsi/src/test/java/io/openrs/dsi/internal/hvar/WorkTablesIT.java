package io.openrs.dsi.internal.hvar;

import static org.assertj.core.api.Assertions.assertThat;

import io.openrs.dsi.dialect.ColumnMeta;
import io.openrs.dsi.dialect.Dialect;
import io.openrs.dsi.dialect.TableMeta;
import io.openrs.dsi.dialect.WorkColumn;
import io.openrs.dsi.testkit.TestDb;
import io.openrs.dsi.testkit.Workload;
import io.openrs.ltl.Column;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.TableName;
import io.openrs.ltl.Value;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The work-table path stores every value kind exactly: rows of the test schema's {@code item} table
 * (every type) loaded through the bulk interface (PostgreSQL {@code COPY}; MariaDB {@code LOAD DATA
 * LOCAL} from a stream, which the server must accept) into a work table, inserted with {@code
 * INSERT ... SELECT}, then updated from a second work table with a join update, read back equal.
 */
class WorkTablesIT {

  /** Item rows of a workload's bulk transactions, by id, in the table's column order. */
  private static Map<Long, Value[]> items(TestDb db, String schema, long seed, TableMeta t) {
    Map<Long, Value[]> out = new TreeMap<>();
    for (Workload.Tx tx : new Workload(db, schema, seed, 1.0).next(40)) {
      for (LtlCommand c : tx.body()) {
        if (c instanceof LtlCommand.Insert ins && ins.table().table().equals("item")) {
          Value[] row = new Value[t.columns().size()];
          for (Column col : ins.after()) {
            for (int i = 0; i < row.length; i++) {
              if (t.columns().get(i).name().equals(col.name())) {
                row[i] = col.value();
              }
            }
          }
          out.put((long) ((Value.Int32) row[0]).value(), row);
        }
      }
    }
    return out;
  }

  private static List<String> canonical(TableMeta t, Iterable<Value[]> rows) {
    List<String> out = new ArrayList<>();
    for (Value[] row : rows) {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < row.length; i++) {
        sb.append(t.columns().get(i).name()).append('=');
        sb.append(Workload.canonical(row[i])).append(" | ");
      }
      out.add(sb.toString());
    }
    out.sort(null);
    return out;
  }

  @ParameterizedTest
  @EnumSource(TestDb.class)
  void everyValueKindSurvivesTheWorkTables(TestDb db) throws Exception {
    Dialect d = Dialect.forName(db.dialect());
    try (TestDb.Scratch s = db.scratch("hvar_work");
        Connection c = s.connect()) {
      s.exec(Workload.ddl(db).toArray(String[]::new));
      c.setAutoCommit(false);
      d.prepareSession(c);
      TableMeta t = d.describe(c, new TableName(s.name(), "item"));
      List<String> cols = t.columns().stream().map(ColumnMeta::name).toList();
      List<WorkColumn> wc = cols.stream().map(WorkColumn::of).toList();
      Map<Long, Value[]> first = items(db, s.name(), 21, t);
      assertThat(first).hasSizeGreaterThan(100);

      d.createWorkTable(c, "w_insert", t, wc);
      long n =
          d.loadRows(
              c,
              d.quote("w_insert"),
              cols,
              t.columns(),
              new ArrayList<>(first.values()),
              4096,
              true);
      assertThat(n).isEqualTo(first.size());
      try (Statement st = c.createStatement()) {
        assertThat(st.executeLargeUpdate(d.bulkInsertSelect(t, "w_insert", cols)))
            .isEqualTo(first.size());
      }
      c.commit();
      assertThat(Workload.actual(db, c, "item")).isEqualTo(canonical(t, first.values()));

      // the same ids with other values: a join update of every other column
      Map<Long, Value[]> second = items(db, s.name(), 22, t);
      second.keySet().retainAll(first.keySet());
      d.createWorkTable(c, "w_update", t, wc);
      d.loadRows(
          c, d.quote("w_update"), cols, t.columns(), new ArrayList<>(second.values()), 4096, true);
      try (Statement st = c.createStatement()) {
        assertThat(st.executeLargeUpdate(d.bulkUpdate(t, "w_update", cols.subList(1, cols.size()))))
            .isEqualTo(second.size());
      }
      c.commit();
      d.dropWorkTables(c, List.of("w_insert", "w_update"));
      Map<Long, Value[]> expected = new TreeMap<>(first);
      expected.putAll(second);
      assertThat(Workload.actual(db, c, "item")).isEqualTo(canonical(t, expected.values()));
    }
  }

  /**
   * A small group's keys are looked up in the replicate table's primary key, not found by hashing
   * the whole table: the work table is analyzed once loaded, so PostgreSQL plans it at its real
   * size instead of its guess of ten pages for a table never analyzed.
   */
  @org.junit.jupiter.api.Test
  void aSmallWorkTableJoinsThroughThePrimaryKey() throws Exception {
    TestDb db = TestDb.POSTGRESQL;
    Dialect d = Dialect.forName(db.dialect());
    try (TestDb.Scratch s = db.scratch("hvar_plan");
        Connection c = s.connect()) {
      s.exec(
          "CREATE TABLE big (id bigint PRIMARY KEY, v int, pad text)",
          "INSERT INTO big SELECT g, g % 100, repeat('x', 200) FROM generate_series(1, 60000) g",
          "ANALYZE big");
      c.setAutoCommit(false);
      d.prepareSession(c);
      TableMeta t = d.describe(c, new TableName(s.name(), "big"));
      List<Value[]> keys = new ArrayList<>();
      for (long k = 1; k <= 60000; k += 200) {
        keys.add(new Value[] {new Value.Int64(k)});
      }
      assertThat(keys).hasSizeLessThan(BulkApplier.SMALL_WORK_ROWS);
      List<WorkColumn> key = List.of(WorkColumn.of("id"));
      d.createWorkTable(c, "w_guessed", t, key);
      d.loadRows(c, d.quote("w_guessed"), List.of("id"), t.columns(), keys, 4096, true);
      d.createWorkTable(c, "w_analyzed", t, key);
      d.loadRows(c, d.quote("w_analyzed"), List.of("id"), t.columns(), keys, 4096, true);
      try (Statement st = c.createStatement()) {
        st.execute(d.analyzeWorkTable("w_analyzed", List.of("id")).orElseThrow());
      }
      // the guess is what the analysis is for: without it the whole table is scanned
      assertThat(plan(c, d.bulkDelete(t, "w_guessed"))).contains("Seq Scan on big");
      assertThat(plan(c, d.bulkDelete(t, "w_analyzed")))
          .contains("Index Scan using big_pkey")
          .doesNotContain("Seq Scan on big");
      c.rollback();
    }
  }

  private static String plan(Connection c, String sql) throws Exception {
    StringBuilder out = new StringBuilder();
    try (Statement st = c.createStatement();
        java.sql.ResultSet rs = st.executeQuery("EXPLAIN " + sql)) {
      while (rs.next()) {
        out.append(rs.getString(1)).append('\n');
      }
    }
    return out.toString();
  }
}
