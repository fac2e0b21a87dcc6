package io.openrs.dsi.dialect;

import io.openrs.ltl.TableName;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** A replicate table as the DSI needs it: its columns, primary key and unique keys. Immutable. */
public final class TableMeta {
  private final TableName name;
  private final List<ColumnMeta> columns;
  private final List<String> primaryKey;
  private final List<List<String>> uniqueKeys;
  private final Map<String, ColumnMeta> byName = new HashMap<>();
  private final List<String> alwaysIdentity;
  private final boolean deferrableKeys;
  private final boolean deferrableConstraints;

  /**
   * @param name the table
   * @param columns its columns in catalog order; empty if the table does not exist (statements then
   *     fail with the database's own error, which names the table)
   * @param primaryKey the primary key's columns in key order; empty if it has none
   * @param uniqueKeys the other unique keys (without expressions or predicates), each in key order
   */
  public TableMeta(
      TableName name,
      List<ColumnMeta> columns,
      List<String> primaryKey,
      List<List<String>> uniqueKeys) {
    this(name, columns, primaryKey, uniqueKeys, List.of(), false, false);
  }

  /**
   * @param alwaysIdentity the identity columns the replicate generates always (PostgreSQL {@code
   *     GENERATED ALWAYS AS IDENTITY}): an insert must say it brings their values, an update cannot
   *     set them
   * @param deferrableKeys the primary key or a unique key is {@code DEFERRABLE}: rows may hold
   *     equal keys inside a transaction
   * @param deferrableConstraints a constraint on the table, or a foreign key referencing it, is
   *     {@code DEFERRABLE} (may be checked at commit)
   */
  public TableMeta(
      TableName name,
      List<ColumnMeta> columns,
      List<String> primaryKey,
      List<List<String>> uniqueKeys,
      List<String> alwaysIdentity,
      boolean deferrableKeys,
      boolean deferrableConstraints) {
    this.alwaysIdentity = List.copyOf(alwaysIdentity);
    this.deferrableKeys = deferrableKeys;
    this.deferrableConstraints = deferrableConstraints;
    this.name = Objects.requireNonNull(name, "name");
    this.columns = List.copyOf(columns);
    this.primaryKey = List.copyOf(primaryKey);
    this.uniqueKeys = uniqueKeys.stream().map(List::copyOf).toList();
    for (ColumnMeta c : this.columns) {
      byName.putIfAbsent(c.name(), c);
    }
    for (ColumnMeta c : this.columns) {
      byName.putIfAbsent(c.name().toLowerCase(Locale.ROOT), c);
    }
  }

  public TableName name() {
    return name;
  }

  public List<ColumnMeta> columns() {
    return columns;
  }

  public List<String> primaryKey() {
    return primaryKey;
  }

  public List<List<String>> uniqueKeys() {
    return uniqueKeys;
  }

  /** The identity columns generated always (an insert needs an override, an update skips). */
  public List<String> alwaysIdentity() {
    return alwaysIdentity;
  }

  /**
   * True if the primary key or a unique key is deferrable: equal keys may meet in a transaction.
   */
  public boolean deferrableKeys() {
    return deferrableKeys;
  }

  /** True if a constraint on the table or a foreign key referencing it is deferrable. */
  public boolean deferrableConstraints() {
    return deferrableConstraints;
  }

  /** True if the catalog knows the table. */
  public boolean exists() {
    return !columns.isEmpty();
  }

  /** True if the table has a primary key. */
  public boolean keyed() {
    return !primaryKey.isEmpty();
  }

  /**
   * The column {@code name}: exact spelling first, then ignoring case (MariaDB column names are
   * case-insensitive). Empty if the table has no such column.
   */
  public Optional<ColumnMeta> column(String columnName) {
    ColumnMeta c = byName.get(columnName);
    if (c == null) {
      c = byName.get(columnName.toLowerCase(Locale.ROOT));
    }
    return Optional.ofNullable(c);
  }

  @Override
  public String toString() {
    return "TableMeta[" + name + ", key=" + primaryKey + ", columns=" + columns.size() + "]";
  }
}
