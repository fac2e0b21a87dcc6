package io.openrs.dsi.hvar;

import io.openrs.ltl.Value;
import java.math.BigDecimal;
import java.util.Arrays;

/**
 * A row's identity in the net-change database: its primary key's values, or every column for a
 * table without one. Equal when the replicate would find the same row: integers compare by value
 * whatever their width, decimals whatever their scale ({@code 1.50} is {@code 1.5}); other values
 * by {@link Value#equals}. Keeps the values as first seen, for binding. Immutable.
 */
final class RowKey {
  private final Value[] values;
  private final Object[] parts;
  private final int hash;

  private RowKey(Value[] values) {
    this.values = values;
    this.parts = new Object[values.length];
    for (int i = 0; i < values.length; i++) {
      parts[i] = normalize(values[i]);
    }
    this.hash = Arrays.hashCode(parts);
  }

  /** The key of {@code values} (not copied: the caller hands it over). */
  static RowKey of(Value[] values) {
    return new RowKey(values);
  }

  private static Object normalize(Value v) {
    if (v instanceof Value.Int64 n) {
      return n.value();
    } else if (v instanceof Value.Int32 n) {
      return (long) n.value();
    } else if (v instanceof Value.Int16 n) {
      return (long) n.value();
    } else if (v instanceof Value.Decimal d) {
      BigDecimal x = d.value();
      return x.signum() == 0 ? BigDecimal.ZERO : x.stripTrailingZeros();
    } else if (v instanceof Value.Text t) {
      return t.value();
    }
    return v;
  }

  /** The values, in key order (not to be changed). */
  Value[] values() {
    return values;
  }

  int size() {
    return values.length;
  }

  /** Rough heap bytes, for {@code dsi_cdb_max_size}. */
  long bytes() {
    return 32 + 2L * NetRow.bytes(values);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RowKey k && k.hash == hash && Arrays.equals(k.parts, parts);
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
