package io.openrs.repserver.nrm;

import io.openrs.config.rssd.RepDef;
import io.openrs.config.rssd.RepDefColumn;
import io.openrs.ltl.Column;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.TableName;
import io.openrs.ltl.Value;
import io.openrs.repserver.rules.ReplicationRules;
import io.openrs.repserver.rules.TableRules;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Checks one origin's row changes against the replication definitions covering their tables and
 * drops what is not replicated (NRM).
 *
 * <ul>
 *   <li>A table no definition covers: the change is dropped and counted ({@code CmdsNoRepdef}).
 *   <li>A database-level definition covers the table: every column is replicated as it arrives.
 *   <li>Table-level definitions: columns none of them lists are dropped (counted); a listed column
 *       whose value does not fit its declared type, a primary-key column missing from the image
 *       that identifies the row, or a listed column missing from an insert is a {@link
 *       NormalizationException} naming OQID, table and column.
 * </ul>
 *
 * Names stay the primary's here; DIST maps them to each subscription's replicate names.
 *
 * <p>Owned by the NRM thread of one origin (or the EXEC thread in inline mode); not thread-safe.
 */
public final class Normalizer {

  private final int originId;
  private final ReplicationRules rules;
  private final NrmStats stats;
  private final Map<TableName, CompiledTable> tables = new HashMap<>();
  private long rulesVersion = -1;

  private record CompiledTable(
      TableRules rules, Map<String, ColumnTypes.Family> columns, List<List<String>> keys) {}

  public Normalizer(int originId, ReplicationRules rules, NrmStats stats) {
    this.originId = originId;
    this.rules = rules;
    this.stats = stats;
  }

  /**
   * The command as it goes to the inbound queue, or empty when it is not replicated.
   *
   * @throws NormalizationException when the change contradicts its replication definition
   */
  public Optional<LtlCommand.InTransaction> normalize(LtlCommand.InTransaction command)
      throws NormalizationException {
    if (!(command instanceof LtlCommand.RowChange change)) {
      if (command instanceof LtlCommand.Truncate t && !table(t.table()).rules().replicated()) {
        stats.cmdsNoRepdef++;
        return Optional.empty();
      }
      return Optional.of(command);
    }
    CompiledTable table = table(change.table());
    if (!table.rules().replicated()) {
      stats.cmdsNoRepdef++;
      return Optional.empty();
    }
    if (table.rules().coveredByDatabaseRepDef()) {
      return Optional.of(command);
    }
    if (change instanceof LtlCommand.Insert i) {
      List<Column> after = filter(i, table, i.after());
      requireAll(i, table, after);
      requireKey(i, table, after, "insert");
      return Optional.of(new LtlCommand.Insert(i.tran(), i.oqid(), i.table(), i.snapshot(), after));
    } else if (change instanceof LtlCommand.Update u) {
      List<Column> before = filter(u, table, u.before());
      List<Column> after = filter(u, table, u.after());
      requireKey(u, table, before, "update's before image");
      return Optional.of(new LtlCommand.Update(u.tran(), u.oqid(), u.table(), before, after));
    } else {
      LtlCommand.Delete d = (LtlCommand.Delete) change;
      List<Column> before = filter(d, table, d.before());
      requireKey(d, table, before, "delete");
      return Optional.of(new LtlCommand.Delete(d.tran(), d.oqid(), d.table(), before));
    }
  }

  private CompiledTable table(TableName name) {
    long v = rules.version();
    if (v != rulesVersion) {
      tables.clear();
      rulesVersion = v;
    }
    CompiledTable t = tables.get(name);
    if (t == null) {
      t = compile(rules.forTable(originId, name));
      tables.put(name, t);
    }
    return t;
  }

  private static CompiledTable compile(TableRules r) {
    Map<String, ColumnTypes.Family> columns = new HashMap<>();
    List<List<String>> keys = new ArrayList<>();
    for (RepDef d : r.tableRepDefs()) {
      List<String> all = new ArrayList<>();
      for (RepDefColumn c : d.columns()) {
        all.add(c.name());
        ColumnTypes.familyOf(c.type()).ifPresent(f -> columns.putIfAbsent(c.name(), f));
        if (ColumnTypes.familyOf(c.type()).isEmpty()) {
          columns.putIfAbsent(c.name(), null);
        }
      }
      keys.add(d.primaryKey().isEmpty() ? all : d.primaryKey());
    }
    return new CompiledTable(r, columns, keys);
  }

  private List<Column> filter(LtlCommand.RowChange change, CompiledTable table, List<Column> image)
      throws NormalizationException {
    List<Column> out = new ArrayList<>(image.size());
    for (Column c : image) {
      if (!table.columns().containsKey(c.name())) {
        stats.columnsDropped++;
        continue;
      }
      ColumnTypes.Family f = table.columns().get(c.name());
      if (f != null && !f.accepts(c.value())) {
        throw new NormalizationException(
            change.oqid(),
            change.table(),
            Optional.of(c.name()),
            "a "
                + kind(c.value())
                + " value does not fit the replication definition's type family "
                + f.name().toLowerCase(java.util.Locale.ROOT));
      }
      out.add(c);
    }
    return out;
  }

  private void requireAll(LtlCommand.Insert i, CompiledTable table, List<Column> after)
      throws NormalizationException {
    Set<String> present = names(after);
    for (RepDef d : table.rules().tableRepDefs()) {
      for (RepDefColumn c : d.columns()) {
        if (!present.contains(c.name())) {
          throw new NormalizationException(
              i.oqid(),
              i.table(),
              Optional.of(c.name()),
              "the insert does not carry column "
                  + c.name()
                  + " of replication definition "
                  + d.name());
        }
      }
      for (Column c : after) {
        if (c.value() instanceof Value.Unchanged) {
          throw new NormalizationException(
              i.oqid(),
              i.table(),
              Optional.of(c.name()),
              "an insert cannot carry an unchanged (not provided) value");
        }
      }
    }
  }

  private void requireKey(
      LtlCommand.RowChange change, CompiledTable table, List<Column> image, String what)
      throws NormalizationException {
    Map<String, Value> values = new HashMap<>();
    for (Column c : image) {
      values.put(c.name(), c.value());
    }
    for (List<String> key : table.keys()) {
      for (String k : key) {
        Value v = values.get(k);
        if (v == null || v instanceof Value.Unchanged) {
          throw new NormalizationException(
              change.oqid(),
              change.table(),
              Optional.of(k),
              "the " + what + " does not carry primary-key column " + k);
        }
      }
    }
  }

  private static Set<String> names(List<Column> image) {
    Set<String> s = new HashSet<>();
    for (Column c : image) {
      s.add(c.name());
    }
    return s;
  }

  private static String kind(Value v) {
    return v.getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT);
  }
}
