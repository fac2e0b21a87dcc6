package io.openrs.dsi.internal.hvar;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A table's net rows in a group, by key: a map from {@link RowKey} to {@link NetRow}, except that
 * keys inserted ahead ({@link NetRow#STREAMED}) whose values are integers that fit one long (a key
 * of one integer column, or of two whose values fit 32 bits each) are kept as that long in a {@link
 * StreamedKeys} set (sorted while keys ascend, else HPPC's primitive {@code LongHashSet}): no key
 * object, no values, no map entry per row. Under a backlog of inserts that is nearly every row of
 * the group, and the map's entries were the largest item of the compiling thread
 * (docs/performance.md).
 *
 * <p>A key is in at most one of the two. Integer values are packed by value whatever their width,
 * as {@link RowKey} compares them, so a key means the same row in either. Not thread-safe.
 */
final class RowMap {
  private final Map<RowKey, NetRow> rows;
  private final StreamedKeys streamed;
  private final boolean packs;

  /**
   * @param keyColumns the table's primary key columns
   * @param expected about how many rows the group will hold
   */
  RowMap(int keyColumns, int expected) {
    this.packs = keyColumns == 1 || keyColumns == 2;
    // a LinkedHashMap holds capacity * 0.75 entries before it grows
    this.rows =
        new LinkedHashMap<>(
            packs || expected < 12 ? 16 : (int) Math.min(1 << 30, expected / 3L * 4 + 4));
    this.streamed = new StreamedKeys(packs ? expected : 0);
  }

  /** True if keys of this table may be packed (one or two key columns). */
  boolean packs() {
    return packs;
  }

  private final long[] packed = new long[1];

  /** Packs {@code k} into {@link #packed} ({@link RowKey#packInto}) if this table's keys pack. */
  private boolean pack(RowKey k) {
    return packs() && k.packInto(packed);
  }

  NetRow get(RowKey k) {
    NetRow r = rows.get(k);
    if (r == null && !streamed.isEmpty() && pack(k) && streamed.contains(packed[0])) {
      return NetRow.STREAMED;
    }
    return r;
  }

  /** As {@link Map#putIfAbsent}. */
  NetRow putIfAbsent(RowKey k, NetRow row) {
    NetRow e = get(k);
    if (e != null) {
      return e;
    }
    put(k, row);
    return null;
  }

  /**
   * As {@link Map#put}; {@code row} is not null. A key the map holds keeps its place in the map's
   * order.
   */
  NetRow put(RowKey k, NetRow row) {
    if (row == NetRow.STREAMED && pack(k)) {
      long p = packed[0];
      NetRow old = rows.remove(k);
      boolean added = streamed.add(p);
      return old != null ? old : added ? null : NetRow.STREAMED;
    }
    NetRow old = rows.put(k, row);
    if (old == null && !streamed.isEmpty() && pack(k) && streamed.remove(packed[0])) {
      return NetRow.STREAMED;
    }
    return old;
  }

  /** As {@link Map#remove}. */
  NetRow remove(RowKey k) {
    NetRow old = rows.remove(k);
    if (old == null && !streamed.isEmpty() && pack(k) && streamed.remove(packed[0])) {
      return NetRow.STREAMED;
    }
    return old;
  }

  /** True if {@code k} is the key of a row that was not inserted ahead. */
  boolean holdsMapped(RowKey k) {
    return rows.containsKey(k);
  }

  /** True if the map holds any row (not only keys inserted ahead). */
  boolean hasMapped() {
    return !rows.isEmpty();
  }

  /**
   * Records a key inserted ahead, packed by the caller ({@link RowKey#pack}), if the table holds no
   * row under it; whether it was recorded. {@code key} is the same key unpacked, needed (and looked
   * up) only when {@link #hasMapped()}; null otherwise.
   */
  boolean streamIfAbsent(long packedKey, RowKey key) {
    if (key != null && rows.containsKey(key)) {
      return false;
    }
    return streamed.add(packedKey);
  }

  /** Forgets a key {@link #streamIfAbsent} recorded (a transaction taken back). */
  void unstream(long packedKey) {
    streamed.remove(packedKey);
  }

  int size() {
    return rows.size() + streamed.size();
  }

  /** The rows that are not inserted ahead, in the order their keys were first put. */
  Iterable<Map.Entry<RowKey, NetRow>> mapped() {
    return rows.entrySet();
  }
}
