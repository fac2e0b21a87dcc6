package io.openrs.consistency.support;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The tables the workload writes, described once and spelled per database product: every common
 * value type, a composite key, a table without a key, a parent and a child with a foreign key, a
 * unique secondary key and a large text column.
 */
public final class Schema {

  /** Column types, each with its PostgreSQL and MariaDB spelling and its replication type. */
  public enum Type {
    SMALLINT,
    INT,
    BIGINT,
    NUMERIC,
    DOUBLE,
    REAL,
    BOOL,
    DATE,
    TIME,
    TIMESTAMP,
    TIMESTAMPTZ,
    VARCHAR,
    CHAR,
    TEXT,
    BYTES,
    UUID
  }

  /** A column; {@code length} is the precision of numerics and the length of character types. */
  public record Column(String name, Type type, int length, int scale, boolean notNull) {

    /** Its type in {@code kind}'s DDL. */
    public String ddlType(Kind kind) {
      boolean pg = kind == Kind.POSTGRESQL;
      switch (type) {
        case SMALLINT:
          return pg ? "smallint" : "SMALLINT";
        case INT:
          return pg ? "integer" : "INT";
        case BIGINT:
          return pg ? "bigint" : "BIGINT";
        case NUMERIC:
          return (pg ? "numeric(" : "DECIMAL(") + length + "," + scale + ")";
        case DOUBLE:
          return pg ? "double precision" : "DOUBLE";
        case REAL:
          return pg ? "real" : "FLOAT";
        case BOOL:
          // MariaDB's BOOLEAN is TINYINT(1), which its binlog carries as a number; BIT(1) is a
          // boolean on both sides.
          return pg ? "boolean" : "BIT(1)";
        case DATE:
          return pg ? "date" : "DATE";
        case TIME:
          return pg ? "time(6)" : "TIME(6)";
        case TIMESTAMP:
          return pg ? "timestamp(6)" : "DATETIME(6)";
        case TIMESTAMPTZ:
          return pg ? "timestamptz(6)" : "TIMESTAMP(6) NULL";
        case VARCHAR:
          return (pg ? "varchar(" : "VARCHAR(") + length + ")";
        case CHAR:
          return (pg ? "char(" : "CHAR(") + length + ")";
        case TEXT:
          return pg ? "text" : "LONGTEXT";
        case BYTES:
          return pg ? "bytea" : "LONGBLOB";
        case UUID:
          return pg ? "uuid" : "CHAR(36)";
        default:
          throw new IllegalStateException(type.name());
      }
    }

    /** Its datatype in {@code create replication definition}. */
    public String repDefType() {
      switch (type) {
        case SMALLINT:
          return "smallint";
        case INT:
          return "int";
        case BIGINT:
          return "bigint";
        case NUMERIC:
          return "numeric(" + length + "," + scale + ")";
        case DOUBLE:
          return "double precision";
        case REAL:
          return "real";
        case BOOL:
          return "boolean";
        case DATE:
          return "date";
        case TIME:
          return "time";
        case TIMESTAMP:
          return "timestamp";
        case TIMESTAMPTZ:
          return "timestamptz";
        case VARCHAR:
          return "varchar(" + length + ")";
        case CHAR:
          return "char(" + length + ")";
        case TEXT:
          return "text";
        case BYTES:
          return "bytea";
        case UUID:
          return "uuid";
        default:
          throw new IllegalStateException(type.name());
      }
    }
  }

  /** A foreign key {@code columns} referencing {@code parent(parentColumns)}. */
  public record ForeignKey(List<String> columns, String parent, List<String> parentColumns) {}

  /** A table; an empty {@code key} is a table without a primary key. */
  public record Table(
      String name,
      List<Column> columns,
      List<String> key,
      List<List<String>> uniques,
      Optional<ForeignKey> foreignKey) {

    public Column column(String name) {
      return columns.stream()
          .filter(c -> c.name().equals(name))
          .findFirst()
          .orElseThrow(() -> new IllegalArgumentException(this.name + " has no column " + name));
    }

    public List<String> columnNames() {
      return columns.stream().map(Column::name).toList();
    }

    public boolean keyless() {
      return key.isEmpty();
    }

    /** {@code CREATE TABLE schema.name (...)} for {@code kind}. */
    public String createTable(Kind kind, String schema, boolean withForeignKey) {
      List<String> parts = new ArrayList<>();
      for (Column c : columns) {
        parts.add(c.name() + " " + c.ddlType(kind) + (c.notNull() ? " NOT NULL" : ""));
      }
      if (!key.isEmpty()) {
        parts.add("PRIMARY KEY (" + String.join(", ", key) + ")");
      }
      int u = 0;
      for (List<String> unique : uniques) {
        parts.add(
            "CONSTRAINT " + name + "_uq" + (++u) + " UNIQUE (" + String.join(", ", unique) + ")");
      }
      if (withForeignKey && foreignKey.isPresent()) {
        ForeignKey fk = foreignKey.get();
        parts.add(
            "CONSTRAINT "
                + name
                + "_fk FOREIGN KEY ("
                + String.join(", ", fk.columns())
                + ") REFERENCES "
                + schema
                + "."
                + fk.parent()
                + " ("
                + String.join(", ", fk.parentColumns())
                + ")");
      }
      return "CREATE TABLE "
          + schema
          + "."
          + name
          + " (\n  "
          + String.join(",\n  ", parts)
          + "\n)"
          + (kind == Kind.MARIADB ? " ENGINE=InnoDB" : "");
    }

    /**
     * {@code create replication definition <rd> with primary at <origin> with all tables named
     * schema.name with replicate table named schema.name (...) primary key (...)}, every column
     * listed; {@code searchable} columns may appear in where clauses.
     */
    public String createRepDef(String rd, String origin, String schema, List<String> searchable) {
      String cols =
          columns.stream()
              .map(c -> c.name() + " " + c.repDefType())
              .collect(Collectors.joining(", "));
      return "create replication definition "
          + rd
          + " with primary at "
          + origin
          + " with all tables named "
          + schema
          + "."
          + name
          + " with replicate table named "
          + schema
          + "."
          + name
          + " ("
          + cols
          + ")"
          + (key.isEmpty() ? "" : " primary key (" + String.join(", ", key) + ")")
          + (searchable.isEmpty()
              ? ""
              : " searchable columns (" + String.join(", ", searchable) + ")");
    }
  }

  private static Column col(String name, Type type) {
    return new Column(name, type, 0, 0, false);
  }

  private static Column col(String name, Type type, int length) {
    return new Column(name, type, length, 0, false);
  }

  private static Column num(String name, int precision, int scale) {
    return new Column(name, Type.NUMERIC, precision, scale, false);
  }

  private static Column notNull(Column c) {
    return new Column(c.name(), c.type(), c.length(), c.scale(), true);
  }

  /** Every value type; the primary key is updated by the workload; {@code big} holds > 64 KiB. */
  public static final Table ACCT =
      new Table(
          "acct",
          List.of(
              notNull(col("id", Type.BIGINT)),
              notNull(col("owner", Type.INT)),
              col("i", Type.INT),
              col("si", Type.SMALLINT),
              num("n", 18, 4),
              col("f", Type.DOUBLE),
              col("r", Type.REAL),
              col("b", Type.BOOL),
              col("d", Type.DATE),
              col("tm", Type.TIME),
              col("ts", Type.TIMESTAMP),
              col("tz", Type.TIMESTAMPTZ),
              col("v", Type.VARCHAR, 40),
              col("c", Type.CHAR, 8),
              col("u", Type.UUID),
              col("bin", Type.BYTES),
              col("big", Type.TEXT)),
          List.of("id"),
          List.of(),
          Optional.empty());

  /** The parent: a unique secondary key on {@code email}. */
  public static final Table ORDERS =
      new Table(
          "orders",
          List.of(
              notNull(col("id", Type.BIGINT)),
              notNull(col("owner", Type.INT)),
              notNull(col("email", Type.VARCHAR, 80)),
              col("region", Type.VARCHAR, 8),
              num("amount", 12, 2),
              col("placed", Type.TIMESTAMPTZ),
              col("status", Type.VARCHAR, 12)),
          List.of("id"),
          List.of(List.of("email")),
          Optional.empty());

  /** The child: a composite key whose second part the workload updates, a foreign key. */
  public static final Table ORDER_LINE =
      new Table(
          "order_line",
          List.of(
              notNull(col("order_id", Type.BIGINT)),
              notNull(col("line_no", Type.INT)),
              col("sku", Type.VARCHAR, 20),
              col("qty", Type.INT),
              num("price", 10, 2),
              col("note", Type.TEXT)),
          List.of("order_id", "line_no"),
          List.of(),
          Optional.of(new ForeignKey(List.of("order_id"), "orders", List.of("id"))));

  /** A composite key of three types (smallint, varchar, date); the date part is updated. */
  public static final Table STOCK =
      new Table(
          "stock",
          List.of(
              notNull(col("wh", Type.SMALLINT)),
              notNull(col("sku", Type.VARCHAR, 20)),
              notNull(col("dt", Type.DATE)),
              col("qty", Type.INT),
              num("reserved", 9, 3),
              col("note", Type.VARCHAR, 40)),
          List.of("wh", "sku", "dt"),
          List.of(),
          Optional.empty());

  /** No primary key: rows may repeat exactly (PostgreSQL primary: REPLICA IDENTITY FULL). */
  public static final Table EVT =
      new Table(
          "evt",
          List.of(
              col("k", Type.BIGINT),
              col("client", Type.INT),
              col("msg", Type.TEXT),
              col("happened", Type.TIMESTAMP),
              num("amount", 10, 2),
              col("flag", Type.BOOL)),
          List.of(),
          List.of(),
          Optional.empty());

  /**
   * Markers the suite writes to know the pipeline carries changes and has delivered everything; not
   * compared (markers written before the agent captured are never sent).
   */
  public static final Table SYNC =
      new Table(
          "cs_sync",
          List.of(notNull(col("id", Type.INT)), col("note", Type.VARCHAR, 40)),
          List.of("id"),
          List.of(),
          Optional.empty());

  /** Every table, parents before children. */
  public static final List<Table> TABLES = List.of(ACCT, ORDERS, ORDER_LINE, STOCK, EVT, SYNC);

  /** The tables whose contents are compared. */
  public static final List<Table> COMPARED = List.of(ACCT, ORDERS, ORDER_LINE, STOCK, EVT);

  private Schema() {}

  public static Table table(String name) {
    return TABLES.stream()
        .filter(t -> t.name().equals(name))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no table " + name));
  }

  /** The column names of {@code t}, comma-separated. */
  public static String columnList(Table t) {
    return String.join(", ", t.columnNames());
  }

  static List<String> names(String... names) {
    return Arrays.asList(names);
  }
}
