package io.openrs.ltl.packed;

import static io.openrs.ltl.packed.PackedFormat.*;

import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.TableName;
import io.openrs.ltl.TranId;
import io.openrs.ltl.Value;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoField;
import java.util.Arrays;
import java.util.Optional;
import java.util.UUID;

/**
 * Reads the row commands (insert, update, delete) of packed commands ({@link PackedFormat}) in
 * place, without building a command: a row image is a flat view of the packed bytes, column by
 * column, with its name, its {@link Type} and its value as primitives (integers, a decimal's
 * unscaled value and scale, a timestamp's epoch day and microseconds of day) or as a slice of the
 * packed bytes (text, binary). {@link Image#value} builds the {@link Value} on demand, equal to the
 * one {@link PackedDecoder} gives. Column, schema and table names are shared: a name read again
 * returns the same {@code String} instance (from a bounded cache), and consecutive commands on one
 * table the same {@link TableName}, so a reader of many rows of a few tables makes no object per
 * column. Other kinds of command are not read here: {@link #command()} decodes the current command
 * whole with a {@link PackedDecoder}.
 *
 * <p>{@link #next()} checks a row command as {@link PackedDecoder} does (every length against the
 * bytes left, every value's range, UTF-8 well-formed, names and images not empty): it accepts
 * exactly the row commands {@code PackedDecoder} decodes and fails with a {@link
 * PackedFormatException} on the others. The images belong to the reader and change at each {@link
 * #next()}.
 *
 * <p>Not thread-safe; each thread owns one reader.
 */
public final class PackedRowReader extends PackedInput {

  /** What the current command is. */
  public enum Kind {
    INSERT,
    UPDATE,
    DELETE,
    /** Any other kind (known or not): {@link #command()} decodes it. */
    OTHER
  }

  /** The type of one value of an image; the ordinal is the packed tag. */
  public enum Type {
    NULL,
    UNCHANGED,
    FALSE,
    TRUE,
    I16,
    I32,
    I64,
    /**
     * A decimal whose unscaled value fits 64 bits: {@link Image#longValue}, {@link Image#scale}.
     */
    DECIMAL,
    /** A larger decimal: unscaled two's complement bytes at {@link Image#offset}, scale. */
    DECIMAL_BIG,
    F32,
    F64,
    TEXT,
    BINARY,
    DATE,
    TIME,
    TIMESTAMP,
    TIMESTAMP_TZ,
    UUID,
    JSON,
    /**
     * NaN or ±infinity of a decimal, date or timestamp (packed version 2 on): {@link Image#value}
     * gives a shared {@link Value.NonFinite} (nothing is made); a kind of its own, never a {@code
     * DECIMAL}, {@code DATE}, {@code TIMESTAMP} or {@code TIMESTAMP_TZ} with a marker value.
     */
    NON_FINITE,
    /**
     * A value in the source's own text form (packed version 2 on): {@link Image#nativeDialect},
     * {@link Image#nativeType} (shared strings) and the text's UTF-8 bytes at {@link Image#offset}.
     */
    NATIVE;

    private static final Type[] BY_TAG = values();
  }

  /** Names longer than this are not shared (a new string each time). */
  private static final int MAX_SHARED_NAME_BYTES = 128;

  private static final int NAME_SLOTS = 1024;

  /** Eight bytes at a time, to find the end of ASCII text quickly (the order does not matter). */
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private final PackedDecoder decoder = new PackedDecoder();
  private final byte[][] nameKeys = new byte[NAME_SLOTS][];
  private final String[] nameValues = new String[NAME_SLOTS];
  private final Image before = new Image(this);
  private final Image after = new Image(this);

  private int limit;

  private int commandStart;
  private int commandEnd;
  private Kind kind;
  private boolean skimmed; // the current command's frame only was read (skim())
  private boolean snapshot;
  private TableName table;
  private String tableSchema;
  private String tableName;
  private byte[] tableSchemaKey; // tableSchema's bytes, null if unknown
  private byte[] tableNameKey;
  private byte[] lastKey; // the key of the slot shared() used last

  /** Reads the packed commands in {@code buf[offset, offset+length)} from the first. */
  public PackedRowReader reset(byte[] buf, int offset, int length) throws PackedFormatException {
    if (offset < 0 || length < 0 || offset + length > buf.length) {
      throw new PackedFormatException(
          offset, "range " + offset + "+" + length + " outside buffer of " + buf.length);
    }
    this.buf = buf;
    this.base = offset;
    this.pos = offset;
    this.limit = offset + length;
    this.kind = null;
    before.size = 0;
    after.size = 0;
    return this;
  }

  /** True if the commands read so far end exactly at the end of the range. */
  public boolean atEnd() {
    return pos >= limit;
  }

  /**
   * Moves to the next command and, if it is a row command, reads and checks it whole.
   *
   * @return false at the end of the range
   */
  public boolean next() throws PackedFormatException {
    before.size = 0;
    after.size = 0;
    kind = null;
    skimmed = false;
    if (pos >= limit) {
      return false;
    }
    commandStart = pos;
    int k = commandHeader(limit);
    int bodyEnd = end;
    commandEnd = bodyEnd;
    switch (k) {
      case KIND_INSERT -> {
        kind = Kind.INSERT;
        tranAndOqid();
        readTable();
        snapshot = flags() != 0;
        image(after, "insert");
        if (after.size == 0) {
          throw error(pos, "invalid insert: an insert needs at least one column");
        }
      }
      case KIND_UPDATE -> {
        kind = Kind.UPDATE;
        tranAndOqid();
        readTable();
        snapshot = false;
        image(before, "update");
        image(after, "update");
        if (before.size == 0 || after.size == 0) {
          throw error(pos, "invalid update: an update needs a before and an after image");
        }
      }
      case KIND_DELETE -> {
        kind = Kind.DELETE;
        tranAndOqid();
        readTable();
        snapshot = false;
        image(before, "delete");
        if (before.size == 0) {
          throw error(pos, "invalid delete: a delete needs a before image");
        }
      }
      default -> {
        kind = Kind.OTHER;
        pos = bodyEnd;
      }
    }
    if (pos != bodyEnd) {
      throw error(pos, (bodyEnd - pos) + " unread bytes at the end of a " + kind + " body");
    }
    return true;
  }

  /**
   * Moves to the next command reading only its frame (version, kind, body length, checked against
   * the bytes left), not its body: the kind is known, the row is not read nor checked, and {@link
   * #table()}, {@link #before()} and {@link #after()} refuse until the next {@link #next()}. For a
   * reader that only sorts commands by kind and hands the bytes on to one that reads them with
   * {@link #next()} (HVAR's DSI-S and its compiler), so each row is read and checked once.
   *
   * @return false at the end of the range
   */
  public boolean skim() throws PackedFormatException {
    before.size = 0;
    after.size = 0;
    kind = null;
    if (pos >= limit) {
      return false;
    }
    commandStart = pos;
    int k = commandHeader(limit);
    commandEnd = end;
    pos = end;
    skimmed = true;
    kind =
        switch (k) {
          case KIND_INSERT -> Kind.INSERT;
          case KIND_UPDATE -> Kind.UPDATE;
          case KIND_DELETE -> Kind.DELETE;
          default -> Kind.OTHER;
        };
    return true;
  }

  /** The current command's kind. */
  public Kind kind() {
    requireCommand();
    return kind;
  }

  /**
   * The current command decoded whole ({@link PackedDecoder}); empty for a kind this version does
   * not know.
   */
  public Optional<LtlCommand> command() throws PackedFormatException {
    requireCommand();
    return decoder.decode(buf, commandStart, commandEnd - commandStart);
  }

  /** Where the current command starts in the buffer (its version byte). */
  public int commandOffset() {
    requireCommand();
    return commandStart;
  }

  /** Bytes of the current command, header included. */
  public int commandLength() {
    requireCommand();
    return commandEnd - commandStart;
  }

  /** The table of the current row command (the same instance as the last one's when equal). */
  public TableName table() {
    requireRow();
    return table;
  }

  /** The snapshot flag of the current insert (false for updates and deletes). */
  public boolean snapshot() {
    requireRow();
    return snapshot;
  }

  /** The before image of the current update or delete (empty for an insert). */
  public Image before() {
    requireRow();
    return before;
  }

  /** The after image of the current insert or update (empty for a delete). */
  public Image after() {
    requireRow();
    return after;
  }

  private void requireCommand() {
    if (kind == null) {
      throw new IllegalStateException("no current command: call next() first");
    }
  }

  private void requireRow() {
    requireCommand();
    if (kind == Kind.OTHER) {
      throw new IllegalStateException("the current command is not a row command");
    }
    if (skimmed) {
      throw new IllegalStateException("the current command was skimmed: call next() to read it");
    }
  }

  /**
   * One row image of the current command, column by column in the order the command lists them.
   * Owned by its reader; valid until the reader's next {@link PackedRowReader#next()}.
   */
  public static final class Image {
    private final PackedRowReader reader;
    private int size;
    private String[] names = new String[16];
    private byte[] types = new byte[16];
    private long[] first = new long[16];
    private long[] second = new long[16];
    private int[] third = new int[16];
    private int[] offsets = new int[16];
    private int[] lengths = new int[16];
    // per index, the name read there last and its bytes
    private byte[][] lastKeys = new byte[16][];
    private String[] lastNames = new String[16];
    // NATIVE columns: the dialect and type (shared strings); stale at other indices
    private String[] dialects = new String[16];
    private String[] nativeTypes = new String[16];

    private Image(PackedRowReader reader) {
      this.reader = reader;
    }

    /** Columns listed. */
    public int size() {
      return size;
    }

    /** The name of column {@code i} (shared: the same instance each time it is read). */
    public String name(int i) {
      check(i);
      return names[i];
    }

    public Type type(int i) {
      check(i);
      return Type.BY_TAG[types[i]];
    }

    /** True if column {@code i} is {@link Value#UNCHANGED} (value not provided). */
    public boolean unchanged(int i) {
      check(i);
      return types[i] == TAG_UNCHANGED;
    }

    /** True if column {@code i} is SQL NULL. */
    public boolean isNull(int i) {
      check(i);
      return types[i] == TAG_NULL;
    }

    /**
     * The value of column {@code i} as a long: {@code I16}, {@code I32}, {@code I64} the integer;
     * {@code DECIMAL} the unscaled value; {@code DATE}, {@code TIMESTAMP}, {@code TIMESTAMP_TZ} the
     * epoch day; {@code TIME} the microseconds of the day; {@code F32} and {@code F64} the IEEE
     * bits; {@code UUID} the most significant 64 bits; {@code TRUE} 1; {@code NON_FINITE} the
     * packed domain byte (0 dec, 1 date, 2 ts, 3 tstz); otherwise 0.
     */
    public long longValue(int i) {
      check(i);
      return first[i];
    }

    /**
     * {@code TIMESTAMP} and {@code TIMESTAMP_TZ}: the microseconds of the day; {@code UUID} the
     * least significant 64 bits; {@code NON_FINITE} the packed bound byte (0 NaN, 1 +infinity, 2
     * -infinity); {@code TEXT}, {@code JSON} and {@code NATIVE}: 1 if the text has a non-ASCII
     * byte, else 0 (see {@link #ascii}); otherwise 0.
     */
    public long micros(int i) {
      check(i);
      return second[i];
    }

    /** {@code DECIMAL} and {@code DECIMAL_BIG}: the scale; {@code TIMESTAMP_TZ} the offset in s. */
    public int scale(int i) {
      check(i);
      return third[i];
    }

    /**
     * {@code TEXT}, {@code JSON} and {@code NATIVE}'s text (well-formed UTF-8), {@code BINARY},
     * {@code DECIMAL_BIG} (unscaled, two's complement, big-endian): where the value's bytes start
     * in {@link #bytes()}.
     */
    public int offset(int i) {
      check(i);
      return offsets[i];
    }

    /** The length of the bytes at {@link #offset}. */
    public int length(int i) {
      check(i);
      return lengths[i];
    }

    /** The buffer the reader reads (not a copy: do not change it). */
    public byte[] bytes() {
      return reader.buf;
    }

    /**
     * True if column {@code i}'s text bytes are all ASCII ({@code TEXT}, {@code JSON}, {@code
     * NATIVE}).
     */
    public boolean ascii(int i) {
      check(i);
      return second[i] == 0;
    }

    /**
     * The dialect of {@code NATIVE} column {@code i} ({@code postgresql}; the same instance each
     * time it is read).
     *
     * @throws IllegalStateException if the column is of another type
     */
    public String nativeDialect(int i) {
      checkNative(i);
      return dialects[i];
    }

    /**
     * The source type name of {@code NATIVE} column {@code i} ({@code _int4}; the same instance
     * each time it is read, while it stays in the reader's bounded cache of names).
     *
     * @throws IllegalStateException if the column is of another type
     */
    public String nativeType(int i) {
      checkNative(i);
      return nativeTypes[i];
    }

    private void checkNative(int i) {
      check(i);
      if (types[i] != TAG_NATIVE) {
        throw new IllegalStateException(
            "column " + i + " is " + Type.BY_TAG[types[i]] + ", not NATIVE");
      }
    }

    /** The value of column {@code i}, equal to what {@link PackedDecoder} decodes. */
    public Value value(int i) {
      check(i);
      long a = first[i];
      return switch (types[i]) {
        case TAG_NULL -> Value.NULL;
        case TAG_UNCHANGED -> Value.UNCHANGED;
        case TAG_FALSE -> Value.Bool.FALSE;
        case TAG_TRUE -> Value.Bool.TRUE;
        case TAG_I16 -> new Value.Int16((short) a);
        case TAG_I32 -> new Value.Int32((int) a);
        case TAG_I64 -> new Value.Int64(a);
        case TAG_DEC_SMALL -> new Value.Decimal(BigDecimal.valueOf(a, third[i]));
        case TAG_DEC_BIG ->
            new Value.Decimal(
                new BigDecimal(new BigInteger(reader.buf, offsets[i], lengths[i]), third[i]));
        case TAG_F32 -> new Value.Float32(Float.intBitsToFloat((int) a));
        case TAG_F64 -> new Value.Float64(Double.longBitsToDouble(a));
        case TAG_TEXT -> new Value.Text(text(i));
        case TAG_BINARY ->
            new Value.Binary(Arrays.copyOfRange(reader.buf, offsets[i], offsets[i] + lengths[i]));
        case TAG_DATE -> new Value.Date(LocalDate.ofEpochDay(a));
        case TAG_TIME -> new Value.Time(LocalTime.ofNanoOfDay(a * 1000));
        case TAG_TS -> new Value.Timestamp(dateTime(a, second[i]));
        case TAG_TSTZ ->
            new Value.TimestampTz(
                OffsetDateTime.of(dateTime(a, second[i]), ZoneOffset.ofTotalSeconds(third[i])));
        case TAG_UUID -> new Value.Uuid(new UUID(a, second[i]));
        case TAG_JSON -> new Value.Json(text(i));
        case TAG_NON_FINITE -> PackedFormat.nonFinite((int) a, (int) second[i]);
        case TAG_NATIVE -> new Value.Native(dialects[i], nativeTypes[i], text(i));
        default -> throw new IllegalStateException("tag " + types[i]);
      };
    }

    private String text(int i) {
      return new String(
          reader.buf,
          offsets[i],
          lengths[i],
          second[i] == 0 ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8);
    }

    private static LocalDateTime dateTime(long epochDay, long micros) {
      return LocalDateTime.of(LocalDate.ofEpochDay(epochDay), LocalTime.ofNanoOfDay(micros * 1000));
    }

    private void check(int i) {
      if (i < 0 || i >= size) {
        throw new IndexOutOfBoundsException("column " + i + " of an image of " + size);
      }
    }

    private void ensure(int n) {
      if (n > names.length) {
        int c = Math.max(n, names.length * 2);
        names = Arrays.copyOf(names, c);
        types = Arrays.copyOf(types, c);
        first = Arrays.copyOf(first, c);
        second = Arrays.copyOf(second, c);
        third = Arrays.copyOf(third, c);
        offsets = Arrays.copyOf(offsets, c);
        lengths = Arrays.copyOf(lengths, c);
        lastKeys = Arrays.copyOf(lastKeys, c);
        lastNames = Arrays.copyOf(lastNames, c);
        dialects = Arrays.copyOf(dialects, c);
        nativeTypes = Arrays.copyOf(nativeTypes, c);
      }
    }
  }

  // ---- reading a row command -------------------------------------------------------------------

  private void tranAndOqid() throws PackedFormatException {
    skipId(TranId.MAX_BYTES, "transaction id");
    skipId(io.openrs.ltl.Oqid.MAX_BYTES, "OQID");
  }

  private void skipId(int max, String what) throws PackedFormatException {
    int at = pos;
    long n = varLong();
    if (n < 0 || n > max || n > end - pos) {
      throw error(at, what + " length " + n + " exceeds " + Math.min(max, end - pos) + " bytes");
    }
    if (n == 0) {
      throw error(at, "invalid " + kind + ": an empty " + what);
    }
    pos += (int) n;
  }

  private void readTable() throws PackedFormatException {
    // commands of one table follow each other: its names are tried first, before any hashing
    String schema = lastTableString(tableSchemaKey, tableSchema);
    byte[] schemaKey = lastKey;
    String name = lastTableString(tableNameKey, tableName);
    byte[] nameKey = lastKey;
    if (schema != tableSchema || name != tableName || table == null) {
      if (schema.isEmpty() || name.isEmpty()) {
        throw error(pos, "invalid " + kind + ": schema and table names must not be empty");
      }
      table = new TableName(schema, name);
      tableSchema = schema;
      tableName = name;
    }
    tableSchemaKey = schemaKey; // the bytes of tableSchema (null if not shared)
    tableNameKey = nameKey;
  }

  private void image(Image img, String what) throws PackedFormatException {
    int n = count(2);
    img.ensure(n);
    img.size = 0;
    for (int i = 0; i < n; i++) {
      int at = pos;
      String name = columnName(img, i);
      if (name.isEmpty()) {
        throw error(at, "invalid " + what + ": a column name must not be empty");
      }
      img.names[i] = name;
      value(img, i);
      img.size = i + 1;
    }
  }

  private void value(Image img, int i) throws PackedFormatException {
    int at = pos;
    int tag = valueTag();
    long a = 0;
    long b = 0;
    int c = 0;
    int off = 0;
    int len = 0;
    switch (tag) {
      case TAG_NULL, TAG_UNCHANGED, TAG_FALSE -> {}
      case TAG_TRUE -> a = 1;
      case TAG_I16 -> a = ranged(Short.MIN_VALUE, Short.MAX_VALUE);
      case TAG_I32 -> a = ranged(Integer.MIN_VALUE, Integer.MAX_VALUE);
      case TAG_I64 -> a = zigZag();
      case TAG_DEC_SMALL -> {
        c = (int) ranged(Integer.MIN_VALUE, Integer.MAX_VALUE);
        a = zigZag();
      }
      case TAG_DEC_BIG -> {
        c = (int) ranged(Integer.MIN_VALUE, Integer.MAX_VALUE);
        len = slice("decimal");
        off = pos - len;
        if (len == 0) {
          throw error(at, "a big decimal with no digits");
        }
      }
      case TAG_F32 -> {
        need(4, "an f32");
        a =
            (buf[pos] & 0xffL) << 24
                | (buf[pos + 1] & 0xff) << 16
                | (buf[pos + 2] & 0xff) << 8
                | (buf[pos + 3] & 0xff);
        a = (int) a;
        pos += 4;
      }
      case TAG_F64 -> {
        need(8, "an f64");
        a = bigEndianLong(pos);
        pos += 8;
      }
      case TAG_TEXT, TAG_JSON -> {
        len = slice("string");
        off = pos - len;
        b = utf8(off, len) ? 0 : 1;
      }
      case TAG_BINARY -> {
        len = slice("binary");
        off = pos - len;
      }
      case TAG_DATE -> a = epochDay(at);
      case TAG_TIME -> a = microsOfDay();
      case TAG_TS -> {
        a = epochDay(at);
        b = microsOfDay();
      }
      case TAG_TSTZ -> {
        a = epochDay(at);
        b = microsOfDay();
        c = (int) ranged(-18 * 3600, 18 * 3600);
      }
      case TAG_UUID -> {
        need(16, "a uuid");
        a = bigEndianLong(pos);
        b = bigEndianLong(pos + 8);
        pos += 16;
      }
      case TAG_NON_FINITE -> {
        Value.NonFinite v = nonFinitePayload();
        a = domainByte(v);
        b = boundByte(v);
      }
      case TAG_NATIVE -> {
        nativeHead(img, i);
        len = slice("string");
        off = pos - len;
        b = utf8(off, len) ? 0 : 1;
      }
      default -> throw error(at, "unknown value tag " + tag);
    }
    img.types[i] = (byte) tag;
    img.first[i] = a;
    img.second[i] = b;
    img.third[i] = c;
    img.offsets[i] = off;
    img.lengths[i] = len;
  }

  /** The dialect and type of a native value, checked as {@link PackedDecoder} checks them. */
  private void nativeHead(Image img, int i) throws PackedFormatException {
    int at = pos;
    String dialect = sharedString();
    if (!Value.Native.isDialectName(dialect)) {
      throw error(at, "native dialect " + quoteClipped(dialect) + " is not a lower-case word");
    }
    at = pos;
    String type = sharedString();
    if (type.isEmpty()) {
      throw error(at, "native type is empty");
    }
    img.dialects[i] = dialect;
    img.nativeTypes[i] = type;
  }

  private long bigEndianLong(int at) {
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = v << 8 | (buf[at + i] & 0xff);
    }
    return v;
  }

  private long epochDay(int at) throws PackedFormatException {
    long day = zigZag();
    if (!ChronoField.EPOCH_DAY.range().isValidValue(day)) {
      throw error(at, "invalid value: epoch day " + day + " out of range");
    }
    return day;
  }

  private long microsOfDay() throws PackedFormatException {
    int at = pos;
    long micros = varLong();
    if (micros < 0 || micros >= MICROS_PER_DAY) {
      throw error(at, "microseconds of day " + micros + " >= one day");
    }
    return micros;
  }

  // ---- primitives of its own (the shared ones are in PackedInput) -------------------------------

  /** Skips a length-prefixed byte string; returns its length (it ends at {@code pos}). */
  private int slice(String what) throws PackedFormatException {
    int at = pos;
    long n = varLong();
    if (n < 0 || n > end - pos) {
      throw error(at, what + " length " + n + " exceeds the " + (end - pos) + " bytes left");
    }
    pos += (int) n;
    return (int) n;
  }

  /**
   * The name of column {@code i} of an image: images of one table list the same names row after
   * row, so the name at that index last time is tried first, then the shared names.
   */
  private String columnName(Image img, int i) throws PackedFormatException {
    int len = slice("string");
    int start = pos - len;
    byte[] last = img.lastKeys[i];
    if (last != null && same(last, start, len)) {
      return img.lastNames[i];
    }
    String name = shared(start, len);
    img.lastKeys[i] = len > MAX_SHARED_NAME_BYTES ? null : lastKey;
    img.lastNames[i] = name;
    return name;
  }

  /**
   * The next string: {@code last} if its bytes are {@code lastKey} (then {@link #lastKey} is set to
   * it), else as {@link #sharedString()} reads it.
   */
  private String lastTableString(byte[] key, String last) throws PackedFormatException {
    int len = slice("string");
    int start = pos - len;
    if (key != null && same(key, start, len)) {
      lastKey = key;
      return last;
    }
    String s = shared(start, len);
    if (len > MAX_SHARED_NAME_BYTES) {
      lastKey = null;
    }
    return s;
  }

  /** A string shared with every equal string read before (see {@link #shared(int, int)}). */
  private String sharedString() throws PackedFormatException {
    int len = slice("string");
    return shared(pos - len, len);
  }

  /**
   * The string in {@code buf[start, start+len)}, checked; the same instance as for every equal
   * string read before while it stays in the bounded cache (bytes found there were checked).
   */
  private String shared(int start, int len) throws PackedFormatException {
    if (len > MAX_SHARED_NAME_BYTES) {
      return newString(start, len, utf8(start, len));
    }
    int h = 0x811c9dc5;
    for (int i = start; i < start + len; i++) {
      h = (h ^ buf[i]) * 0x01000193;
    }
    int slot = (h ^ (h >>> 16)) & (NAME_SLOTS - 1);
    byte[] key = nameKeys[slot];
    if (key != null && same(key, start, len)) {
      lastKey = key;
      return nameValues[slot];
    }
    String s = newString(start, len, utf8(start, len));
    key = Arrays.copyOfRange(buf, start, start + len);
    nameKeys[slot] = key;
    nameValues[slot] = s;
    lastKey = key;
    return s;
  }

  private boolean same(byte[] key, int start, int len) {
    return key.length == len && Arrays.equals(key, 0, len, buf, start, start + len);
  }

  private String newString(int start, int len, boolean ascii) {
    return new String(
        buf, start, len, ascii ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8);
  }

  /**
   * Checks that {@code buf[start, start+len)} is well-formed UTF-8 as Java's decoder defines it
   * (shortest form, no surrogates, at most U+10FFFF).
   *
   * @return true if it is all ASCII
   */
  private boolean utf8(int start, int len) throws PackedFormatException {
    int i = start;
    int stop = start + len;
    while (stop - i >= 8 && ((long) LONGS.get(buf, i) & 0x8080808080808080L) == 0) {
      i += 8;
    }
    while (i < stop && buf[i] >= 0) {
      i++;
    }
    if (i == stop) {
      return true;
    }
    while (i < stop) {
      int b0 = buf[i] & 0xff;
      if (b0 < 0x80) {
        i++;
        continue;
      }
      int more;
      int lo = 0x80;
      int hi = 0xbf;
      if (b0 >= 0xc2 && b0 <= 0xdf) {
        more = 1;
      } else if (b0 >= 0xe0 && b0 <= 0xef) {
        more = 2;
        if (b0 == 0xe0) {
          lo = 0xa0;
        } else if (b0 == 0xed) {
          hi = 0x9f;
        }
      } else if (b0 >= 0xf0 && b0 <= 0xf4) {
        more = 3;
        if (b0 == 0xf0) {
          lo = 0x90;
        } else if (b0 == 0xf4) {
          hi = 0x8f;
        }
      } else {
        throw error(start, "a string that is not well-formed UTF-8");
      }
      if (stop - i <= more) {
        throw error(start, "a string that is not well-formed UTF-8");
      }
      int b1 = buf[i + 1] & 0xff;
      if (b1 < lo || b1 > hi) {
        throw error(start, "a string that is not well-formed UTF-8");
      }
      for (int j = 2; j <= more; j++) {
        if ((buf[i + j] & 0xc0) != 0x80) {
          throw error(start, "a string that is not well-formed UTF-8");
        }
      }
      i += more + 1;
    }
    return false;
  }
}
