package io.openrs.ltl.text;

/** Strict UTF-8 validation: no overlong forms, no surrogates, nothing above U+10FFFF. */
final class Utf8 {
  private Utf8() {}

  /**
   * Index of the first byte in {@code [from, to)} that starts an invalid or truncated sequence, or
   * -1 when the range is well-formed UTF-8.
   */
  static int firstInvalid(byte[] b, int from, int to) {
    int i = from;
    while (i < to) {
      int c = b[i] & 0xff;
      if (c < 0x80) {
        i++;
        continue;
      }
      int need;
      int min;
      if (c >= 0xc2 && c <= 0xdf) {
        need = 1;
        min = 0x80;
      } else if (c >= 0xe0 && c <= 0xef) {
        need = 2;
        min = 0x800;
      } else if (c >= 0xf0 && c <= 0xf4) {
        need = 3;
        min = 0x10000;
      } else {
        return i;
      }
      if (i + need >= to) {
        return i;
      }
      int cp = c & (0x3f >> need);
      for (int k = 1; k <= need; k++) {
        int cc = b[i + k] & 0xff;
        if ((cc & 0xc0) != 0x80) {
          return i;
        }
        cp = (cp << 6) | (cc & 0x3f);
      }
      if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
        return i;
      }
      i += need + 1;
    }
    return -1;
  }
}
