package io.openrs.dsi.internal.hvar;

import io.openrs.ltl.Value;
import java.math.BigDecimal;

/**
 * A row's identity in the net-change database: its primary key's values, or every column for a
 * table without one. Equal when the replicate would find the same row: integers compare by value
 * whatever their width, decimals whatever their scale ({@code 1.50} is {@code 1.5}); other values
 * by {@link Value#equals}. Keeps the values as first seen, for binding. Immutable; allocates
 * nothing beyond itself on the hot path (no boxing of integer keys).
 */
final class RowKey {
  private final Value[] values;
  private final int hash;

  private RowKey(Value[] values) {
    this.values = values;
    // A large odd multiplier, not 31: composite keys of small integers (1..n, 1..m) would
    // otherwise collide in whole diagonals and turn the group's hash map into long chains.
    int h = 1;
    for (Value v : values) {
      h = h * 0x9E3779B1 + hash(v);
    }
    this.hash = h ^ (h >>> 15);
  }

  /** The key of {@code values} (not copied: the caller hands it over). */
  static RowKey of(Value[] values) {
    return new RowKey(values);
  }

  private static int hash(Value v) {
    long n;
    if (v instanceof Value.Int64 x) {
      n = x.value();
    } else if (v instanceof Value.Int32 x) {
      n = x.value();
    } else if (v instanceof Value.Int16 x) {
      n = x.value();
    } else if (v instanceof Value.Decimal d) {
      return normalized(d.value()).hashCode();
    } else if (v instanceof Value.Text t) {
      return t.value().hashCode();
    } else {
      return v.hashCode();
    }
    long x = n * 0x9E3779B97F4A7C15L;
    return (int) (x ^ (x >>> 32));
  }

  private static BigDecimal normalized(BigDecimal x) {
    return x.signum() == 0 ? BigDecimal.ZERO : x.stripTrailingZeros();
  }

  private static boolean same(Value a, Value b) {
    if (a instanceof Value.Int64 || a instanceof Value.Int32 || a instanceof Value.Int16) {
      return isInteger(b) && integer(a) == integer(b);
    } else if (a instanceof Value.Decimal x) {
      return b instanceof Value.Decimal y && x.value().compareTo(y.value()) == 0;
    }
    return a.equals(b);
  }

  private static boolean isInteger(Value v) {
    return v instanceof Value.Int64 || v instanceof Value.Int32 || v instanceof Value.Int16;
  }

  private static long integer(Value v) {
    if (v instanceof Value.Int64 x) {
      return x.value();
    } else if (v instanceof Value.Int32 x) {
      return x.value();
    }
    return ((Value.Int16) v).value();
  }

  /** True if key column {@code i} (in key order) holds {@code v} as the replicate compares. */
  boolean holds(int i, Value v) {
    return same(values[i], v);
  }

  /** The values, in key order (not to be changed). */
  Value[] values() {
    return values;
  }

  int size() {
    return values.length;
  }

  /**
   * The values of a key of {@code columns} integer columns (in key order) as one long, if they fit:
   * one value as is, two of 32 bits each side by side ({@link RowMap}'s packed keys). Integers of
   * any width pack by value, as keys compare.
   *
   * @return whether they fit; the long is in {@code into[0]}
   */
  static boolean pack(long first, long second, int columns, long[] into) {
    if (columns == 1) {
      into[0] = first;
      return true;
    }
    if (columns != 2 || first != (int) first || second != (int) second) {
      return false;
    }
    into[0] = (first << 32) | (second & 0xFFFF_FFFFL);
    return true;
  }

  /** This key as {@link #pack} packs it, if it has one or two integer values that fit. */
  boolean packInto(long[] into) {
    if (values.length > 2 || !isInteger(values[0])) {
      return false;
    }
    if (values.length == 1) {
      return pack(integer(values[0]), 0, 1, into);
    }
    return isInteger(values[1]) && pack(integer(values[0]), integer(values[1]), 2, into);
  }

  /** Rough heap bytes, for {@code dsi_cdb_max_size}. */
  long bytes() {
    return 24 + NetRow.bytes(values);
  }

  @Override
  public boolean equals(Object o) {
    if (o == this) {
      return true;
    }
    if (!(o instanceof RowKey k) || k.hash != hash || k.values.length != values.length) {
      return false;
    }
    for (int i = 0; i < values.length; i++) {
      if (!same(values[i], k.values[i])) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("(");
    for (int i = 0; i < values.length; i++) {
      sb.append(i == 0 ? "" : ", ").append(values[i]);
    }
    return sb.append(')').toString();
  }
}
