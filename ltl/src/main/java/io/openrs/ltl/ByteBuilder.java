package io.openrs.ltl;

import java.util.Arrays;

/**
 * A growable byte array for encoders (text writer, packed encoder). Not thread-safe; owned by one
 * writer.
 */
public final class ByteBuilder {
  private byte[] buf;
  private int size;

  public ByteBuilder() {
    this(256);
  }

  public ByteBuilder(int initialCapacity) {
    buf = new byte[Math.max(16, initialCapacity)];
  }

  public int size() {
    return size;
  }

  /** Forgets the content, keeps the capacity. */
  public void reset() {
    size = 0;
  }

  /** The backing array; valid up to {@link #size()} until the next append. */
  public byte[] array() {
    return buf;
  }

  public byte[] toByteArray() {
    return Arrays.copyOf(buf, size);
  }

  public void ensureSpare(int n) {
    if (buf.length - size < n) {
      long wanted = Math.max((long) buf.length * 2, (long) size + n);
      if (wanted > Integer.MAX_VALUE - 8) {
        throw new IllegalStateException("a buffer cannot grow past 2 GiB");
      }
      buf = Arrays.copyOf(buf, (int) wanted);
    }
  }

  public ByteBuilder append(byte b) {
    ensureSpare(1);
    buf[size++] = b;
    return this;
  }

  public ByteBuilder append(char asciiChar) {
    return append((byte) asciiChar);
  }

  public ByteBuilder append(byte[] bytes) {
    return append(bytes, 0, bytes.length);
  }

  public ByteBuilder append(byte[] bytes, int off, int len) {
    ensureSpare(len);
    System.arraycopy(bytes, off, buf, size, len);
    size += len;
    return this;
  }

  /** Appends a string known to be ASCII (numbers, keywords). */
  public ByteBuilder appendAscii(String s) {
    int n = s.length();
    ensureSpare(n);
    for (int i = 0; i < n; i++) {
      buf[size++] = (byte) s.charAt(i);
    }
    return this;
  }

  /** Appends the decimal digits of {@code v}. */
  public ByteBuilder appendDecimal(long v) {
    if (v >= 0 && v < 10) {
      return append((byte) ('0' + v));
    }
    return appendAscii(Long.toString(v));
  }

  /** Appends exactly {@code width} digits of {@code v} (zero-padded; v >= 0). */
  public ByteBuilder appendPadded(int v, int width) {
    ensureSpare(width);
    for (int i = width - 1; i >= 0; i--) {
      buf[size + i] = (byte) ('0' + v % 10);
      v /= 10;
    }
    size += width;
    return this;
  }

  public ByteBuilder appendIntBigEndian(int v) {
    ensureSpare(4);
    buf[size] = (byte) (v >>> 24);
    buf[size + 1] = (byte) (v >>> 16);
    buf[size + 2] = (byte) (v >>> 8);
    buf[size + 3] = (byte) v;
    size += 4;
    return this;
  }

  public ByteBuilder appendLongBigEndian(long v) {
    appendIntBigEndian((int) (v >>> 32));
    return appendIntBigEndian((int) v);
  }

  /** Unsigned LEB128. */
  public ByteBuilder appendVarLong(long v) {
    ensureSpare(10);
    while ((v & ~0x7fL) != 0) {
      buf[size++] = (byte) ((v & 0x7f) | 0x80);
      v >>>= 7;
    }
    buf[size++] = (byte) v;
    return this;
  }

  /** Zig-zag then unsigned LEB128, for signed values near zero. */
  public ByteBuilder appendZigZag(long v) {
    return appendVarLong((v << 1) ^ (v >> 63));
  }
}
