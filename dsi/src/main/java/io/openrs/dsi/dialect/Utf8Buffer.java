package io.openrs.dsi.dialect;

import java.util.Arrays;

/**
 * A reusable byte buffer that a character sequence is encoded into as UTF-8, without the
 * intermediate {@code String} and {@code byte[]} that {@code toString().getBytes()} makes: the bulk
 * interfaces encode megabytes of rows per group. Not thread-safe.
 */
final class Utf8Buffer {
  private byte[] bytes;
  private int length;

  Utf8Buffer(int capacity) {
    bytes = new byte[capacity];
  }

  /** Replaces the contents with {@code cs} in UTF-8 (a lone surrogate becomes {@code ?}). */
  void encode(CharSequence cs) {
    int n = cs.length();
    if (bytes.length < n * 3) {
      bytes = Arrays.copyOf(bytes, n * 3);
    }
    int p = 0;
    for (int i = 0; i < n; i++) {
      char c = cs.charAt(i);
      if (c < 0x80) {
        bytes[p++] = (byte) c;
      } else if (c < 0x800) {
        bytes[p++] = (byte) (0xc0 | (c >> 6));
        bytes[p++] = (byte) (0x80 | (c & 0x3f));
      } else if (Character.isHighSurrogate(c)
          && i + 1 < n
          && Character.isLowSurrogate(cs.charAt(i + 1))) {
        int cp = Character.toCodePoint(c, cs.charAt(++i));
        bytes[p++] = (byte) (0xf0 | (cp >> 18));
        bytes[p++] = (byte) (0x80 | ((cp >> 12) & 0x3f));
        bytes[p++] = (byte) (0x80 | ((cp >> 6) & 0x3f));
        bytes[p++] = (byte) (0x80 | (cp & 0x3f));
      } else if (Character.isSurrogate(c)) {
        bytes[p++] = '?';
      } else {
        bytes[p++] = (byte) (0xe0 | (c >> 12));
        bytes[p++] = (byte) (0x80 | ((c >> 6) & 0x3f));
        bytes[p++] = (byte) (0x80 | (c & 0x3f));
      }
    }
    length = p;
  }

  byte[] array() {
    return bytes;
  }

  int length() {
    return length;
  }
}
