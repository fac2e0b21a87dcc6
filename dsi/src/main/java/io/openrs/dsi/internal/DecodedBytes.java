package io.openrs.dsi.internal;

import io.openrs.ltl.Column;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Value;
import java.util.List;

/**
 * About how many heap bytes a decoded command takes (64-bit JVM, compressed references, Latin-1
 * strings): what the hand-off counts for HVAR, whose decoded commands take several times their
 * queue bytes. A six-column row of ints, a decimal, a timestamp and a short text is about 1 KB in
 * some forty objects, against some 150 queue bytes. Rough by design, never exact: it walks the
 * command's images once, allocating nothing.
 */
final class DecodedBytes {
  private DecodedBytes() {}

  // object header and fields, rounded up: the command record, its TranId and Oqid with their
  // arrays, the TableName (whose strings are counted per command: the decoder makes new ones)
  private static final int COMMAND = 40 + 2 * (16 + 32);
  private static final int STRING = 40;
  private static final int LIST = 32;
  private static final int COLUMN = 24;

  /** Heap bytes of {@code cmd} decoded. */
  static long of(LtlCommand cmd) {
    if (cmd instanceof LtlCommand.Insert i) {
      return COMMAND + table(i.table()) + image(i.after());
    } else if (cmd instanceof LtlCommand.Update u) {
      return COMMAND + table(u.table()) + image(u.before()) + image(u.after());
    } else if (cmd instanceof LtlCommand.Delete d) {
      return COMMAND + table(d.table()) + image(d.before());
    } else if (cmd instanceof LtlCommand.Truncate t) {
      return COMMAND + table(t.table());
    } else if (cmd instanceof LtlCommand.Ddl d) {
      return COMMAND + STRING + d.statement().length();
    }
    return COMMAND + 64;
  }

  private static long table(io.openrs.ltl.TableName t) {
    return 24 + 2 * STRING + t.schema().length() + t.table().length();
  }

  private static long image(List<Column> image) {
    long b = LIST + 4L * image.size();
    for (int i = 0; i < image.size(); i++) {
      Column c = image.get(i);
      b += COLUMN + STRING + c.name().length() + value(c.value());
    }
    return b;
  }

  private static long value(Value v) {
    if (v instanceof Value.Null || v instanceof Value.Unchanged || v instanceof Value.Bool) {
      return 0; // shared instances
    } else if (v instanceof Value.Text t) {
      return 16 + STRING + t.value().length();
    } else if (v instanceof Value.Json j) {
      return 16 + STRING + j.value().length();
    } else if (v instanceof Value.Binary x) {
      return 32 + x.length();
    } else if (v instanceof Value.Decimal) {
      return 16 + 40 + 40; // BigDecimal, and a BigInteger beyond a long
    } else if (v instanceof Value.Timestamp) {
      return 16 + 24 + 24 + 24; // LocalDateTime, LocalDate, LocalTime
    } else if (v instanceof Value.TimestampTz) {
      return 16 + 24 + 24 + 24 + 24;
    } else if (v instanceof Value.Date || v instanceof Value.Time) {
      return 16 + 24;
    } else if (v instanceof Value.Uuid) {
      return 16 + 32;
    }
    return 24;
  }
}
