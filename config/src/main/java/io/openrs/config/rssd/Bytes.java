package io.openrs.config.rssd;

import java.util.HexFormat;

/** Byte-string helpers for OQIDs. */
final class Bytes {
  private static final HexFormat HEX = HexFormat.of();

  private Bytes() {}

  /**
   * Orders OQIDs: bytewise, each byte unsigned; on an equal prefix the longer one is greater.
   * Negative, zero or positive as {@code a} is below, equal to or above {@code b}.
   */
  static int compareOqids(byte[] a, byte[] b) {
    return java.util.Arrays.compareUnsigned(a, b);
  }

  static String hex(byte[] bytes) {
    return HEX.formatHex(bytes);
  }
}
