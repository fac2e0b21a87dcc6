package io.openrs.dsi.dialect;

import java.util.Arrays;

/**
 * The growing byte buffer a {@link RowStream.Encoder} writes its rows into, whatever their format
 * ({@link CopyTextEncoder}, {@link CopyBinaryEncoder}): the first {@link #length()} bytes of {@link
 * #array()} are whole rows. Not thread-safe.
 */
abstract class EncodedRows implements RowStream.Encoder {
  byte[] buf;
  int len;

  EncodedRows(int capacity) {
    buf = new byte[capacity];
  }

  @Override
  public final byte[] array() {
    return buf;
  }

  @Override
  public final int length() {
    return len;
  }

  /** Forgets every row. */
  final void reset() {
    len = 0;
  }

  @Override
  public final void truncate(int length) {
    if (length < 0 || length > len) {
      throw new IllegalArgumentException("truncate to " + length + " of " + len + " bytes");
    }
    len = length;
  }

  final void put(byte b) {
    ensure(1);
    buf[len++] = b;
  }

  /** Room for {@code more} bytes after the first {@link #len}. */
  final void ensure(int more) {
    if (len + more > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
    }
  }
}
