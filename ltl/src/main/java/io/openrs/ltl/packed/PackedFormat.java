package io.openrs.ltl.packed;

import io.openrs.ltl.Value;

/**
 * The packed binary form of one LTL command (a stable-queue message). Compact, versioned, and
 * length-prefixed so a reader can skip a command kind it does not know.
 *
 * <pre>
 * Packed command
 * +--------------+-----------+-----------------------+------------------------------+
 * | version (u8) | kind (u8) | body length (varint)  | body (body length bytes)     |
 * +--------------+-----------+-----------------------+------------------------------+
 *   offset 0       offset 1    offset 2, 1..5 bytes
 *
 * version = CURRENT_VERSION (2) when written; MIN_READ_VERSION..MAX_READ_VERSION (1..2) read
 *
 * varint  = unsigned LEB128 (7 bits a byte, least significant group first, high bit = more)
 * zvarint = zig-zag encoded signed value ((v << 1) ^ (v >> 63)), then varint
 * bytes   = varint length, then that many bytes
 * string  = bytes holding UTF-8
 * flags   = u8, bits named per kind; unknown bits set = malformed
 *
 * Body by kind (all start with tran:bytes oqid:bytes except the session kinds 16..19):
 *   1 begin      tran oqid timeSec:zvarint timeMicros:varint flags(bit0 user) [user:string]
 *   2 commit     tran oqid timeSec:zvarint timeMicros:varint
 *   3 rollback   tran oqid
 *   4 insert     tran oqid schema:string table:string flags(bit0 snapshot) after:image
 *   5 update     tran oqid schema:string table:string before:image after:image
 *   6 delete     tran oqid schema:string table:string before:image
 *   7 truncate   tran oqid schema:string table:string
 *   8 ddl        tran oqid flags(bit0 schema) [schema:string] statement:string
 *   9 ticket     tran oqid timeSec:zvarint timeMicros:varint count:varint header:string*
 *  16 connect    server:string database:string minVersion:varint maxVersion:varint
 *                user:string flags(bit0 password) [password:string]
 *                flags(bit0 agent) [agent:string]
 *  17 connected  version:varint
 *  18 get truncation   (empty body)
 *  19 truncation flags(bit0 oqid) [oqid:bytes]
 *
 * image = count:varint, then count times: name:string tag:u8 payload
 *   tag payload
 *    0  null                 (none)
 *    1  unchanged            (none)
 *    2  false / 3 true       (none)
 *    4  i16, 5 i32, 6 i64    zvarint
 *    7  decimal, small       scale:zvarint unscaled:zvarint (unscaled fits 64 bits)
 *    8  decimal, big         scale:zvarint unscaled:bytes (two's complement, big-endian)
 *    9  f32                  4 bytes, IEEE 754 bits, big-endian
 *   10  f64                  8 bytes, IEEE 754 bits, big-endian
 *   11  text                 string
 *   12  binary               bytes
 *   13  date                 epochDay:zvarint
 *   14  time                 microsOfDay:varint
 *   15  timestamp            epochDay:zvarint microsOfDay:varint
 *   16  timestamp with tz    epochDay:zvarint microsOfDay:varint offsetSeconds:zvarint
 *                            (local date and time at that offset)
 *   17  uuid                 16 bytes, most significant first
 *   18  json                 string
 *   19  non-finite           domain:u8 bound:u8                              (version 2 on)
 *                            domain 0 dec, 1 date, 2 ts, 3 tstz;
 *                            bound 0 NaN (dec only), 1 +infinity, 2 -infinity;
 *                            any other byte, or NaN of date/ts/tstz, is malformed
 *   20  native               dialect:string type:string text:string          (version 2 on)
 *                            dialect a lower-case word [a-z][a-z0-9_]*, type not empty,
 *                            text any (may be empty); else malformed
 *
 * A version 1 command holds tags 0..18 only: tag 19 or 20 in it is malformed.
 * </pre>
 *
 * Worked examples (one per new tag too) in {@code docs/formats/ltl-packed.md}.
 */
public final class PackedFormat {
  private PackedFormat() {}

  /** Version 1 (2026-11): first packed form. */
  public static final int VERSION_1 = 1;

  /** Version 2 (2026-11): tags 19 non-finite and 20 native. */
  public static final int VERSION_2 = 2;

  /** The version encoders write. */
  public static final int CURRENT_VERSION = VERSION_2;

  /**
   * Oldest version decoders read: stable queues written by the release before version 2 hold
   * version 1 commands.
   */
  public static final int MIN_READ_VERSION = VERSION_1;

  /** Newest version decoders read. */
  public static final int MAX_READ_VERSION = VERSION_2;

  static final int KIND_BEGIN = 1;
  static final int KIND_COMMIT = 2;
  static final int KIND_ROLLBACK = 3;
  static final int KIND_INSERT = 4;
  static final int KIND_UPDATE = 5;
  static final int KIND_DELETE = 6;
  static final int KIND_TRUNCATE = 7;
  static final int KIND_DDL = 8;
  static final int KIND_TICKET = 9;
  static final int KIND_CONNECT = 16;
  static final int KIND_CONNECTED = 17;
  static final int KIND_GET_TRUNCATION = 18;
  static final int KIND_TRUNCATION = 19;

  static final int TAG_NULL = 0;
  static final int TAG_UNCHANGED = 1;
  static final int TAG_FALSE = 2;
  static final int TAG_TRUE = 3;
  static final int TAG_I16 = 4;
  static final int TAG_I32 = 5;
  static final int TAG_I64 = 6;
  static final int TAG_DEC_SMALL = 7;
  static final int TAG_DEC_BIG = 8;
  static final int TAG_F32 = 9;
  static final int TAG_F64 = 10;
  static final int TAG_TEXT = 11;
  static final int TAG_BINARY = 12;
  static final int TAG_DATE = 13;
  static final int TAG_TIME = 14;
  static final int TAG_TS = 15;
  static final int TAG_TSTZ = 16;
  static final int TAG_UUID = 17;
  static final int TAG_JSON = 18;
  static final int TAG_NON_FINITE = 19;
  static final int TAG_NATIVE = 20;

  /** The newest tag of each version ({@code LAST_TAG[v]}); a tag after it is unknown there. */
  private static final int[] LAST_TAG = {-1, TAG_JSON, TAG_NATIVE};

  /** True if value tag {@code tag} exists in packed version {@code version} (a readable one). */
  static boolean tagInVersion(int tag, int version) {
    return tag <= LAST_TAG[version];
  }

  /** Domain bytes of tag 19. */
  static final int DOMAIN_DEC = 0;

  static final int DOMAIN_DATE = 1;
  static final int DOMAIN_TS = 2;
  static final int DOMAIN_TSTZ = 3;

  /** Bound bytes of tag 19. */
  static final int BOUND_NAN = 0;

  static final int BOUND_POSITIVE_INFINITY = 1;
  static final int BOUND_NEGATIVE_INFINITY = 2;

  /** The domain of each domain byte (the bytes are the format's, not the enum's order). */
  private static final Value.NonFinite.Domain[] DOMAIN_OF_BYTE = {
    Value.NonFinite.Domain.DEC,
    Value.NonFinite.Domain.DATE,
    Value.NonFinite.Domain.TS,
    Value.NonFinite.Domain.TSTZ
  };

  /** The bound of each bound byte. */
  private static final Value.NonFinite.Bound[] BOUND_OF_BYTE = {
    Value.NonFinite.Bound.NAN,
    Value.NonFinite.Bound.POSITIVE_INFINITY,
    Value.NonFinite.Bound.NEGATIVE_INFINITY
  };

  /** One shared instance per valid (domain byte, bound byte), null for NaN outside dec. */
  private static final Value.NonFinite[][] NON_FINITE = nonFiniteValues();

  private static Value.NonFinite[][] nonFiniteValues() {
    Value.NonFinite[][] all = new Value.NonFinite[DOMAIN_OF_BYTE.length][BOUND_OF_BYTE.length];
    for (int d = 0; d < DOMAIN_OF_BYTE.length; d++) {
      for (int b = 0; b < BOUND_OF_BYTE.length; b++) {
        if (b != BOUND_NAN || d == DOMAIN_DEC) {
          all[d][b] = new Value.NonFinite(DOMAIN_OF_BYTE[d], BOUND_OF_BYTE[b]);
        }
      }
    }
    return all;
  }

  /** The domain byte of {@code v}. */
  static int domainByte(Value.NonFinite v) {
    return switch (v.domain()) {
      case DEC -> DOMAIN_DEC;
      case DATE -> DOMAIN_DATE;
      case TS -> DOMAIN_TS;
      case TSTZ -> DOMAIN_TSTZ;
    };
  }

  /** The bound byte of {@code v}. */
  static int boundByte(Value.NonFinite v) {
    return switch (v.bound()) {
      case NAN -> BOUND_NAN;
      case POSITIVE_INFINITY -> BOUND_POSITIVE_INFINITY;
      case NEGATIVE_INFINITY -> BOUND_NEGATIVE_INFINITY;
    };
  }

  /**
   * The shared value of a tag 19 payload, or null when its bytes name none (a domain above 3, a
   * bound above 2, or NaN of a date or timestamp: {@link #nonFiniteProblem} says which).
   */
  static Value.NonFinite nonFinite(int domain, int bound) {
    if (domain >= DOMAIN_OF_BYTE.length || bound >= BOUND_OF_BYTE.length) {
      return null;
    }
    return NON_FINITE[domain][bound];
  }

  /** Why a tag 19 payload names no value (for errors; {@code nonFinite} found none). */
  static String nonFiniteProblem(int domain, int bound) {
    if (domain >= DOMAIN_OF_BYTE.length) {
      return "non-finite domain " + domain + " (known: 0 dec, 1 date, 2 ts, 3 tstz)";
    }
    if (bound >= BOUND_OF_BYTE.length) {
      return "non-finite bound " + bound + " (known: 0 NaN, 1 +infinity, 2 -infinity)";
    }
    return "non-finite bound 0 (NaN) of domain "
        + domain
        + " ("
        + DOMAIN_OF_BYTE[domain].typeName()
        + "): NaN is a dec value only";
  }

  static final int FLAG_PRESENT = 1;

  /** Header bytes before the body length: version and kind. */
  static final int VERSION_OFFSET = 0;

  static final int KIND_OFFSET = VERSION_OFFSET + 1;
  static final int BODY_LENGTH_OFFSET = KIND_OFFSET + 1;

  /** Largest body a decoder accepts (bounded before anything is allocated). */
  public static final int MAX_BODY_BYTES = 256 * 1024 * 1024;

  static final long MICROS_PER_DAY = 86_400_000_000L;
}
