package io.openrs.dsi.internal.hvar;

import io.openrs.ltl.TableName;
import java.util.ArrayList;
import java.util.List;

/**
 * A sealed HVAR group: per replicate table (in the order the group first touched them) the net rows
 * by operation, ready for {@link BulkApplier}. Read-only.
 */
public final class GroupPlan {
  private final List<TablePlan> tables;
  private final long commands;
  private final long converted;
  private final long insertedAhead;

  GroupPlan(List<TablePlan> tables, long commands, long converted, long insertedAhead) {
    this.tables = List.copyOf(tables);
    this.commands = commands;
    this.converted = converted;
    this.insertedAhead = insertedAhead;
  }

  /** Net inserts that went ahead through the group's {@link InsertStream} (not in the plan). */
  public long insertedAhead() {
    return insertedAhead;
  }

  List<TablePlan> tablePlans() {
    return tables;
  }

  /** The replicate tables the group touches. */
  public List<TableName> tables() {
    List<TableName> out = new ArrayList<>(tables.size());
    for (TablePlan p : tables) {
      out.add(p.meta.name());
    }
    return out;
  }

  /** Commands compiled. */
  public long commands() {
    return commands;
  }

  /** Commands dropped by {@code x2none} and net rows rewritten by {@code i2di} / {@code u2di}. */
  public long converted() {
    return converted;
  }

  public long netInserts() {
    long n = insertedAhead;
    for (TablePlan p : tables) {
      n += p.netInserts();
    }
    return n;
  }

  public long netUpdates() {
    long n = 0;
    for (TablePlan p : tables) {
      n += p.netUpdates();
    }
    return n;
  }

  public long netDeletes() {
    long n = 0;
    for (TablePlan p : tables) {
      n += p.netDeletes();
    }
    return n;
  }

  /** True if the group changes nothing at the replicate. */
  public boolean empty() {
    return netInserts() + netUpdates() + netDeletes() == 0;
  }
}
