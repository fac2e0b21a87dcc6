package io.openrs.ltl.packed;

import static io.openrs.ltl.packed.PackedFormat.*;

import io.openrs.ltl.ByteBuilder;
import io.openrs.ltl.Column;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TableName;
import io.openrs.ltl.TranId;
import io.openrs.ltl.Value;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Optional;

/**
 * Encodes commands in the packed form drawn in {@link PackedFormat}. Not thread-safe (keeps a
 * scratch buffer); each thread owns one encoder.
 */
public final class PackedEncoder {

  private final ByteBuilder body = new ByteBuilder(512);

  /** The packed bytes of {@code command}. */
  public byte[] encode(LtlCommand command) {
    ByteBuilder out = new ByteBuilder(body.size() + 16);
    encode(command, out);
    return out.toByteArray();
  }

  /**
   * Appends the packed bytes of {@code command} to {@code out}.
   *
   * @throws IllegalArgumentException when a string holds a lone surrogate (not Unicode)
   */
  public void encode(LtlCommand command, ByteBuilder out) {
    body.reset();
    int kind = body(command);
    out.append((byte) CURRENT_VERSION).append((byte) kind).appendVarLong(body.size());
    out.append(body.array(), 0, body.size());
  }

  private int body(LtlCommand command) {
    if (command instanceof LtlCommand.Insert c) {
      header(c.tran(), c.oqid());
      table(c.table());
      body.append((byte) (c.snapshot() ? FLAG_PRESENT : 0));
      image(c.after());
      return KIND_INSERT;
    } else if (command instanceof LtlCommand.Update c) {
      header(c.tran(), c.oqid());
      table(c.table());
      image(c.before());
      image(c.after());
      return KIND_UPDATE;
    } else if (command instanceof LtlCommand.Delete c) {
      header(c.tran(), c.oqid());
      table(c.table());
      image(c.before());
      return KIND_DELETE;
    } else if (command instanceof LtlCommand.Begin c) {
      header(c.tran(), c.oqid());
      instant(c.time());
      optional(c.user());
      return KIND_BEGIN;
    } else if (command instanceof LtlCommand.Commit c) {
      header(c.tran(), c.oqid());
      instant(c.time());
      return KIND_COMMIT;
    } else if (command instanceof LtlCommand.Rollback c) {
      header(c.tran(), c.oqid());
      return KIND_ROLLBACK;
    } else if (command instanceof LtlCommand.Truncate c) {
      header(c.tran(), c.oqid());
      table(c.table());
      return KIND_TRUNCATE;
    } else if (command instanceof LtlCommand.Ddl c) {
      header(c.tran(), c.oqid());
      optional(c.schema());
      string(c.statement());
      return KIND_DDL;
    } else if (command instanceof LtlCommand.Ticket c) {
      header(c.tran(), c.oqid());
      instant(c.time());
      body.appendVarLong(c.headers().size());
      for (String h : c.headers()) {
        string(h);
      }
      return KIND_TICKET;
    } else if (command instanceof LtlCommand.Connect c) {
      string(c.originServer());
      string(c.originDatabase());
      body.appendVarLong(c.minVersion()).appendVarLong(c.maxVersion());
      string(c.user());
      optional(c.password());
      optional(c.agent());
      return KIND_CONNECT;
    } else if (command instanceof LtlCommand.Connected c) {
      body.appendVarLong(c.version());
      return KIND_CONNECTED;
    } else if (command instanceof LtlCommand.GetTruncation) {
      return KIND_GET_TRUNCATION;
    } else if (command instanceof LtlCommand.Truncation c) {
      if (c.oqid().isPresent()) {
        body.append((byte) FLAG_PRESENT);
        oqid(c.oqid().get());
      } else {
        body.append((byte) 0);
      }
      return KIND_TRUNCATION;
    }
    throw new IllegalStateException("unknown command " + command);
  }

  private void header(TranId tran, Oqid oqid) {
    body.appendVarLong(tran.length());
    for (int i = 0; i < tran.length(); i++) {
      body.append(tran.byteAt(i));
    }
    oqid(oqid);
  }

  private void oqid(Oqid oqid) {
    body.appendVarLong(oqid.length());
    for (int i = 0; i < oqid.length(); i++) {
      body.append(oqid.byteAt(i));
    }
  }

  private void instant(Instant t) {
    body.appendZigZag(t.getEpochSecond()).appendVarLong(t.getNano() / 1000);
  }

  private void optional(Optional<String> s) {
    if (s.isPresent()) {
      body.append((byte) FLAG_PRESENT);
      string(s.get());
    } else {
      body.append((byte) 0);
    }
  }

  private void table(TableName t) {
    string(t.schema());
    string(t.table());
  }

  private void string(String s) {
    if (isAscii(s)) {
      body.appendVarLong(s.length());
      body.appendAscii(s);
      return;
    }
    checkUnicode(s);
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    body.appendVarLong(utf8.length).append(utf8);
  }

  private static boolean isAscii(String s) {
    for (int i = 0, n = s.length(); i < n; i++) {
      if (s.charAt(i) >= 0x80) {
        return false;
      }
    }
    return true;
  }

  private static void checkUnicode(String s) {
    for (int i = 0, n = s.length(); i < n; i++) {
      char ch = s.charAt(i);
      if (Character.isHighSurrogate(ch) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(ch)) {
        throw new IllegalArgumentException(
            "lone surrogate U+"
                + Integer.toHexString(ch)
                + " at index "
                + i
                + " is not Unicode text");
      }
    }
  }

  private void image(List<Column> columns) {
    body.appendVarLong(columns.size());
    for (int i = 0, n = columns.size(); i < n; i++) {
      Column c = columns.get(i);
      string(c.name());
      value(c.value());
    }
  }

  private void value(Value value) {
    if (value instanceof Value.Int32 v) {
      body.append((byte) TAG_I32).appendZigZag(v.value());
    } else if (value instanceof Value.Text v) {
      body.append((byte) TAG_TEXT);
      string(v.value());
    } else if (value instanceof Value.Decimal v) {
      decimal(v.value());
    } else if (value instanceof Value.Int64 v) {
      body.append((byte) TAG_I64).appendZigZag(v.value());
    } else if (value instanceof Value.Timestamp v) {
      body.append((byte) TAG_TS);
      localDateTime(v.value());
    } else if (value instanceof Value.Null) {
      body.append((byte) TAG_NULL);
    } else if (value instanceof Value.Unchanged) {
      body.append((byte) TAG_UNCHANGED);
    } else if (value instanceof Value.Bool v) {
      body.append((byte) (v.value() ? TAG_TRUE : TAG_FALSE));
    } else if (value instanceof Value.Int16 v) {
      body.append((byte) TAG_I16).appendZigZag(v.value());
    } else if (value instanceof Value.Float32 v) {
      body.append((byte) TAG_F32).appendIntBigEndian(Float.floatToRawIntBits(v.value()));
    } else if (value instanceof Value.Float64 v) {
      body.append((byte) TAG_F64).appendLongBigEndian(Double.doubleToRawLongBits(v.value()));
    } else if (value instanceof Value.Binary v) {
      body.append((byte) TAG_BINARY).appendVarLong(v.length());
      body.ensureSpare(v.length());
      for (int i = 0; i < v.length(); i++) {
        body.append(v.byteAt(i));
      }
    } else if (value instanceof Value.Date v) {
      body.append((byte) TAG_DATE).appendZigZag(v.value().toEpochDay());
    } else if (value instanceof Value.Time v) {
      body.append((byte) TAG_TIME).appendVarLong(v.value().toNanoOfDay() / 1000);
    } else if (value instanceof Value.TimestampTz v) {
      body.append((byte) TAG_TSTZ);
      localDateTime(v.value().toLocalDateTime());
      body.appendZigZag(v.value().getOffset().getTotalSeconds());
    } else if (value instanceof Value.Uuid v) {
      body.append((byte) TAG_UUID)
          .appendLongBigEndian(v.value().getMostSignificantBits())
          .appendLongBigEndian(v.value().getLeastSignificantBits());
    } else if (value instanceof Value.Json v) {
      body.append((byte) TAG_JSON);
      string(v.value());
    } else if (value instanceof Value.NonFinite v) {
      body.append((byte) TAG_NON_FINITE).append((byte) domainByte(v)).append((byte) boundByte(v));
    } else if (value instanceof Value.Native v) {
      body.append((byte) TAG_NATIVE);
      string(v.dialect());
      string(v.type());
      string(v.text());
    } else {
      throw new IllegalStateException("unknown value " + value);
    }
  }

  private void localDateTime(LocalDateTime t) {
    body.appendZigZag(t.toLocalDate().toEpochDay())
        .appendVarLong(t.toLocalTime().toNanoOfDay() / 1000);
  }

  private void decimal(BigDecimal d) {
    BigInteger unscaled = d.unscaledValue();
    if (unscaled.bitLength() < 64) {
      body.append((byte) TAG_DEC_SMALL).appendZigZag(d.scale()).appendZigZag(unscaled.longValue());
    } else {
      byte[] bytes = unscaled.toByteArray();
      body.append((byte) TAG_DEC_BIG)
          .appendZigZag(d.scale())
          .appendVarLong(bytes.length)
          .append(bytes);
    }
  }
}
