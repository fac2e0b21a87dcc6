package io.openrs.ltl.text;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Finds line ends eight bytes at a time (SWAR), since every byte of a batch passes through here.
 */
final class LineEnds {
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long NEWLINES = 0x0a0a0a0a0a0a0a0aL;
  private static final long LOW_BITS = 0x0101010101010101L;
  private static final long HIGH_BITS = 0x8080808080808080L;

  private LineEnds() {}

  /** Index of the first {@code \n} in {@code buf[from, to)}, or {@code to} when there is none. */
  static int next(byte[] buf, int from, int to) {
    int i = from;
    while (i + 8 <= to) {
      long x = (long) LONGS.get(buf, i) ^ NEWLINES;
      long found = (x - LOW_BITS) & ~x & HIGH_BITS;
      if (found != 0) {
        return i + (Long.numberOfTrailingZeros(found) >>> 3);
      }
      i += 8;
    }
    while (i < to && buf[i] != '\n') {
      i++;
    }
    return i;
  }
}
