package io.openrs.dsi.internal.hvar;

import io.openrs.dsi.dialect.TableMeta;
import io.openrs.ltl.Value;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One replicate table's part of a sealed group: its net rows sorted by what the replicate must do.
 * Images are indexed by column position; a mask says which columns a set of rows provides (rows
 * with the same provided columns share one statement). Built by {@link NetChangeDb#seal()},
 * read-only afterwards.
 */
final class TablePlan {
  /** One net row: its key, its image, and the pre-group row its absent columns come from. */
  record Change(RowKey key, Value[] image, RowKey fill) {}

  /** Rows of a table without primary key equal in every column, {@code count} times. */
  record Counted(Value[] row, long count) {}

  final TableMeta meta;

  /** Deletes that must find their row. */
  final List<RowKey> deletes = new ArrayList<>();

  /** Deletes that may find nothing (the delete half of i2di). */
  final List<RowKey> deletesUnchecked = new ArrayList<>();

  /** Updates by the columns they set (never key columns). */
  final Map<BitSet, List<Change>> updates = new LinkedHashMap<>();

  /** Inserts by the columns they provide; absent columns take their default. */
  final Map<BitSet, List<Change>> inserts = new LinkedHashMap<>();

  /** Inserts whose absent columns come from a row saved before the group's changes. */
  final Map<BitSet, List<Change>> fillInserts = new LinkedHashMap<>();

  /** Tables without primary key: rows to delete, each {@code count} times. */
  final List<Counted> countedDeletes = new ArrayList<>();

  /** Tables without primary key: rows to insert (repeated as often as inserted). */
  final List<Value[]> countedInserts = new ArrayList<>();

  TablePlan(TableMeta meta) {
    this.meta = meta;
  }

  long netInserts() {
    long n = countedInserts.size();
    for (List<Change> l : inserts.values()) {
      n += l.size();
    }
    for (List<Change> l : fillInserts.values()) {
      n += l.size();
    }
    return n;
  }

  long netUpdates() {
    long n = 0;
    for (List<Change> l : updates.values()) {
      n += l.size();
    }
    return n;
  }

  long netDeletes() {
    long n = deletes.size() + deletesUnchecked.size();
    for (Counted c : countedDeletes) {
      n += c.count();
    }
    return n;
  }

  static BitSet mask(Value[] image) {
    BitSet b = new BitSet(image.length);
    for (int i = 0; i < image.length; i++) {
      if (image[i] != null) {
        b.set(i);
      }
    }
    return b;
  }
}
