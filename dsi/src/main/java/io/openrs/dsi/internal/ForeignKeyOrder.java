package io.openrs.dsi.internal;

import io.openrs.ltl.TableName;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Orders a group's tables so that every table comes after the tables its foreign keys reference:
 * inserts and updates run in this order (parents first), deletes in reverse (children first). Only
 * references between tables of the group count. Table names match the catalog's ignoring case.
 * References that form a cycle (other than a table referencing itself) cannot be ordered: the
 * tables of a cycle keep the group's order, and a constraint a set-based statement then violates
 * fails the group, which is applied again in continuous mode.
 */
public final class ForeignKeyOrder {
  private ForeignKeyOrder() {}

  /**
   * @param tables the group's tables, in the order the group first touched them
   * @param parents each table's referenced tables, as the replicate's catalog names them
   * @return the tables, parents first
   */
  public static List<TableName> parentsFirst(
      List<TableName> tables, Map<TableName, List<TableName>> parents) {
    Map<String, TableName> byKey = new LinkedHashMap<>();
    for (TableName t : tables) {
      byKey.putIfAbsent(key(t), t);
    }
    Map<TableName, Set<TableName>> needs = new LinkedHashMap<>();
    for (TableName t : tables) {
      Set<TableName> in = new LinkedHashSet<>();
      for (TableName p : parents.getOrDefault(t, List.of())) {
        TableName q = byKey.get(key(p));
        if (q != null && !q.equals(t)) {
          in.add(q);
        }
      }
      needs.put(t, in);
    }
    List<TableName> out = new ArrayList<>(tables.size());
    Set<TableName> placed = new LinkedHashSet<>();
    boolean progress = true;
    while (out.size() < needs.size() && progress) {
      progress = false;
      for (Map.Entry<TableName, Set<TableName>> e : needs.entrySet()) {
        if (!placed.contains(e.getKey()) && placed.containsAll(e.getValue())) {
          out.add(e.getKey());
          placed.add(e.getKey());
          progress = true;
        }
      }
    }
    for (TableName t : needs.keySet()) {
      if (placed.add(t)) {
        out.add(t); // a cycle: group order
      }
    }
    return out;
  }

  private static String key(TableName t) {
    return t.schema().toLowerCase(Locale.ROOT) + "\u0000" + t.table().toLowerCase(Locale.ROOT);
  }
}
