package io.openrs.dsi.internal.parallel;

import static org.assertj.core.api.Assertions.assertThat;

import io.openrs.dsi.dialect.ColumnMeta;
import io.openrs.dsi.dialect.TableMeta;
import io.openrs.dsi.internal.SourceTransaction;
import io.openrs.ltl.Column;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TableName;
import io.openrs.ltl.TranId;
import io.openrs.ltl.Value;
import io.openrs.queue.QueuePosition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which groups may run side by side in the dependency-aware parallel DSI. */
class DependencyKeysTest {
  private static final TableName T = new TableName("s", "t");
  private static final TableName NOKEY = new TableName("s", "nokey");
  private static final TranId TRAN = TranId.ofLong(1);
  private static final Oqid O = Oqid.ofLong(1, 8);

  private static TableMeta meta(TableName n) {
    List<ColumnMeta> cols =
        List.of(
            new ColumnMeta("id", "int8", false),
            new ColumnMeta("code", "text", false),
            new ColumnMeta("v", "text", true));
    return n.equals(NOKEY)
        ? new TableMeta(n, cols, List.of(), List.of())
        : new TableMeta(n, cols, List.of("id"), List.of(List.of("code")));
  }

  private static DependencyKeys keys(LtlCommand.InTransaction... body) {
    SourceTransaction t =
        SourceTransaction.complete(
            1,
            101,
            new LtlCommand.Begin(TRAN, O, Instant.EPOCH, Optional.empty()),
            new LtlCommand.Commit(TRAN, O, Instant.EPOCH),
            List.of(body),
            new QueuePosition(0, 0, 0),
            new QueuePosition(0, 0, 1),
            10);
    return DependencyKeys.of(List.of(t), DependencyKeysTest::meta);
  }

  private static List<Column> row(Object... nv) {
    List<Column> out = new ArrayList<>();
    for (int i = 0; i < nv.length; i += 2) {
      Object v = nv[i + 1];
      out.add(
          new Column(
              (String) nv[i],
              v instanceof Long l ? new Value.Int64(l) : new Value.Text((String) v)));
    }
    return out;
  }

  private static LtlCommand.Insert insert(TableName t, Object... nv) {
    return new LtlCommand.Insert(TRAN, O, t, false, row(nv));
  }

  @Test
  void rowsWithDifferentKeysRunTogether() {
    assertThat(
            keys(insert(T, "id", 1L, "code", "a"))
                .conflicts(keys(insert(T, "id", 2L, "code", "b"))))
        .isFalse();
  }

  @Test
  void theSamePrimaryKeyConflicts() {
    DependencyKeys update =
        keys(new LtlCommand.Update(TRAN, O, T, row("id", 1L), row("id", 1L, "v", "x")));
    assertThat(update.conflicts(keys(insert(T, "id", 1L, "code", "z")))).isTrue();
  }

  @Test
  void anIntegerKeyMatchesWhateverItsWidth() {
    DependencyKeys a = keys(insert(T, "id", 7L, "code", "a"));
    DependencyKeys b =
        keys(new LtlCommand.Delete(TRAN, O, T, List.of(new Column("id", new Value.Int32(7)))));
    assertThat(a.conflicts(b)).isTrue();
  }

  @Test
  void aKeyChangeConflictsWithTheOldAndTheNewKey() {
    DependencyKeys move =
        keys(new LtlCommand.Update(TRAN, O, T, row("id", 1L), row("id", 2L, "code", "q")));
    assertThat(move.conflicts(keys(insert(T, "id", 1L, "code", "a")))).isTrue();
    assertThat(move.conflicts(keys(insert(T, "id", 2L, "code", "b")))).isTrue();
  }

  @Test
  void theSameUniqueKeyValueConflicts() {
    assertThat(
            keys(insert(T, "id", 1L, "code", "same"))
                .conflicts(keys(insert(T, "id", 2L, "code", "same"))))
        .isTrue();
  }

  @Test
  void aTableWithoutPrimaryKeyIsTakenWhole() {
    assertThat(keys(insert(NOKEY, "id", 1L)).conflicts(keys(insert(NOKEY, "id", 2L)))).isTrue();
    assertThat(keys(insert(NOKEY, "id", 1L)).conflicts(keys(insert(T, "id", 2L, "code", "x"))))
        .isFalse();
  }

  @Test
  void aTruncateTakesItsTableWhole() {
    DependencyKeys tr = keys(new LtlCommand.Truncate(TRAN, O, T));
    assertThat(tr.conflicts(keys(insert(T, "id", 9L, "code", "x")))).isTrue();
  }

  @Test
  void ddlRunsAlone() {
    DependencyKeys ddl =
        keys(new LtlCommand.Ddl(TRAN, O, Optional.empty(), "CREATE TABLE x (a int)"));
    assertThat(ddl.exclusive).isTrue();
    assertThat(ddl.conflicts(keys(insert(NOKEY, "id", 1L)))).isTrue();
  }

  @Test
  void aGroupWhoseTablesCannotBeReadRunsAlone() {
    SourceTransaction t =
        SourceTransaction.complete(
            1,
            101,
            new LtlCommand.Begin(TRAN, O, Instant.EPOCH, Optional.empty()),
            new LtlCommand.Commit(TRAN, O, Instant.EPOCH),
            List.of(insert(T, "id", 1L)),
            new QueuePosition(0, 0, 0),
            new QueuePosition(0, 0, 1),
            10);
    DependencyKeys k =
        DependencyKeys.of(
            List.of(t),
            n -> {
              throw new java.sql.SQLException("gone");
            });
    assertThat(k.exclusive).isTrue();
  }
}
