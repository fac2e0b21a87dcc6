package io.openrs.config.rssd;

import static io.openrs.config.rssd.SystemTable.RS_CONNECTIONS;

import io.openrs.config.rssd.RssdException.Reason;
import io.openrs.config.secret.Secrets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** {@link ConnectionsTable} on {@code rs_connections} and {@code rs_config}. */
final class SqlConnectionsTable implements ConnectionsTable {
  private static final String SELECT =
      "select conn_id, dsname, dbname, profile, log_transfer, dsi_state, log_transfer_state"
          + " from rs_connections";

  private final Jdbc jdbc;
  private final Clock clock;
  private final Secrets secrets;

  SqlConnectionsTable(Jdbc jdbc, Clock clock, Secrets secrets) {
    this.jdbc = jdbc;
    this.clock = clock;
    this.secrets = secrets;
  }

  @Override
  public ConnectionDef create(
      String dataserver,
      String database,
      Profile profile,
      boolean logTransfer,
      Map<String, String> properties) {
    Objects.requireNonNull(profile, "profile");
    Map<String, String> props = Map.copyOf(properties);
    String key = dataserver + "." + database;
    if (dataserver == null || dataserver.isBlank() || database == null || database.isBlank()) {
      throw new RssdException(
          Reason.INVALID,
          RS_CONNECTIONS.sqlName(),
          key,
          "data server and database names must not be blank: '" + key + "'");
    }
    if (dataserver.indexOf('.') >= 0) {
      throw new RssdException(
          Reason.INVALID,
          RS_CONNECTIONS.sqlName(),
          key,
          "data server name '" + dataserver + "' must not contain '.'");
    }
    props.forEach((k, v) -> Jdbc.requireName(RS_CONNECTIONS, key, "property name", k));
    return jdbc.write(
        RS_CONNECTIONS,
        key,
        RS_CONNECTIONS,
        c -> {
          if (findRow(c, "dsname = ? and dbname = ?", dataserver, database).isPresent()) {
            throw duplicate(key, null);
          }
          Instant now = clock.instant();
          int id;
          try (PreparedStatement ps =
              c.prepareStatement(
                  "insert into rs_connections (dsname, dbname, profile, log_transfer, dsi_state,"
                      + " log_transfer_state, created) values (?, ?, ?, ?, ?, ?, ?)",
                  new String[] {"conn_id"})) {
            ps.setString(1, dataserver);
            ps.setString(2, database);
            ps.setString(3, profile.name());
            ps.setBoolean(4, logTransfer);
            ps.setString(5, ConnectionState.ACTIVE.name());
            ps.setString(6, ConnectionState.ACTIVE.name());
            Jdbc.setInstant(ps, 7, now);
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
              keys.next();
              id = keys.getInt(1);
            }
          } catch (SQLException e) {
            if (Jdbc.isUniqueViolation(e)) {
              throw duplicate(key, e);
            }
            throw e;
          }
          Map<String, String> stored = new HashMap<>();
          for (Map.Entry<String, String> p : props.entrySet()) {
            String v = ConfigRows.stored(id, p.getKey(), p.getValue(), secrets);
            ConfigRows.put(c, id, p.getKey(), v, now, secrets);
            stored.put(p.getKey(), v);
          }
          return new ConnectionDef(
              id,
              dataserver,
              database,
              profile,
              logTransfer,
              stored,
              ConnectionState.ACTIVE,
              ConnectionState.ACTIVE);
        });
  }

  private static RssdException duplicate(String key, SQLException cause) {
    return new RssdException(
        Reason.DUPLICATE,
        RS_CONNECTIONS.sqlName(),
        key,
        "connection " + key + " already exists",
        cause);
  }

  @Override
  public Optional<ConnectionDef> find(String dataserver, String database) {
    String key = dataserver + "." + database;
    return jdbc.read(
        RS_CONNECTIONS, key, c -> findRow(c, "dsname = ? and dbname = ?", dataserver, database));
  }

  @Override
  public Optional<ConnectionDef> find(int id) {
    return jdbc.read(RS_CONNECTIONS, "id " + id, c -> findRow(c, "conn_id = ?", id));
  }

  private static Optional<ConnectionDef> findRow(Connection c, String where, Object... params)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(SELECT + " where " + where)) {
      for (int i = 0; i < params.length; i++) {
        ps.setObject(i + 1, params[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        int id = rs.getInt("conn_id");
        return Optional.of(toDef(rs, ConfigRows.load(c, id)));
      }
    }
  }

  private static ConnectionDef toDef(ResultSet rs, Map<String, String> props) throws SQLException {
    return new ConnectionDef(
        rs.getInt("conn_id"),
        rs.getString("dsname"),
        rs.getString("dbname"),
        Profile.valueOf(rs.getString("profile")),
        rs.getBoolean("log_transfer"),
        props,
        ConnectionState.valueOf(rs.getString("dsi_state")),
        ConnectionState.valueOf(rs.getString("log_transfer_state")));
  }

  @Override
  public List<ConnectionDef> all() {
    return jdbc.read(
        RS_CONNECTIONS,
        "*",
        c -> {
          Map<Integer, Map<String, String>> props = new HashMap<>();
          try (Statement st = c.createStatement();
              ResultSet rs =
                  st.executeQuery(
                      "select objid, optionname, charvalue from rs_config where objid <> "
                          + ConfigRows.SERVER)) {
            while (rs.next()) {
              props
                  .computeIfAbsent(rs.getInt(1), k -> new HashMap<>())
                  .put(rs.getString(2), rs.getString(3));
            }
          }
          List<ConnectionDef> all = new ArrayList<>();
          try (Statement st = c.createStatement();
              ResultSet rs = st.executeQuery(SELECT + " order by conn_id")) {
            while (rs.next()) {
              all.add(toDef(rs, props.getOrDefault(rs.getInt("conn_id"), Map.of())));
            }
          }
          return List.copyOf(all);
        });
  }

  @Override
  public void setProperty(int id, String key, String value) {
    Jdbc.requireName(RS_CONNECTIONS, "id " + id, "property name", key);
    Objects.requireNonNull(value, "value");
    jdbc.write(
        RS_CONNECTIONS,
        "id " + id,
        RS_CONNECTIONS,
        c -> {
          lockConnection(c, id, RS_CONNECTIONS);
          ConfigRows.put(c, id, key, value, clock.instant(), secrets);
          return null;
        });
  }

  @Override
  public boolean removeProperty(int id, String key) {
    return jdbc.write(
        RS_CONNECTIONS,
        "id " + id,
        RS_CONNECTIONS,
        c -> {
          lockConnection(c, id, RS_CONNECTIONS);
          return ConfigRows.remove(c, id, key);
        });
  }

  @Override
  public void setState(int id, ConnectionState state) {
    updateState(id, "dsi_state", state);
  }

  @Override
  public void setLogTransferState(int id, ConnectionState state) {
    updateState(id, "log_transfer_state", state);
  }

  private void updateState(int id, String column, ConnectionState state) {
    Objects.requireNonNull(state, "state");
    jdbc.write(
        RS_CONNECTIONS,
        "id " + id,
        RS_CONNECTIONS,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "update rs_connections set " + column + " = ? where conn_id = ?")) {
            ps.setString(1, state.name());
            ps.setInt(2, id);
            if (ps.executeUpdate() == 0) {
              throw notFound(id, RS_CONNECTIONS);
            }
          }
          return null;
        });
  }

  @Override
  public void drop(int id) {
    jdbc.write(
        RS_CONNECTIONS,
        "id " + id,
        RS_CONNECTIONS,
        c -> {
          String name = lockConnection(c, id, RS_CONNECTIONS);
          List<String> repDefs =
              names(
                  c, "select objname from rs_objects where prim_conn_id = ? order by objname", id);
          List<String> dbRepDefs =
              names(
                  c,
                  "select dbrepname from rs_dbreps where prim_conn_id = ? order by dbrepname",
                  id);
          List<String> subscriptions =
              names(
                  c,
                  "select subname from rs_subscriptions where repl_conn_id = ? order by subname",
                  id);
          if (!repDefs.isEmpty() || !dbRepDefs.isEmpty() || !subscriptions.isEmpty()) {
            StringBuilder uses = new StringBuilder();
            append(uses, "replication definitions", repDefs);
            append(uses, "database replication definitions", dbRepDefs);
            append(uses, "subscriptions", subscriptions);
            throw new RssdException(
                Reason.IN_USE,
                RS_CONNECTIONS.sqlName(),
                name,
                "connection "
                    + name
                    + " (id "
                    + id
                    + ") is still used by "
                    + uses
                    + "; drop them first");
          }
          ConfigRows.removeAll(c, id);
          try (PreparedStatement ps =
              c.prepareStatement("delete from rs_locater where sender = ?")) {
            ps.setInt(1, id);
            ps.executeUpdate();
          }
          try (PreparedStatement ps =
              c.prepareStatement("delete from rs_connections where conn_id = ?")) {
            ps.setInt(1, id);
            ps.executeUpdate();
          }
          return null;
        });
  }

  private static void append(StringBuilder sb, String what, List<String> names) {
    if (names.isEmpty()) {
      return;
    }
    if (sb.length() > 0) {
      sb.append(" and ");
    }
    sb.append(what).append(' ').append(String.join(", ", names));
  }

  static List<String> names(Connection c, String sql, int id) throws SQLException {
    List<String> names = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setInt(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          names.add(rs.getString(1));
        }
      }
    }
    return names;
  }

  /**
   * Locks the connection's row for the rest of the transaction (so a concurrent drop waits) and
   * returns its {@code ds.db} name.
   *
   * @throws RssdException {@code NOT_FOUND} naming {@code table} when there is no such connection
   */
  static String lockConnection(Connection c, int id, SystemTable table) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "select dsname, dbname from rs_connections where conn_id = ? for update")) {
      ps.setInt(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw notFound(id, table);
        }
        return rs.getString(1) + "." + rs.getString(2);
      }
    }
  }

  static RssdException notFound(int id, SystemTable table) {
    return new RssdException(
        Reason.NOT_FOUND,
        table.sqlName(),
        "id " + id,
        "no connection with id " + id + " in rs_connections");
  }
}
