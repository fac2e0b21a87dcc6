package io.openrs.ltl;

import java.util.Arrays;

/**
 * The origin's transaction id: opaque bytes that group the commands of one source transaction.
 * Written {@code 0x<hex>} like an {@link Oqid}, but only compared for equality.
 */
public final class TranId {
  /** Longest transaction id accepted. */
  public static final int MAX_BYTES = 64;

  private final byte[] bytes;
  private final int hash;

  private TranId(byte[] bytes) {
    this.bytes = bytes;
    this.hash = Arrays.hashCode(bytes);
  }

  /** A transaction id holding a copy of {@code bytes} (1..{@value #MAX_BYTES} bytes). */
  public static TranId of(byte[] bytes) {
    return new TranId(HexBytes.copyChecked(bytes, "a transaction id", MAX_BYTES));
  }

  /** A transaction id of 8 bytes holding {@code value} big-endian. */
  public static TranId ofLong(long value) {
    return Oqid.ofLong(value, 8).toTranId();
  }

  /** Parses {@code 0x<hex>}. */
  public static TranId parse(String text) {
    return Oqid.parse(text).toTranId();
  }

  /** Decodes {@code digits} hex digits of {@code ascii} starting at {@code offset}. */
  public static TranId ofHex(byte[] ascii, int offset, int digits) {
    return new TranId(
        HexBytes.checkLength(
            HexBytes.decode(ascii, offset, digits), "a transaction id", MAX_BYTES));
  }

  static TranId wrap(byte[] bytes) {
    return new TranId(bytes);
  }

  /** A copy of the bytes. */
  public byte[] toBytes() {
    return Arrays.copyOf(bytes, bytes.length);
  }

  public int length() {
    return bytes.length;
  }

  public byte byteAt(int index) {
    return bytes[index];
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TranId other && hash == other.hash && Arrays.equals(bytes, other.bytes);
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public String toString() {
    return "0x" + HexBytes.format(bytes);
  }
}
