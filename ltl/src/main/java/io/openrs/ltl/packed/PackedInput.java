package io.openrs.ltl.packed;

import static io.openrs.ltl.packed.PackedFormat.FLAG_PRESENT;
import static io.openrs.ltl.packed.PackedFormat.MAX_BODY_BYTES;
import static io.openrs.ltl.packed.PackedFormat.MAX_READ_VERSION;
import static io.openrs.ltl.packed.PackedFormat.MIN_READ_VERSION;

import io.openrs.ltl.Value;

/**
 * The primitive reads of the packed form ({@link PackedFormat}) that {@link PackedDecoder} and
 * {@link PackedRowReader} share: bytes, flags, LEB128 varints, zigzag and ranged integers, counts
 * bounded by the bytes left, and a command's header. Every read checks what is left before it takes
 * it and fails with the offset of the bad item, counted from the start of the reader's range
 * ({@code base}).
 *
 * <p>Not thread-safe: owned by the thread of the reader that extends it.
 */
abstract class PackedInput {
  /** The buffer being read; its readable range is {@code [base, end)}. */
  byte[] buf;

  /** Where the reader's range starts: offsets in errors count from here. */
  int base;

  /** The next byte to read. */
  int pos;

  /** The end of what the current item may read. */
  int end;

  /** The packed version of the current command (read by {@link #commandHeader}). */
  int version;

  final PackedFormatException error(int at, String problem) {
    return new PackedFormatException(at - base, problem);
  }

  final void need(int n, String what) throws PackedFormatException {
    if (end - pos < n) {
      throw error(pos, what + " needs " + n + " bytes, " + (end - pos) + " left");
    }
  }

  final int u8() throws PackedFormatException {
    need(1, "a byte");
    return buf[pos++] & 0xff;
  }

  final int flags() throws PackedFormatException {
    int at = pos;
    int f = u8();
    if ((f & ~FLAG_PRESENT) != 0) {
      throw error(at, "unknown flag bits 0x" + Integer.toHexString(f));
    }
    return f;
  }

  /**
   * An unsigned LEB128 value of up to 64 bits; callers that use it as a length or count treat a
   * negative result (a value of 2^63 or more) as out of range.
   */
  final long varLong() throws PackedFormatException {
    int at = pos;
    long v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos >= end) {
        throw error(at, "a varint cut short");
      }
      byte b = buf[pos++];
      if (shift == 63 && (b & 0xfe) != 0) {
        throw error(at, "a varint longer than 64 bits");
      }
      v |= (long) (b & 0x7f) << shift;
      if (b >= 0) {
        return v;
      }
    }
    throw error(at, "a varint longer than 64 bits");
  }

  final long zigZag() throws PackedFormatException {
    long v = varLong();
    return (v >>> 1) ^ -(v & 1);
  }

  final long ranged(long min, long max) throws PackedFormatException {
    int at = pos;
    long v = zigZag();
    if (v < min || v > max) {
      throw error(at, "value " + v + " outside " + min + ".." + max);
    }
    return v;
  }

  /**
   * Reads the value tag at {@code pos}, refusing a tag the current command's version does not have
   * (tags 19 and 20 are version 2's); an unknown tag is left to the caller's switch.
   */
  final int valueTag() throws PackedFormatException {
    int at = pos;
    int tag = u8();
    if (tag <= PackedFormat.TAG_NATIVE && !PackedFormat.tagInVersion(tag, version)) {
      throw error(at, "value tag " + tag + " in a packed version " + version + " command");
    }
    return tag;
  }

  /** The shared value of a tag 19 payload (domain and bound bytes), checked. */
  final Value.NonFinite nonFinitePayload() throws PackedFormatException {
    need(2, "a non-finite value");
    int domain = buf[pos] & 0xff;
    int bound = buf[pos + 1] & 0xff;
    Value.NonFinite v = PackedFormat.nonFinite(domain, bound);
    if (v == null) {
      // point at the domain byte when it is unknown, else at the bound byte
      int at = domain > PackedFormat.DOMAIN_TSTZ ? pos : pos + 1;
      throw error(at, PackedFormat.nonFiniteProblem(domain, bound));
    }
    pos += 2;
    return v;
  }

  /** {@code s} in quotes for an error message, cut to its first 40 characters. */
  static String quoteClipped(String s) {
    return s.length() <= 40
        ? "'" + s + "'"
        : "'" + s.substring(0, 40) + "...' (" + s.length() + " characters)";
  }

  /** A count of items each at least {@code minBytesEach} long, bounded by the bytes left. */
  final int count(int minBytesEach) throws PackedFormatException {
    int at = pos;
    long n = varLong();
    if (n < 0 || n > (end - pos) / minBytesEach) {
      throw error(at, "count " + n + " cannot fit in the " + (end - pos) + " bytes left");
    }
    return (int) n;
  }

  /**
   * Reads the header of the command at {@code pos} (version, kind, body length), which must end by
   * {@code limit}: returns the kind, and leaves {@code end} at the end of the command's body.
   */
  final int commandHeader(int limit) throws PackedFormatException {
    end = limit;
    int version = u8();
    if (version < MIN_READ_VERSION || version > MAX_READ_VERSION) {
      throw error(
          pos - 1,
          "unsupported packed version "
              + version
              + " (this reader reads "
              + MIN_READ_VERSION
              + ".."
              + MAX_READ_VERSION
              + ")");
    }
    this.version = version;
    int kind = u8();
    long bodyLength = varLong();
    if (bodyLength < 0 || bodyLength > MAX_BODY_BYTES || bodyLength > limit - pos) {
      throw error(
          pos, "body length " + bodyLength + " exceeds the " + (limit - pos) + " bytes left");
    }
    end = pos + (int) bodyLength;
    return kind;
  }
}
