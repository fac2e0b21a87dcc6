package io.openrs.ltl;

import java.util.Arrays;

/**
 * Origin queue id: the opaque locator of a change at its origin, strictly increasing per origin and
 * compared bytewise (unsigned, lexicographic; a proper prefix sorts first). Written {@code
 * 0x<hex>}; {@link #toString()} and {@link #parse(String)} are the one text form used by logs,
 * errors, dumps and admin commands.
 */
public final class Oqid implements Comparable<Oqid> {
  /** Longest OQID accepted (Replication Server's is 36 bytes). */
  public static final int MAX_BYTES = 64;

  private final byte[] bytes;

  private Oqid(byte[] bytes) {
    this.bytes = bytes;
  }

  /** An OQID holding a copy of {@code bytes} (1..{@value #MAX_BYTES} bytes). */
  public static Oqid of(byte[] bytes) {
    return new Oqid(HexBytes.copyChecked(bytes, "an OQID", MAX_BYTES));
  }

  /** An OQID of {@code length} bytes holding {@code value} big-endian (for tests and agents). */
  public static Oqid ofLong(long value, int length) {
    byte[] b = new byte[length];
    for (int i = length - 1, shift = 0; i >= 0 && shift < 64; i--, shift += 8) {
      b[i] = (byte) (value >>> shift);
    }
    return of(b);
  }

  /** Parses {@code 0x<hex>}. */
  public static Oqid parse(String text) {
    if (!text.startsWith("0x")) {
      throw new IllegalArgumentException("an OQID is written 0x<hex>, got '" + text + "'");
    }
    return of(HexBytes.parse(text.substring(2)));
  }

  /**
   * Decodes {@code digits} hex digits of {@code ascii} starting at {@code offset} (for parsers that
   * already hold the text as bytes).
   */
  public static Oqid ofHex(byte[] ascii, int offset, int digits) {
    return new Oqid(
        HexBytes.checkLength(HexBytes.decode(ascii, offset, digits), "an OQID", MAX_BYTES));
  }

  TranId toTranId() {
    return TranId.wrap(bytes);
  }

  /** A copy of the bytes. */
  public byte[] toBytes() {
    return Arrays.copyOf(bytes, bytes.length);
  }

  public int length() {
    return bytes.length;
  }

  /** The byte at {@code index}, for encoders that avoid the copy of {@link #toBytes()}. */
  public byte byteAt(int index) {
    return bytes[index];
  }

  @Override
  public int compareTo(Oqid other) {
    return Arrays.compareUnsigned(bytes, other.bytes);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Oqid other && Arrays.equals(bytes, other.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return "0x" + HexBytes.format(bytes);
  }
}
