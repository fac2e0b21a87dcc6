package io.openrs.ltl;

import java.util.Arrays;

/** Hex text for the opaque byte strings of LTL ({@code 0x0a1f}); one format/parse pair. */
public final class HexBytes {
  private static final byte[] DIGITS =
      "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  private HexBytes() {}

  /** Lower-case hex digits of {@code bytes}, without prefix. */
  public static String format(byte[] bytes) {
    byte[] out = new byte[bytes.length * 2];
    for (int i = 0; i < bytes.length; i++) {
      out[2 * i] = DIGITS[(bytes[i] >> 4) & 0xf];
      out[2 * i + 1] = DIGITS[bytes[i] & 0xf];
    }
    return new String(out, java.nio.charset.StandardCharsets.ISO_8859_1);
  }

  /**
   * Parses hex digits (either case, even count, no prefix).
   *
   * @throws IllegalArgumentException naming the offending character and its index
   */
  public static byte[] parse(CharSequence hex) {
    if (hex.length() % 2 != 0) {
      throw new IllegalArgumentException(
          "odd number of hex digits (" + hex.length() + ") in '" + hex + "'");
    }
    byte[] out = new byte[hex.length() / 2];
    for (int i = 0; i < out.length; i++) {
      int hi = digit(hex.charAt(2 * i));
      int lo = digit(hex.charAt(2 * i + 1));
      if (hi < 0 || lo < 0) {
        int bad = hi < 0 ? 2 * i : 2 * i + 1;
        throw new IllegalArgumentException(
            "'" + hex.charAt(bad) + "' at index " + bad + " is not a hex digit in '" + hex + "'");
      }
      out[i] = (byte) ((hi << 4) | lo);
    }
    return out;
  }

  /**
   * Decodes {@code digits} hex digits (even count) from {@code ascii} at {@code offset}.
   *
   * @throws IllegalArgumentException naming the first byte that is not a hex digit
   */
  public static byte[] decode(byte[] ascii, int offset, int digits) {
    if (digits % 2 != 0) {
      throw new IllegalArgumentException("odd number of hex digits (" + digits + ")");
    }
    byte[] out = new byte[digits / 2];
    for (int i = 0; i < out.length; i++) {
      int hi = digit(ascii[offset + 2 * i]);
      int lo = digit(ascii[offset + 2 * i + 1]);
      if ((hi | lo) < 0) {
        int bad = hi < 0 ? 2 * i : 2 * i + 1;
        throw new IllegalArgumentException(
            "byte 0x"
                + Integer.toHexString(ascii[offset + bad] & 0xff)
                + " at index "
                + bad
                + " is not a hex digit");
      }
      out[i] = (byte) ((hi << 4) | lo);
    }
    return out;
  }

  private static final byte[] DIGIT_VALUE = new byte[256];

  static {
    java.util.Arrays.fill(DIGIT_VALUE, (byte) -1);
    for (int c = '0'; c <= '9'; c++) {
      DIGIT_VALUE[c] = (byte) (c - '0');
    }
    for (int c = 'a'; c <= 'f'; c++) {
      DIGIT_VALUE[c] = (byte) (c - 'a' + 10);
      DIGIT_VALUE[c - 'a' + 'A'] = (byte) (c - 'a' + 10);
    }
  }

  /** Value of one hex digit, or -1 when {@code c} is not one. */
  public static int digit(int c) {
    return (c & ~0xff) == 0 ? DIGIT_VALUE[c] : -1;
  }

  /** Value of the hex digit in byte {@code b}, or -1 when it is not one. */
  public static int digit(byte b) {
    return DIGIT_VALUE[b & 0xff];
  }

  /** {@code bytes} itself when it holds 1..maxLength bytes. */
  static byte[] checkLength(byte[] bytes, String what, int maxLength) {
    if (bytes.length == 0 || bytes.length > maxLength) {
      throw new IllegalArgumentException(
          what + " must be 1.." + maxLength + " bytes, got " + bytes.length);
    }
    return bytes;
  }

  static byte[] copyChecked(byte[] bytes, String what, int maxLength) {
    return Arrays.copyOf(checkLength(bytes, what, maxLength), bytes.length);
  }
}
