package io.openrs.dsi.internal.hvar;

import io.openrs.ltl.Value;

/**
 * The net change of one row of a keyed table within a group: what the replicate must do so that the
 * row ends as the group's last command left it. Immutable: a new command replaces the entry.
 *
 * <ul>
 *   <li>{@code INSERT}: the row did not exist before the group; {@code image} is its final state
 *       (columns not provided take their default, or with a {@code fill} key the value of the row
 *       that key named before the group: a primary-key update moved it here).
 *   <li>{@code UPDATE}: the row existed and keeps its key; {@code image} holds the columns set,
 *       with their last values (the union of every update's changed columns).
 *   <li>{@code DELETE}: the row existed and is gone.
 *   <li>{@code DELETE_INSERT}: the row existed, was deleted, and a row with this key was inserted:
 *       delete, then insert {@code image}.
 * </ul>
 *
 * Images are indexed by the replicate table's column position; {@code null} means not provided.
 */
final class NetRow {
  enum State {
    INSERT,
    UPDATE,
    DELETE,
    DELETE_INSERT,
    /** Inserted ahead of the group's apply ({@link InsertStream}): in the table by then. */
    STREAMED
  }

  final State state;
  final Value[] image;
  final RowKey fill;

  /** The delete must find its row ({@code dsi_row_count_validation}); false for i2di's. */
  final boolean deleteChecked;

  NetRow(State state, Value[] image, RowKey fill, boolean deleteChecked) {
    this.state = state;
    this.image = image;
    this.fill = fill;
    this.deleteChecked = deleteChecked;
  }

  /** A key whose insert went ahead through the group's {@link InsertStream}. */
  static final NetRow STREAMED = new NetRow(State.STREAMED, null, null, false);

  static NetRow insert(Value[] image, RowKey fill) {
    return new NetRow(State.INSERT, image, fill, false);
  }

  static NetRow update(Value[] set) {
    return new NetRow(State.UPDATE, set, null, false);
  }

  static NetRow delete(boolean checked) {
    return new NetRow(State.DELETE, null, null, checked);
  }

  static NetRow deleteInsert(Value[] image, RowKey fill, boolean checked) {
    return new NetRow(State.DELETE_INSERT, image, fill, checked);
  }

  /** Rough heap bytes, for {@code dsi_cdb_max_size}. */
  long bytes() {
    return 48 + (image == null ? 0 : bytes(image)) + (fill == null ? 0 : fill.bytes());
  }

  /** {@code base} with every value {@code over} provides put over it (a new array). */
  static Value[] overlay(Value[] base, Value[] over) {
    Value[] out = base.clone();
    for (int i = 0; i < over.length; i++) {
      if (over[i] != null) {
        out[i] = over[i];
      }
    }
    return out;
  }

  /** True if no column has a value. */
  static boolean none(Value[] image) {
    for (Value v : image) {
      if (v != null) {
        return false;
      }
    }
    return true;
  }

  /** True if every column has a value. */
  static boolean complete(Value[] image) {
    for (Value v : image) {
      if (v == null) {
        return false;
      }
    }
    return true;
  }

  static long bytes(Value[] values) {
    long b = 16L + 8L * values.length;
    for (Value v : values) {
      if (v == null) {
        continue;
      }
      if (v instanceof Value.Text t) {
        b += 40 + 2L * t.value().length();
      } else if (v instanceof Value.Json j) {
        b += 40 + 2L * j.value().length();
      } else if (v instanceof Value.Binary x) {
        b += 32 + x.length();
      } else if (v instanceof Value.Decimal) {
        b += 64;
      } else {
        b += 24;
      }
    }
    return b;
  }
}
