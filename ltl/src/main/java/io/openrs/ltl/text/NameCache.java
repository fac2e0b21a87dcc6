package io.openrs.ltl.text;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A small direct-mapped cache from identifier bytes to their {@link String}, so the table and
 * column names repeated on every line are not allocated again for each row. Bounded: a colliding
 * name replaces the slot's previous one.
 *
 * <p>Not thread-safe; owned by one parser.
 */
final class NameCache {
  private static final int MAX_CACHED_LENGTH = 64;
  private final byte[][] keys;
  private final String[] values;
  private final int mask;

  NameCache(int slots) {
    if (Integer.bitCount(slots) != 1) {
      throw new IllegalArgumentException("slots must be a power of two, got " + slots);
    }
    keys = new byte[slots][];
    values = new String[slots];
    mask = slots - 1;
  }

  /**
   * The ASCII identifier in {@code buf[off, off+len)}, whose hash the caller computed while
   * scanning it ({@code h = 31 * h + b}, starting from 1).
   */
  String name(byte[] buf, int off, int len, int h) {
    if (len > MAX_CACHED_LENGTH) {
      return new String(buf, off, len, StandardCharsets.ISO_8859_1);
    }
    int slot = (h ^ (h >>> 16)) & mask;
    byte[] key = keys[slot];
    if (key != null && Arrays.equals(key, 0, key.length, buf, off, off + len)) {
      return values[slot];
    }
    String s = new String(buf, off, len, StandardCharsets.ISO_8859_1);
    keys[slot] = Arrays.copyOfRange(buf, off, off + len);
    values[slot] = s;
    return s;
  }
}
