package io.openrs.dsi.dialect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.openrs.dsi.testkit.TestDb;
import io.openrs.ltl.Column;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TableName;
import io.openrs.ltl.TranId;
import io.openrs.ltl.Value;
import io.openrs.ltl.packed.PackedEncoder;
import io.openrs.ltl.packed.PackedRowReader;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * HVAR's binary COPY loads exactly what its text COPY loads: random rows of every column type the
 * binary encoder writes, extremes included (NaN and ±Infinity of numeric, ±infinity of dates and
 * timestamps), go into one table through {@link CopyTextEncoder} and into two more through {@link
 * CopyBinaryEncoder} (from values and read in place from packed LTL), on real PostgreSQL; the three
 * tables then hold the same rows, compared as their text.
 */
class CopyBinaryEncoderIT {

  private static final String COLUMNS =
      " (c_i2 int2, c_i4 int4, c_i8 int8, c_b bool, c_t text, c_v varchar(40), c_by bytea,"
          + " c_f4 float4, c_f8 float8, c_u uuid, c_d date, c_ts timestamp, c_tz timestamptz,"
          + " c_n numeric, c_n6 numeric(30,6), c_ni numeric)";

  private static final int ROWS = 5_000;

  @Test
  void binaryCopyLoadsWhatTextCopyLoads() throws Exception {
    try (TestDb.Scratch s = TestDb.POSTGRESQL.scratch("copybin");
        Connection c = s.connect()) {
      s.exec(
          "CREATE TABLE by_text" + COLUMNS,
          "CREATE TABLE by_values" + COLUMNS,
          "CREATE TABLE in_place" + COLUMNS);
      PostgresDialect pg = new PostgresDialect();
      TableMeta meta = pg.describe(c, new TableName(s.name(), "by_text"));
      assertThat(CopyBinaryEncoder.supports(meta)).isTrue();
      List<String> names = meta.columns().stream().map(ColumnMeta::name).toList();

      Random r = new Random(21);
      CopyTextEncoder text = new CopyTextEncoder(64);
      CopyBinaryEncoder values = new CopyBinaryEncoder(meta.columns(), 64);
      CopyBinaryEncoder inPlace = new CopyBinaryEncoder(meta.columns(), 64);
      PackedEncoder packer = new PackedEncoder();
      PackedRowReader reader = new PackedRowReader();
      int[] identity = new int[names.size()];
      for (int k = 0; k < identity.length; k++) {
        identity[k] = k;
      }
      for (int i = 0; i < ROWS; i++) {
        Value[] row = row(r);
        text.row(row);
        values.row(row);
        List<Column> image = new ArrayList<>();
        for (int k = 0; k < row.length; k++) {
          image.add(new Column(names.get(k), row[k]));
        }
        byte[] packed =
            packer.encode(
                new LtlCommand.Insert(
                    TranId.ofLong(1),
                    Oqid.ofLong(i + 1, 8),
                    new TableName("s", "t"),
                    false,
                    image));
        reader.reset(packed, 0, packed.length).next();
        inPlace.row(reader.after(), identity);
      }
      c.setAutoCommit(false);
      load(pg, c, s.name(), "by_text", names, text);
      load(pg, c, s.name(), "by_values", names, values);
      load(pg, c, s.name(), "in_place", names, inPlace);
      c.commit();

      assertThat(count(c, "SELECT count(*) FROM by_values")).isEqualTo(ROWS);
      for (String t : List.of("by_values", "in_place")) {
        assertThat(difference(c, t, "by_text")).as("%s rows not in by_text", t).isZero();
        assertThat(difference(c, "by_text", t)).as("by_text rows not in %s", t).isZero();
      }
    }
  }

  @Test
  void aValueOfAnotherKindThanItsColumnIsRefusedAndNothingIsWritten() {
    List<ColumnMeta> cols =
        List.of(new ColumnMeta("id", "int4", false), new ColumnMeta("at", "timestamptz", true));
    CopyBinaryEncoder enc = new CopyBinaryEncoder(cols, 16);
    enc.row(new Value[] {new Value.Int32(1), Value.NULL});
    int before = enc.length();
    assertThatThrownBy(() -> enc.row(new Value[] {new Value.Text("2"), Value.NULL}))
        .isInstanceOf(RowStream.Unencodable.class)
        .hasMessageContaining("column id (int4)")
        .hasMessageContaining("Text");
    assertThatThrownBy(
            () ->
                enc.row(
                    new Value[] {
                      new Value.Int32(3), new Value.Timestamp(LocalDateTime.of(2026, 1, 1, 0, 0))
                    }))
        .isInstanceOf(RowStream.Unencodable.class)
        .hasMessageContaining("column at (timestamptz)");
    assertThatThrownBy(() -> enc.row(new Value[] {new Value.Int64(1L << 40), Value.NULL}))
        .isInstanceOf(RowStream.Unencodable.class)
        .hasMessageContaining("out of the range of int4");
    assertThat(enc.length()).isEqualTo(before);
  }

  private static void load(
      PostgresDialect pg,
      Connection c,
      String schema,
      String table,
      List<String> columns,
      RowStream.Encoder rows)
      throws Exception {
    RowStream stream =
        pg.openRowStream(c, pg.qualified(new TableName(schema, table)), columns, rows)
            .orElseThrow();
    stream.write(rows.array(), 0, rows.length());
    assertThat(stream.end()).as("rows loaded into %s", table).isEqualTo(ROWS);
  }

  private static long difference(Connection c, String a, String b) throws Exception {
    return count(
        c,
        "SELECT count(*) FROM (SELECT x::text FROM "
            + a
            + " x EXCEPT ALL SELECT y::text FROM "
            + b
            + " y) d");
  }

  private static long count(Connection c, String sql) throws Exception {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** A row of the table's columns, each value of its column's kind or NULL. */
  private static Value[] row(Random r) {
    return new Value[] {
      orNull(r, new Value.Int16((short) pick(r, Short.MIN_VALUE, Short.MAX_VALUE, r.nextInt()))),
      orNull(
          r,
          r.nextBoolean()
              ? new Value.Int32(pick(r, Integer.MIN_VALUE, Integer.MAX_VALUE, r.nextInt()))
              : new Value.Int16((short) r.nextInt())),
      orNull(r, new Value.Int64(r.nextInt(8) == 0 ? Long.MIN_VALUE : r.nextLong())),
      orNull(r, Value.Bool.of(r.nextBoolean())),
      orNull(r, new Value.Text(text(r, 200))),
      orNull(r, new Value.Text(text(r, 40))),
      orNull(r, new Value.Binary(bytes(r))),
      orNull(r, new Value.Float32(r.nextInt(6) == 0 ? Float.NaN : (float) r.nextGaussian() * 1e6f)),
      orNull(r, new Value.Float64(r.nextInt(6) == 0 ? -0.0 : r.nextGaussian() * 1e300)),
      orNull(r, new Value.Uuid(new UUID(r.nextLong(), r.nextLong()))),
      orNull(r, nonFiniteOr(r, Value.NonFinite.Domain.DATE, new Value.Date(date(r)))),
      orNull(
          r,
          nonFiniteOr(
              r,
              Value.NonFinite.Domain.TS,
              new Value.Timestamp(LocalDateTime.of(date(r), time(r))))),
      orNull(
          r,
          nonFiniteOr(
              r,
              Value.NonFinite.Domain.TSTZ,
              new Value.TimestampTz(
                  OffsetDateTime.of(
                      LocalDateTime.of(date(r), time(r)),
                      ZoneOffset.ofTotalSeconds((r.nextInt(49) - 24) * 1800))))),
      orNull(r, nonFiniteOr(r, Value.NonFinite.Domain.DEC, decimal(r, true))),
      orNull(r, decimal(r, false)),
      orNull(r, r.nextBoolean() ? new Value.Int64(r.nextLong()) : new Value.Int32(r.nextInt())),
    };
  }

  /** Now and then NaN (decimals) or an infinity of {@code domain} instead of {@code v}. */
  private static Value nonFiniteOr(Random r, Value.NonFinite.Domain domain, Value v) {
    if (r.nextInt(12) != 0) {
      return v;
    }
    Value.NonFinite.Bound[] bounds = Value.NonFinite.Bound.values();
    Value.NonFinite.Bound b = bounds[r.nextInt(bounds.length)];
    if (b == Value.NonFinite.Bound.NAN && domain != Value.NonFinite.Domain.DEC) {
      b = Value.NonFinite.Bound.POSITIVE_INFINITY;
    }
    return new Value.NonFinite(domain, b);
  }

  private static Value orNull(Random r, Value v) {
    return r.nextInt(10) == 0 ? Value.NULL : v;
  }

  private static int pick(Random r, int min, int max, int any) {
    return switch (r.nextInt(4)) {
      case 0 -> min;
      case 1 -> max;
      case 2 -> 0;
      default -> any;
    };
  }

  /** Small and large, positive and negative, scales -3 to 20; huge ones for the open column. */
  private static Value decimal(Random r, boolean unbounded) {
    BigInteger unscaled =
        switch (r.nextInt(6)) {
          case 0 -> BigInteger.ZERO;
          case 1 -> BigInteger.valueOf(r.nextInt(20_001) - 10_000);
          case 2 -> BigInteger.valueOf(r.nextLong());
          case 3 -> BigInteger.valueOf(r.nextBoolean() ? Long.MAX_VALUE : Long.MIN_VALUE);
          case 4 -> BigInteger.valueOf(r.nextLong() / 1000);
          default ->
              unbounded
                  ? new BigInteger(200, r).subtract(BigInteger.ONE.shiftLeft(199))
                  : BigInteger.valueOf(r.nextInt());
        };
    int scale = unbounded ? r.nextInt(24) - 3 : r.nextInt(13) - 3;
    return new Value.Decimal(new BigDecimal(unscaled, scale));
  }

  private static final String CHARS = "aZ09 \\\t\n\r'\"é表😀,;|\u0001";

  private static String text(Random r, int max) {
    StringBuilder sb = new StringBuilder();
    for (int i = r.nextInt(max / 2); i > 0; i--) {
      int at = CHARS.offsetByCodePoints(0, r.nextInt(CHARS.codePointCount(0, CHARS.length())));
      sb.appendCodePoint(CHARS.codePointAt(at));
    }
    return sb.toString();
  }

  private static byte[] bytes(Random r) {
    byte[] b = new byte[r.nextInt(40)];
    r.nextBytes(b);
    return b;
  }

  private static LocalDate date(Random r) {
    int[] years = {1, 0, -44, -4712, 1970, 1999, 2000, 2026, 9999, 10_000, 123_456};
    return LocalDate.of(years[r.nextInt(years.length)], 1 + r.nextInt(12), 1 + r.nextInt(28));
  }

  private static LocalTime time(Random r) {
    return switch (r.nextInt(3)) {
      case 0 -> LocalTime.of(r.nextInt(24), r.nextInt(60), r.nextInt(60));
      case 1 -> LocalTime.MIDNIGHT;
      default -> LocalTime.ofNanoOfDay(r.nextLong(86_400_000_000L) * 1000);
    };
  }
}
