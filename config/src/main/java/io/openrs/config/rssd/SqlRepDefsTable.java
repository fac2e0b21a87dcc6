package io.openrs.config.rssd;

import static io.openrs.config.rssd.SystemTable.RS_DBREPS;
import static io.openrs.config.rssd.SystemTable.RS_OBJECTS;

import io.openrs.config.rssd.RssdException.Reason;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@link RepDefsTable} on {@code rs_objects}/{@code rs_columns} (table repdefs) and {@code
 * rs_dbreps}/{@code rs_dbsubsets} (database repdefs).
 */
final class SqlRepDefsTable implements RepDefsTable {
  private static final String SELECT_REPDEFS =
      "select o.objname, o.prim_conn_id, o.prim_schema, o.prim_table, o.repl_schema, o.repl_table,"
          + " c.colnum, c.colname, c.coltype, c.repl_colname, c.key_pos, c.searchable_pos"
          + " from rs_objects o left join rs_columns c on c.objname = o.objname";
  private static final String ORDER_REPDEFS = " order by o.objname, c.colnum";
  private static final String SELECT_DBREPS =
      "select d.dbrepname, d.prim_conn_id, s.subset_type, s.seq, s.pattern"
          + " from rs_dbreps d left join rs_dbsubsets s on s.dbrepname = d.dbrepname";
  private static final String ORDER_DBREPS = " order by d.dbrepname, s.subset_type, s.seq";
  private static final String INCLUDE = "I";
  private static final String EXCLUDE = "E";

  private final Jdbc jdbc;
  private final Clock clock;

  SqlRepDefsTable(Jdbc jdbc, Clock clock) {
    this.jdbc = jdbc;
    this.clock = clock;
  }

  @Override
  public void create(RepDef d) {
    String name = d.name();
    Jdbc.requireName(RS_OBJECTS, name, "replication definition name", name);
    validate(d);
    jdbc.write(
        RS_OBJECTS,
        name,
        RS_OBJECTS,
        c -> {
          requirePrimary(c, d.primaryConnectionId(), RS_OBJECTS, name);
          requireNameFree(c, name, RS_OBJECTS);
          try (PreparedStatement ps =
              c.prepareStatement(
                  "insert into rs_objects (objname, prim_conn_id, prim_schema, prim_table,"
                      + " repl_schema, repl_table, created) values (?, ?, ?, ?, ?, ?, ?)")) {
            ps.setString(1, name);
            ps.setInt(2, d.primaryConnectionId());
            ps.setString(3, d.primarySchema());
            ps.setString(4, d.primaryTable());
            ps.setString(5, d.replicateSchema());
            ps.setString(6, d.replicateTable());
            Jdbc.setInstant(ps, 7, clock.instant());
            ps.executeUpdate();
          } catch (SQLException e) {
            throw nameTakenOr(e, name, RS_OBJECTS);
          }
          insertColumns(c, d);
          return null;
        });
  }

  @Override
  public void alterColumns(RepDef d) {
    String name = d.name();
    validate(d);
    jdbc.write(
        RS_OBJECTS,
        name,
        RS_OBJECTS,
        c -> {
          if (!lockDefinition(c, RS_OBJECTS, "objname", name)) {
            throw new RssdException(
                Reason.NOT_FOUND,
                RS_OBJECTS.sqlName(),
                name,
                "no replication definition named " + name);
          }
          try (PreparedStatement ps =
              c.prepareStatement("delete from rs_columns where objname = ?")) {
            ps.setString(1, name);
            ps.executeUpdate();
          }
          insertColumns(c, d);
          return null;
        });
  }

  private static void insertColumns(Connection c, RepDef d) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "insert into rs_columns (objname, colnum, colname, coltype, repl_colname,"
                + " key_pos, searchable_pos) values (?, ?, ?, ?, ?, ?, ?)")) {
      int colnum = 0;
      for (RepDefColumn col : d.columns()) {
        colnum++;
        ps.setString(1, d.name());
        ps.setInt(2, colnum);
        ps.setString(3, col.name());
        ps.setString(4, col.type());
        ps.setString(5, col.replicateName());
        setPosition(ps, 6, d.primaryKey().indexOf(col.name()));
        setPosition(ps, 7, d.searchableColumns().indexOf(col.name()));
        ps.addBatch();
      }
      if (colnum > 0) {
        ps.executeBatch();
      }
    }
  }

  private static void setPosition(PreparedStatement ps, int index, int position)
      throws SQLException {
    if (position < 0) {
      ps.setNull(index, java.sql.Types.INTEGER);
    } else {
      ps.setInt(index, position + 1);
    }
  }

  private static void validate(RepDef d) {
    String name = d.name();
    Set<String> columns = new HashSet<>();
    for (RepDefColumn col : d.columns()) {
      Jdbc.requireName(RS_OBJECTS, name, "column name", col.name());
      Jdbc.requireName(RS_OBJECTS, name, "datatype of column " + col.name(), col.type());
      Jdbc.requireName(
          RS_OBJECTS, name, "replicate name of column " + col.name(), col.replicateName());
      if (!columns.add(col.name())) {
        throw invalid(name, "column " + col.name() + " appears twice");
      }
    }
    Jdbc.requireName(RS_OBJECTS, name, "primary table", d.primaryTable());
    Jdbc.requireName(RS_OBJECTS, name, "replicate table", d.replicateTable());
    checkSubset(name, "primary key", d.primaryKey(), columns);
    checkSubset(name, "searchable column", d.searchableColumns(), columns);
  }

  private static void checkSubset(
      String name, String what, List<String> listed, Set<String> columns) {
    Set<String> seen = new HashSet<>();
    for (String col : listed) {
      if (!columns.contains(col)) {
        throw invalid(name, what + " " + col + " is not a column of the replication definition");
      }
      if (!seen.add(col)) {
        throw invalid(name, what + " " + col + " is listed twice");
      }
    }
  }

  private static RssdException invalid(String name, String message) {
    return new RssdException(
        Reason.INVALID,
        RS_OBJECTS.sqlName(),
        name,
        "replication definition " + name + ": " + message);
  }

  @Override
  public void createDatabaseRepDef(DatabaseRepDef d) {
    String name = d.name();
    Jdbc.requireName(RS_DBREPS, name, "database replication definition name", name);
    for (String p : d.includeTables()) {
      Jdbc.requireName(RS_DBREPS, name, "table pattern", p);
    }
    for (String p : d.excludeTables()) {
      Jdbc.requireName(RS_DBREPS, name, "table pattern", p);
    }
    jdbc.write(
        RS_DBREPS,
        name,
        RS_DBREPS,
        c -> {
          requirePrimary(c, d.primaryConnectionId(), RS_DBREPS, name);
          requireNameFree(c, name, RS_DBREPS);
          try (PreparedStatement ps =
              c.prepareStatement(
                  "insert into rs_dbreps (dbrepname, prim_conn_id, created) values (?, ?, ?)")) {
            ps.setString(1, name);
            ps.setInt(2, d.primaryConnectionId());
            Jdbc.setInstant(ps, 3, clock.instant());
            ps.executeUpdate();
          } catch (SQLException e) {
            throw nameTakenOr(e, name, RS_DBREPS);
          }
          try (PreparedStatement ps =
              c.prepareStatement(
                  "insert into rs_dbsubsets (dbrepname, subset_type, seq, pattern)"
                      + " values (?, ?, ?, ?)")) {
            int rows = addSubsets(ps, name, INCLUDE, d.includeTables());
            rows += addSubsets(ps, name, EXCLUDE, d.excludeTables());
            if (rows > 0) {
              ps.executeBatch();
            }
          }
          return null;
        });
  }

  private static int addSubsets(
      PreparedStatement ps, String name, String type, List<String> patterns) throws SQLException {
    int seq = 0;
    for (String pattern : patterns) {
      seq++;
      ps.setString(1, name);
      ps.setString(2, type);
      ps.setInt(3, seq);
      ps.setString(4, pattern);
      ps.addBatch();
    }
    return seq;
  }

  private static void requirePrimary(Connection c, int connectionId, SystemTable table, String name)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("select 1 from rs_connections where conn_id = ?")) {
      ps.setInt(1, connectionId);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw new RssdException(
              Reason.NOT_FOUND,
              table.sqlName(),
              name,
              "replication definition "
                  + name
                  + " names primary connection id "
                  + connectionId
                  + ", which is not in rs_connections");
        }
      }
    }
  }

  /** Table and database repdefs share one name space. */
  private static void requireNameFree(Connection c, String name, SystemTable table)
      throws SQLException {
    for (SystemTable t : List.of(RS_OBJECTS, RS_DBREPS)) {
      String column = t == RS_OBJECTS ? "objname" : "dbrepname";
      try (PreparedStatement ps =
          c.prepareStatement("select 1 from " + t.sqlName() + " where " + column + " = ?")) {
        ps.setString(1, name);
        try (ResultSet rs = ps.executeQuery()) {
          if (rs.next()) {
            throw new RssdException(
                Reason.DUPLICATE,
                table.sqlName(),
                name,
                (t == RS_OBJECTS ? "a replication definition" : "a database replication definition")
                    + " named "
                    + name
                    + " already exists");
          }
        }
      }
    }
  }

  private static RuntimeException nameTakenOr(SQLException e, String name, SystemTable table) {
    if (Jdbc.isUniqueViolation(e)) {
      return new RssdException(
          Reason.DUPLICATE,
          table.sqlName(),
          name,
          "a replication definition named " + name + " already exists",
          e);
    }
    if (Jdbc.isForeignKeyViolation(e)) {
      return new RssdException(
          Reason.NOT_FOUND,
          table.sqlName(),
          name,
          "the primary connection of replication definition " + name + " no longer exists",
          e);
    }
    return Jdbc.translate(table, name, e);
  }

  @Override
  public Optional<RepDef> find(String name) {
    List<RepDef> found =
        jdbc.read(RS_OBJECTS, name, c -> loadRepDefs(c, " where o.objname = ?", name));
    return found.stream().findFirst();
  }

  @Override
  public List<RepDef> forPrimaryTable(int primaryConnectionId, String schema, String table) {
    return jdbc.read(
        RS_OBJECTS,
        primaryConnectionId + ":" + schema + "." + table,
        c ->
            loadRepDefs(
                c,
                " where o.prim_conn_id = ? and o.prim_schema = ? and o.prim_table = ?",
                primaryConnectionId,
                schema,
                table));
  }

  @Override
  public List<RepDef> forPrimaryConnection(int primaryConnectionId) {
    return jdbc.read(
        RS_OBJECTS,
        "connection " + primaryConnectionId,
        c -> loadRepDefs(c, " where o.prim_conn_id = ?", primaryConnectionId));
  }

  /** Every table repdef, by name (the STS full cache). */
  List<RepDef> all() {
    return jdbc.read(RS_OBJECTS, "*", c -> loadRepDefs(c, ""));
  }

  private static List<RepDef> loadRepDefs(Connection c, String where, Object... params)
      throws SQLException {
    Map<String, RepDefRows> byName = new LinkedHashMap<>();
    try (PreparedStatement ps = c.prepareStatement(SELECT_REPDEFS + where + ORDER_REPDEFS)) {
      for (int i = 0; i < params.length; i++) {
        ps.setObject(i + 1, params[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          String name = rs.getString("objname");
          RepDefRows rows = byName.get(name);
          if (rows == null) {
            rows =
                new RepDefRows(
                    name,
                    rs.getInt("prim_conn_id"),
                    rs.getString("prim_schema"),
                    rs.getString("prim_table"),
                    rs.getString("repl_schema"),
                    rs.getString("repl_table"));
            byName.put(name, rows);
          }
          String colname = rs.getString("colname");
          if (colname != null) {
            rows.columns.add(
                new RepDefColumn(colname, rs.getString("coltype"), rs.getString("repl_colname")));
            int keyPos = rs.getInt("key_pos");
            if (!rs.wasNull()) {
              rows.key.put(keyPos, colname);
            }
            int searchablePos = rs.getInt("searchable_pos");
            if (!rs.wasNull()) {
              rows.searchable.put(searchablePos, colname);
            }
          }
        }
      }
    }
    List<RepDef> result = new ArrayList<>(byName.size());
    for (RepDefRows r : byName.values()) {
      result.add(r.toRepDef());
    }
    return List.copyOf(result);
  }

  /** One repdef's rows while they are read. */
  private static final class RepDefRows {
    final String name;
    final int primaryConnectionId;
    final String primarySchema;
    final String primaryTable;
    final String replicateSchema;
    final String replicateTable;
    final List<RepDefColumn> columns = new ArrayList<>();
    final Map<Integer, String> key = new TreeMap<>();
    final Map<Integer, String> searchable = new TreeMap<>();

    RepDefRows(
        String name,
        int primaryConnectionId,
        String primarySchema,
        String primaryTable,
        String replicateSchema,
        String replicateTable) {
      this.name = name;
      this.primaryConnectionId = primaryConnectionId;
      this.primarySchema = primarySchema;
      this.primaryTable = primaryTable;
      this.replicateSchema = replicateSchema;
      this.replicateTable = replicateTable;
    }

    RepDef toRepDef() {
      return new RepDef(
          name,
          primaryConnectionId,
          primarySchema,
          primaryTable,
          replicateSchema,
          replicateTable,
          columns,
          List.copyOf(key.values()),
          List.copyOf(searchable.values()));
    }
  }

  @Override
  public List<DatabaseRepDef> databaseRepDefsFor(int primaryConnectionId) {
    return jdbc.read(
        RS_DBREPS,
        "connection " + primaryConnectionId,
        c -> loadDbReps(c, " where d.prim_conn_id = ?", primaryConnectionId));
  }

  @Override
  public Optional<DatabaseRepDef> findDatabaseRepDef(String name) {
    return jdbc.read(RS_DBREPS, name, c -> loadDbReps(c, " where d.dbrepname = ?", name)).stream()
        .findFirst();
  }

  /** Every database repdef, by name (the STS full cache). */
  List<DatabaseRepDef> allDatabaseRepDefs() {
    return jdbc.read(RS_DBREPS, "*", c -> loadDbReps(c, ""));
  }

  private static List<DatabaseRepDef> loadDbReps(Connection c, String where, Object... params)
      throws SQLException {
    Map<String, int[]> conns = new LinkedHashMap<>();
    Map<String, List<String>> includes = new LinkedHashMap<>();
    Map<String, List<String>> excludes = new LinkedHashMap<>();
    try (PreparedStatement ps = c.prepareStatement(SELECT_DBREPS + where + ORDER_DBREPS)) {
      for (int i = 0; i < params.length; i++) {
        ps.setObject(i + 1, params[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          String name = rs.getString("dbrepname");
          conns.putIfAbsent(name, new int[] {rs.getInt("prim_conn_id")});
          includes.putIfAbsent(name, new ArrayList<>());
          excludes.putIfAbsent(name, new ArrayList<>());
          String type = rs.getString("subset_type");
          if (INCLUDE.equals(type)) {
            includes.get(name).add(rs.getString("pattern"));
          } else if (EXCLUDE.equals(type)) {
            excludes.get(name).add(rs.getString("pattern"));
          }
        }
      }
    }
    List<DatabaseRepDef> result = new ArrayList<>();
    for (Map.Entry<String, int[]> e : conns.entrySet()) {
      result.add(
          new DatabaseRepDef(
              e.getKey(), e.getValue()[0], includes.get(e.getKey()), excludes.get(e.getKey())));
    }
    return List.copyOf(result);
  }

  @Override
  public void drop(String name) {
    dropDefinition(name, RS_OBJECTS, "objname", false);
  }

  @Override
  public void dropDatabaseRepDef(String name) {
    dropDefinition(name, RS_DBREPS, "dbrepname", true);
  }

  private void dropDefinition(String name, SystemTable table, String column, boolean dbLevel) {
    String what = dbLevel ? "database replication definition" : "replication definition";
    jdbc.write(
        table,
        name,
        table,
        c -> {
          if (!lockDefinition(c, table, column, name)) {
            throw new RssdException(
                Reason.NOT_FOUND, table.sqlName(), name, "no " + what + " named " + name);
          }
          List<String> users = new ArrayList<>();
          try (PreparedStatement ps =
              c.prepareStatement(
                  "select s.subname, c.dsname, c.dbname from rs_subscriptions s"
                      + " join rs_connections c on c.conn_id = s.repl_conn_id"
                      + " where s.objname = ? and s.db_level = ? order by s.subname")) {
            ps.setString(1, name);
            ps.setBoolean(2, dbLevel);
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                users.add(
                    rs.getString(1)
                        + " (replicate "
                        + rs.getString(2)
                        + "."
                        + rs.getString(3)
                        + ")");
              }
            }
          }
          if (!users.isEmpty()) {
            throw new RssdException(
                Reason.IN_USE,
                table.sqlName(),
                name,
                what
                    + " "
                    + name
                    + " is used by subscription"
                    + (users.size() > 1 ? "s " : " ")
                    + String.join(", ", users)
                    + "; drop "
                    + (users.size() > 1 ? "them" : "it")
                    + " first");
          }
          try (PreparedStatement ps =
              c.prepareStatement("delete from " + table.sqlName() + " where " + column + " = ?")) {
            ps.setString(1, name);
            ps.executeUpdate();
          }
          return null;
        });
  }

  /**
   * Locks a repdef's row for the rest of the transaction, so that creating a subscription to it and
   * dropping it do not interleave.
   *
   * @return false when there is no such repdef
   */
  static boolean lockDefinition(Connection c, SystemTable table, String column, String name)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "select "
                + column
                + " from "
                + table.sqlName()
                + " where "
                + column
                + " = ? for update")) {
      ps.setString(1, name);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }
}
