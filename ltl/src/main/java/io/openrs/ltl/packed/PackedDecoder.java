package io.openrs.ltl.packed;

import static io.openrs.ltl.packed.PackedFormat.*;

import io.openrs.ltl.Column;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TableName;
import io.openrs.ltl.TranId;
import io.openrs.ltl.Value;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * Decodes the packed form drawn in {@link PackedFormat}. Trusts no length: every length is checked
 * against the bytes that remain before anything is allocated, and every failure is a {@link
 * PackedFormatException} naming the offset. Not thread-safe; each thread owns one decoder.
 */
public final class PackedDecoder extends PackedInput {
  private final CharsetDecoder utf8 =
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT);

  /**
   * Decodes one packed command filling all of {@code message}.
   *
   * @return the command, or empty when its kind is unknown to this version (skipped)
   */
  public Optional<LtlCommand> decode(byte[] message) throws PackedFormatException {
    return decode(message, 0, message.length);
  }

  /** Decodes one packed command filling exactly {@code buf[offset, offset+length)}. */
  public Optional<LtlCommand> decode(byte[] buf, int offset, int length)
      throws PackedFormatException {
    List<LtlCommand> one = new ArrayList<>(1);
    int unknown = decodeAll(buf, offset, length, one::add);
    if (one.size() + unknown != 1) {
      throw new PackedFormatException(
          0, "expected exactly one command, found " + (one.size() + unknown));
    }
    return one.isEmpty() ? Optional.empty() : Optional.of(one.get(0));
  }

  /**
   * The head of the row change filling all of {@code message} (its frame, transaction, OQID, table
   * and snapshot flag), or empty when the message holds another kind of command. The row images are
   * not read: the frame's body length bounds them, but their contents are checked only when the
   * command is decoded.
   */
  public Optional<PackedRowHead> rowHead(byte[] message) throws PackedFormatException {
    this.buf = message;
    this.base = 0;
    this.pos = 0;
    int kind = commandHeader(message.length);
    if (end != message.length) {
      throw error(end, (message.length - end) + " bytes after the command");
    }
    PackedRowReader.Kind rowKind =
        switch (kind) {
          case KIND_INSERT -> PackedRowReader.Kind.INSERT;
          case KIND_UPDATE -> PackedRowReader.Kind.UPDATE;
          case KIND_DELETE -> PackedRowReader.Kind.DELETE;
          default -> null;
        };
    if (rowKind == null) {
      return Optional.empty();
    }
    try {
      TranId t = tran();
      Oqid o = oqid();
      TableName table = table();
      boolean snapshot = rowKind == PackedRowReader.Kind.INSERT && flags() != 0;
      return Optional.of(new PackedRowHead(rowKind, t, o, table, snapshot));
    } catch (IllegalArgumentException e) {
      throw error(pos, "invalid " + kindName(kind) + ": " + e.getMessage());
    }
  }

  /**
   * Decodes consecutive packed commands in {@code buf[offset, offset+length)}, handing each to
   * {@code sink}; commands of unknown kind are skipped by their length.
   *
   * @return how many commands of unknown kind were skipped
   */
  public int decodeAll(byte[] buf, int offset, int length, Consumer<? super LtlCommand> sink)
      throws PackedFormatException {
    if (offset < 0 || length < 0 || offset + length > buf.length) {
      throw new PackedFormatException(
          offset, "range " + offset + "+" + length + " outside buffer of " + buf.length);
    }
    this.buf = buf;
    this.base = offset;
    this.pos = offset;
    int limit = offset + length;
    int skipped = 0;
    while (pos < limit) {
      int kind = commandHeader(limit);
      int bodyEnd = end;
      LtlCommand command = body(kind);
      if (command == null) {
        skipped++;
        pos = bodyEnd;
        continue;
      }
      if (pos != bodyEnd) {
        throw error(
            pos, (bodyEnd - pos) + " unread bytes at the end of a " + kindName(kind) + " body");
      }
      sink.accept(command);
    }
    return skipped;
  }

  private LtlCommand body(int kind) throws PackedFormatException {
    try {
      return switch (kind) {
        case KIND_INSERT -> {
          TranId t = tran();
          Oqid o = oqid();
          TableName table = table();
          boolean snapshot = flags() != 0;
          yield new LtlCommand.Insert(t, o, table, snapshot, image());
        }
        case KIND_UPDATE -> {
          TranId t = tran();
          Oqid o = oqid();
          TableName table = table();
          List<Column> before = image();
          yield new LtlCommand.Update(t, o, table, before, image());
        }
        case KIND_DELETE -> {
          TranId t = tran();
          Oqid o = oqid();
          yield new LtlCommand.Delete(t, o, table(), image());
        }
        case KIND_BEGIN -> {
          TranId t = tran();
          Oqid o = oqid();
          Instant time = instant();
          yield new LtlCommand.Begin(t, o, time, optionalString());
        }
        case KIND_COMMIT -> {
          TranId t = tran();
          yield new LtlCommand.Commit(t, oqid(), instant());
        }
        case KIND_ROLLBACK -> {
          TranId t = tran();
          yield new LtlCommand.Rollback(t, oqid());
        }
        case KIND_TRUNCATE -> {
          TranId t = tran();
          Oqid o = oqid();
          yield new LtlCommand.Truncate(t, o, table());
        }
        case KIND_DDL -> {
          TranId t = tran();
          Oqid o = oqid();
          Optional<String> schema = optionalString();
          yield new LtlCommand.Ddl(t, o, schema, string());
        }
        case KIND_TICKET -> {
          TranId t = tran();
          Oqid o = oqid();
          Instant time = instant();
          int n = count(1);
          List<String> headers = new ArrayList<>(n);
          for (int i = 0; i < n; i++) {
            headers.add(string());
          }
          yield new LtlCommand.Ticket(t, o, time, headers);
        }
        case KIND_CONNECT -> {
          String server = string();
          String database = string();
          int min = smallInt("min version");
          int max = smallInt("max version");
          String user = string();
          Optional<String> password = optionalString();
          yield new LtlCommand.Connect(
              server, database, min, max, user, password, optionalString());
        }
        case KIND_CONNECTED -> new LtlCommand.Connected(smallInt("version"));
        case KIND_GET_TRUNCATION -> new LtlCommand.GetTruncation();
        case KIND_TRUNCATION ->
            new LtlCommand.Truncation(flags() != 0 ? Optional.of(oqid()) : Optional.empty());
        default -> null;
      };
    } catch (IllegalArgumentException | DateTimeException | ArithmeticException e) {
      throw error(pos, "invalid " + kindName(kind) + ": " + e.getMessage());
    }
  }

  private static String kindName(int kind) {
    return switch (kind) {
      case KIND_INSERT -> "insert";
      case KIND_UPDATE -> "update";
      case KIND_DELETE -> "delete";
      case KIND_BEGIN -> "begin";
      case KIND_COMMIT -> "commit";
      case KIND_ROLLBACK -> "rollback";
      case KIND_TRUNCATE -> "truncate";
      case KIND_DDL -> "ddl";
      case KIND_TICKET -> "ticket";
      case KIND_CONNECT -> "connect";
      case KIND_CONNECTED -> "connected";
      case KIND_GET_TRUNCATION -> "get truncation";
      case KIND_TRUNCATION -> "truncation";
      default -> "kind " + kind;
    };
  }

  // ---- primitives of its own (the shared ones are in PackedInput)

  private int smallInt(String what) throws PackedFormatException {
    int at = pos;
    long v = varLong();
    if (v < 0 || v > Integer.MAX_VALUE) {
      throw error(at, what + " " + v + " out of range");
    }
    return (int) v;
  }

  private byte[] bytes(int max, String what) throws PackedFormatException {
    int at = pos;
    long n = varLong();
    if (n < 0 || n > max || n > end - pos) {
      throw error(at, what + " length " + n + " exceeds " + Math.min(max, end - pos) + " bytes");
    }
    byte[] out = Arrays.copyOfRange(buf, pos, pos + (int) n);
    pos += (int) n;
    return out;
  }

  private String string() throws PackedFormatException {
    int at = pos;
    long n = varLong();
    if (n < 0 || n > end - pos) {
      throw error(at, "string length " + n + " exceeds the " + (end - pos) + " bytes left");
    }
    int len = (int) n;
    int start = pos;
    boolean ascii = true;
    for (int i = start; i < start + len; i++) {
      if (buf[i] < 0) {
        ascii = false;
        break;
      }
    }
    pos += len;
    if (ascii) {
      return new String(buf, start, len, StandardCharsets.ISO_8859_1);
    }
    try {
      CharBuffer chars = utf8.decode(ByteBuffer.wrap(buf, start, len));
      return chars.toString();
    } catch (CharacterCodingException e) {
      throw error(start, "a string that is not well-formed UTF-8");
    }
  }

  private Optional<String> optionalString() throws PackedFormatException {
    return flags() != 0 ? Optional.of(string()) : Optional.empty();
  }

  private TranId tran() throws PackedFormatException {
    return TranId.of(bytes(TranId.MAX_BYTES, "transaction id"));
  }

  private Oqid oqid() throws PackedFormatException {
    return Oqid.of(bytes(Oqid.MAX_BYTES, "OQID"));
  }

  private Instant instant() throws PackedFormatException {
    long seconds = zigZag();
    long micros = varLong();
    if (micros < 0 || micros >= 1_000_000) {
      throw error(pos, "microseconds " + micros + " >= 1 second");
    }
    return Instant.ofEpochSecond(seconds, micros * 1000);
  }

  private TableName table() throws PackedFormatException {
    String schema = string();
    return new TableName(schema, string());
  }

  private List<Column> image() throws PackedFormatException {
    int n = count(2);
    Column[] columns = new Column[n];
    for (int i = 0; i < n; i++) {
      String name = string();
      columns[i] = new Column(name, value());
    }
    return List.of(columns);
  }

  private Value value() throws PackedFormatException {
    int at = pos;
    int tag = valueTag();
    return switch (tag) {
      case TAG_NULL -> Value.NULL;
      case TAG_UNCHANGED -> Value.UNCHANGED;
      case TAG_FALSE -> Value.Bool.FALSE;
      case TAG_TRUE -> Value.Bool.TRUE;
      case TAG_I16 -> new Value.Int16((short) ranged(Short.MIN_VALUE, Short.MAX_VALUE));
      case TAG_I32 -> new Value.Int32((int) ranged(Integer.MIN_VALUE, Integer.MAX_VALUE));
      case TAG_I64 -> new Value.Int64(zigZag());
      case TAG_DEC_SMALL -> {
        int scale = (int) ranged(Integer.MIN_VALUE, Integer.MAX_VALUE);
        yield new Value.Decimal(BigDecimal.valueOf(zigZag(), scale));
      }
      case TAG_DEC_BIG -> {
        int scale = (int) ranged(Integer.MIN_VALUE, Integer.MAX_VALUE);
        byte[] unscaled = bytes(Integer.MAX_VALUE, "decimal");
        if (unscaled.length == 0) {
          throw error(at, "a big decimal with no digits");
        }
        yield new Value.Decimal(new BigDecimal(new BigInteger(unscaled), scale));
      }
      case TAG_F32 -> {
        need(4, "an f32");
        int bits = ByteBuffer.wrap(buf, pos, 4).getInt();
        pos += 4;
        yield new Value.Float32(Float.intBitsToFloat(bits));
      }
      case TAG_F64 -> {
        need(8, "an f64");
        long bits = ByteBuffer.wrap(buf, pos, 8).getLong();
        pos += 8;
        yield new Value.Float64(Double.longBitsToDouble(bits));
      }
      case TAG_TEXT -> new Value.Text(string());
      case TAG_BINARY -> new Value.Binary(bytes(Integer.MAX_VALUE, "binary"));
      case TAG_DATE -> new Value.Date(LocalDate.ofEpochDay(zigZag()));
      case TAG_TIME -> new Value.Time(microsOfDay());
      case TAG_TS -> new Value.Timestamp(localDateTime());
      case TAG_TSTZ -> {
        LocalDateTime local = localDateTime();
        int offset = (int) ranged(-18 * 3600, 18 * 3600);
        yield new Value.TimestampTz(OffsetDateTime.of(local, ZoneOffset.ofTotalSeconds(offset)));
      }
      case TAG_UUID -> {
        need(16, "a uuid");
        ByteBuffer bb = ByteBuffer.wrap(buf, pos, 16);
        pos += 16;
        yield new Value.Uuid(new UUID(bb.getLong(), bb.getLong()));
      }
      case TAG_JSON -> new Value.Json(string());
      case TAG_NON_FINITE -> nonFinitePayload();
      case TAG_NATIVE -> nativeValue();
      default -> throw error(at, "unknown value tag " + tag);
    };
  }

  private Value.Native nativeValue() throws PackedFormatException {
    int at = pos;
    String dialect = string();
    if (!Value.Native.isDialectName(dialect)) {
      throw error(at, "native dialect " + quoteClipped(dialect) + " is not a lower-case word");
    }
    at = pos;
    String type = string();
    if (type.isEmpty()) {
      throw error(at, "native type is empty");
    }
    return new Value.Native(dialect, type, string());
  }

  private LocalTime microsOfDay() throws PackedFormatException {
    int at = pos;
    long micros = varLong();
    if (micros < 0 || micros >= MICROS_PER_DAY) {
      throw error(at, "microseconds of day " + micros + " >= one day");
    }
    return LocalTime.ofNanoOfDay(micros * 1000);
  }

  private LocalDateTime localDateTime() throws PackedFormatException {
    LocalDate date = LocalDate.ofEpochDay(zigZag());
    return LocalDateTime.of(date, microsOfDay());
  }
}
