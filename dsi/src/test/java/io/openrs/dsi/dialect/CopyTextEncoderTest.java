package io.openrs.dsi.dialect;

import static org.assertj.core.api.Assertions.assertThat;

import io.openrs.ltl.Column;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TableName;
import io.openrs.ltl.TranId;
import io.openrs.ltl.Value;
import io.openrs.ltl.packed.PackedEncoder;
import io.openrs.ltl.packed.PackedRowReader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
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

/** The byte encoder HVAR's COPY uses writes exactly what the continuous bulk path writes. */
class CopyTextEncoderTest {

  @Test
  void everyValueKindEncodesAsTheContinuousBulkPathDoes() {
    Random r = new Random(11);
    for (int i = 0; i < 20_000; i++) {
      Value[] row = {value(r), value(r), value(r)};
      CopyTextEncoder enc = new CopyTextEncoder(4);
      enc.row(row);
      StringBuilder sb = new StringBuilder();
      for (int k = 0; k < row.length; k++) {
        if (k > 0) {
          sb.append('\t');
        }
        PostgresDialect.appendCopyValue(sb, row[k]);
      }
      sb.append('\n');
      assertThat(new String(enc.array(), 0, enc.length(), StandardCharsets.UTF_8))
          .as("row %s", List.of(row))
          .isEqualTo(sb.toString());
    }
  }

  @Test
  void rowsReadInPlaceEncodeAsTheirValuesDo() throws Exception {
    Random r = new Random(12);
    PackedEncoder packer = new PackedEncoder();
    PackedRowReader reader = new PackedRowReader();
    for (int i = 0; i < 20_000; i++) {
      Value[] row = new Value[4];
      for (int k = 0; k < row.length; k++) {
        row[k] = r.nextInt(3) == 0 ? decimal(r) : value(r);
      }
      // the image lists the columns in another order; the encoder takes the table's
      List<Integer> order = new ArrayList<>(List.of(0, 1, 2, 3));
      java.util.Collections.shuffle(order, r);
      List<Column> image = new ArrayList<>();
      int[] columns = new int[row.length];
      for (int at = 0; at < order.size(); at++) {
        image.add(new Column("c" + order.get(at), row[order.get(at)]));
        columns[order.get(at)] = at;
      }
      byte[] packed =
          packer.encode(
              new LtlCommand.Insert(
                  TranId.ofLong(1), Oqid.ofLong(i + 1, 8), new TableName("s", "t"), false, image));
      reader.reset(packed, 0, packed.length).next();
      CopyTextEncoder flat = new CopyTextEncoder(4);
      flat.row(reader.after(), columns);
      CopyTextEncoder values = new CopyTextEncoder(4);
      values.row(row);
      assertThat(new String(flat.array(), 0, flat.length(), StandardCharsets.UTF_8))
          .as("row %s", List.of(row))
          .isEqualTo(new String(values.array(), 0, values.length(), StandardCharsets.UTF_8));
    }
  }

  /** Decimals around the edges of plain notation: scales -3 to 20, a few digits or many. */
  private static Value decimal(Random r) {
    long unscaled =
        switch (r.nextInt(4)) {
          case 0 -> 0;
          case 1 -> r.nextInt(2000) - 1000;
          case 2 -> r.nextLong();
          default -> r.nextBoolean() ? Long.MAX_VALUE : Long.MIN_VALUE + r.nextInt(2);
        };
    return new Value.Decimal(BigDecimal.valueOf(unscaled, r.nextInt(24) - 3));
  }

  private static final String CHARS = "aZ09 \\\t\n\r'\"é表😀\u0001";

  private static Value value(Random r) {
    switch (r.nextInt(14)) {
      case 0:
        return Value.NULL;
      case 1:
        return new Value.Int32(r.nextInt());
      case 2:
        return new Value.Int64(r.nextInt(10) == 0 ? Long.MIN_VALUE : r.nextLong());
      case 3:
        return new Value.Int16((short) r.nextInt());
      case 4:
        return Value.Bool.of(r.nextBoolean());
      case 5:
        return new Value.Decimal(BigDecimal.valueOf(r.nextLong(), r.nextInt(12) - 3));
      case 6:
        {
          StringBuilder sb = new StringBuilder();
          for (int i = r.nextInt(20); i > 0; i--) {
            int at =
                CHARS.offsetByCodePoints(0, r.nextInt(CHARS.codePointCount(0, CHARS.length())));
            sb.appendCodePoint(CHARS.codePointAt(at));
          }
          return new Value.Text(sb.toString());
        }
      case 7:
        return new Value.Timestamp(LocalDateTime.of(date(r), time(r)));
      case 8:
        return new Value.Date(date(r));
      case 9:
        return new Value.Time(time(r));
      case 10:
        return new Value.TimestampTz(
            OffsetDateTime.of(
                LocalDateTime.of(date(r), time(r)), ZoneOffset.ofHours(r.nextInt(25) - 12)));
      case 11:
        return new Value.Float64(r.nextInt(5) == 0 ? Double.NaN : r.nextGaussian() * 1e10);
      case 12:
        return new Value.Uuid(new UUID(r.nextLong(), r.nextLong()));
      default:
        byte[] b = new byte[r.nextInt(8)];
        r.nextBytes(b);
        return new Value.Binary(b);
    }
  }

  private static LocalDate date(Random r) {
    int[] years = {1, 0, -44, 1999, 2026, 9999, 10_000, 123_456};
    return LocalDate.of(years[r.nextInt(years.length)], 1 + r.nextInt(12), 1 + r.nextInt(28));
  }

  private static LocalTime time(Random r) {
    return r.nextBoolean()
        ? LocalTime.of(r.nextInt(24), r.nextInt(60), r.nextInt(60))
        : LocalTime.ofNanoOfDay(r.nextLong(86_400_000_000L) * 1000);
  }

  @Test
  void theBufferGrowsForLongRows() {
    CopyTextEncoder enc = new CopyTextEncoder(1);
    List<Value> big = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      big.add(new Value.Text("x".repeat(1000)));
    }
    enc.row(big.toArray(Value[]::new));
    assertThat(enc.length()).isEqualTo(100 * 1000 + 99 + 1);
  }
}
