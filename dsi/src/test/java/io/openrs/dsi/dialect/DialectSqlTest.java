package io.openrs.dsi.dialect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.openrs.ltl.TableName;
import io.openrs.ltl.Value;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The statements the dialects write, and PostgreSQL's COPY text form of every value kind. */
class DialectSqlTest {
  private static final TableName T = new TableName("Sales", "Order \"Lines\"");

  private static TableMeta keyed() {
    return new TableMeta(
        T,
        List.of(
            new ColumnMeta("id", "int4", false),
            new ColumnMeta("line", "int4", false),
            new ColumnMeta("note", "text", true)),
        List.of("id", "line"),
        List.of());
  }

  private static TableMeta keyless() {
    return new TableMeta(
        T,
        List.of(
            new ColumnMeta("a", "int4", true),
            new ColumnMeta("doc", "json", true),
            new ColumnMeta("f", "float", true),
            new ColumnMeta("t", "varchar", true)),
        List.of(),
        List.of());
  }

  private final Dialect pg = Dialect.forName("postgresql");
  private final Dialect maria = Dialect.forName("mysql");

  private static TableMeta identityAndDeferrable() {
    return new TableMeta(
        new TableName("s", "t"),
        List.of(new ColumnMeta("id", "int8", false), new ColumnMeta("v", "text", true)),
        List.of("id"),
        List.of(),
        List.of("id"),
        true,
        true);
  }

  @Test
  void anAlwaysIdentityTableTakesTheOriginsValuesAndOthersAreUnchanged() {
    TableMeta t = identityAndDeferrable();
    assertThat(pg.insert(t, List.of("id", "v")))
        .isEqualTo("INSERT INTO \"s\".\"t\" (\"id\", \"v\") OVERRIDING SYSTEM VALUE VALUES (?, ?)");
    assertThat(pg.bulkInsertSelect(t, "w", List.of("id", "v")))
        .contains(") OVERRIDING SYSTEM VALUE SELECT ");
    assertThat(pg.upsert(t, List.of("id", "v")))
        .contains("OVERRIDING SYSTEM VALUE VALUES (?, ?) ON CONFLICT");
    assertThat(pg.insert(keyed(), List.of("id"))).doesNotContain("OVERRIDING");
    assertThat(maria.insert(t, List.of("id", "v"))).doesNotContain("OVERRIDING");
  }

  @Test
  void aDeferrableKeyFindsTheRowTheTransactionHasNotWritten() {
    assertThat(pg.update(identityAndDeferrable(), List.of("v"), List.of("id"), true))
        .isEqualTo(
            "UPDATE \"s\".\"t\" SET \"v\" = ? WHERE ctid = (SELECT ctid FROM \"s\".\"t\""
                + " WHERE \"id\" = ? ORDER BY age(xmin) <= 0 LIMIT 1)");
    assertThat(pg.deferConstraintsStatement()).contains("SET CONSTRAINTS ALL DEFERRED");
    assertThat(maria.deferConstraintsStatement()).isEmpty();
    assertThat(pg.bulkRestriction(identityAndDeferrable())).isPresent();
  }

  @Test
  void tablesTruncatedTogetherAreOneStatementOnPostgresAndChildrenFirstOnMariaDb() {
    TableMeta child =
        new TableMeta(new TableName("s", "child"), keyed().columns(), List.of(), List.of());
    TableMeta parent =
        new TableMeta(new TableName("s", "parent"), keyed().columns(), List.of(), List.of());
    assertThat(pg.truncate(List.of(child, parent)))
        .containsExactly("TRUNCATE TABLE \"s\".\"child\", \"s\".\"parent\"");
    assertThat(maria.truncate(List.of(child, parent)))
        .containsExactly("DELETE FROM `s`.`child`", "DELETE FROM `s`.`parent`");
    assertThat(pg.replicaModeStatement(true))
        .isEqualTo("SET SESSION session_replication_role = replica");
    assertThat(maria.replicaModeStatement(true)).isEqualTo("SET SESSION foreign_key_checks = 0");
  }

  @Test
  void identifiersAreQuotedWithTheirQuotesDoubled() {
    assertThat(pg.qualified(T)).isEqualTo("\"Sales\".\"Order \"\"Lines\"\"\"");
    assertThat(maria.quote("a`b")).isEqualTo("`a``b`");
  }

  @Test
  void valuesAreAlwaysParameters() {
    assertThat(pg.insert(keyed(), List.of("id", "note")))
        .isEqualTo(
            "INSERT INTO \"Sales\".\"Order \"\"Lines\"\"\" (\"id\", \"note\") VALUES (?, ?)");
    assertThat(pg.update(keyed(), List.of("note"), List.of("id", "line"), true))
        .endsWith("SET \"note\" = ? WHERE \"id\" = ? AND \"line\" = ?");
    assertThat(maria.delete(keyed(), List.of("id", "line"), true))
        .isEqualTo("DELETE FROM `Sales`.`Order \"Lines\"` WHERE `id` = ? AND `line` = ?");
  }

  @Test
  void upsertsOnThePrimaryKey() {
    assertThat(pg.upsert(keyed(), List.of("id", "line", "note")))
        .endsWith("ON CONFLICT (\"id\", \"line\") DO UPDATE SET \"note\" = EXCLUDED.\"note\"");
    assertThat(pg.upsert(keyed(), List.of("id", "line"))).endsWith("DO NOTHING");
    assertThat(maria.upsert(keyed(), List.of("id", "line", "note")))
        .endsWith("ON DUPLICATE KEY UPDATE `note` = VALUES(`note`)");
    assertThat(pg.upsert(keyless(), List.of("a"))).doesNotContain("CONFLICT");
  }

  @Test
  void withoutAKeyEveryColumnIsComparedNullSafelyAndOneRowChanges() {
    assertThat(pg.delete(keyless(), List.of("a", "doc"), false))
        .endsWith(
            "WHERE ctid = (SELECT ctid FROM \"Sales\".\"Order \"\"Lines\"\"\" WHERE \"a\" IS NOT"
                + " DISTINCT FROM ? AND \"doc\"::text IS NOT DISTINCT FROM ?::text LIMIT 1)");
    assertThat(maria.update(keyless(), List.of("a"), List.of("a", "f", "t"), false))
        .endsWith(
            "WHERE `a` <=> ? AND `f` <=> CAST(? AS FLOAT) AND `t` <=> ? COLLATE"
                + " utf8mb4_nopad_bin LIMIT 1");
  }

  @Test
  void truncateStaysInsideTheTransaction() {
    assertThat(pg.truncate(keyed())).startsWith("TRUNCATE TABLE");
    assertThat(maria.truncate(keyed())).startsWith("DELETE FROM");
  }

  @Test
  void unknownDialectsAreNamed() {
    assertThatThrownBy(() -> Dialect.forName("oracle"))
        .hasMessageContaining("oracle")
        .hasMessageContaining("postgresql, mariadb");
  }

  private static String copy(Value v) {
    StringBuilder sb = new StringBuilder();
    PostgresDialect.appendCopyValue(sb, v);
    return sb.toString();
  }

  @Test
  void copyTextEscapesWhatCopyReads() {
    assertThat(copy(Value.NULL)).isEqualTo("\\N");
    assertThat(copy(new Value.Text("\\N"))).isEqualTo("\\\\N");
    assertThat(copy(new Value.Text("a\tb\nc\rd\\"))).isEqualTo("a\\tb\\nc\\rd\\\\");
    assertThat(copy(new Value.Binary(new byte[] {0, (byte) 0xff, 0x5c}))).isEqualTo("\\\\x00ff5c");
    assertThat(copy(new Value.Binary(new byte[0]))).isEqualTo("\\\\x");
    assertThat(copy(Value.Bool.TRUE)).isEqualTo("t");
  }

  @Test
  void copyTextOfNumbers() {
    assertThat(copy(new Value.Decimal(new BigDecimal("1.50")))).isEqualTo("1.50");
    assertThat(copy(new Value.Decimal(new BigDecimal("1E+5")))).isEqualTo("1E+5");
    assertThat(copy(new Value.Float64(Double.NaN))).isEqualTo("NaN");
    assertThat(copy(new Value.Float32(Float.NEGATIVE_INFINITY))).isEqualTo("-Infinity");
    assertThat(copy(new Value.Float64(-0.0))).isEqualTo("-0.0");
    assertThat(copy(new Value.Float32(0.1f))).isEqualTo("0.1");
  }

  @Test
  void copyTextOfDatesAndTimes() {
    assertThat(copy(new Value.Date(LocalDate.of(0, 1, 1)))).isEqualTo("0001-01-01 BC");
    assertThat(copy(new Value.Date(LocalDate.of(12345, 6, 7)))).isEqualTo("12345-06-07");
    assertThat(copy(new Value.Time(LocalTime.of(7, 0)))).isEqualTo("07:00:00");
    assertThat(copy(new Value.Timestamp(LocalDateTime.of(2026, 1, 2, 3, 4, 5, 6000))))
        .isEqualTo("2026-01-02 03:04:05.000006");
    assertThat(copy(new Value.TimestampTz(OffsetDateTime.parse("2026-01-02T03:04:05Z"))))
        .isEqualTo("2026-01-02 03:04:05+00");
    assertThat(copy(new Value.TimestampTz(OffsetDateTime.parse("1890-01-01T00:00:00+00:09:21"))))
        .isEqualTo("1890-01-01 00:00:00+00:09:21");
  }
}
