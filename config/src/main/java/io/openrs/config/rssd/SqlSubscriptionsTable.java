package io.openrs.config.rssd;

import static io.openrs.config.rssd.SystemTable.RS_DBREPS;
import static io.openrs.config.rssd.SystemTable.RS_OBJECTS;
import static io.openrs.config.rssd.SystemTable.RS_SUBSCRIPTIONS;

import io.openrs.config.rssd.RssdException.Reason;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** {@link SubscriptionsTable} on {@code rs_subscriptions}. */
final class SqlSubscriptionsTable implements SubscriptionsTable {
  private static final String SELECT =
      "select subname, objname, db_level, repl_conn_id, where_clause, sub_state, created"
          + " from rs_subscriptions";
  private static final String ORDER = " order by repl_conn_id, subname";

  private final Jdbc jdbc;
  private final Clock clock;

  SqlSubscriptionsTable(Jdbc jdbc, Clock clock) {
    this.jdbc = jdbc;
    this.clock = clock;
  }

  private static String key(String name, int replicateConnectionId) {
    return name + " at connection " + replicateConnectionId;
  }

  @Override
  public Subscription create(
      String name,
      String repDefName,
      boolean databaseLevel,
      int replicateConnectionId,
      Optional<String> whereClause,
      SubscriptionState state) {
    Objects.requireNonNull(whereClause, "whereClause");
    Objects.requireNonNull(state, "state");
    String key = key(name, replicateConnectionId);
    Jdbc.requireName(RS_SUBSCRIPTIONS, key, "subscription name", name);
    Jdbc.requireName(RS_SUBSCRIPTIONS, key, "replication definition name", repDefName);
    if (databaseLevel && whereClause.isPresent()) {
      throw new RssdException(
          Reason.INVALID,
          RS_SUBSCRIPTIONS.sqlName(),
          key,
          "subscription "
              + name
              + " to a database replication definition cannot have a where-clause");
    }
    return jdbc.write(
        RS_SUBSCRIPTIONS,
        key,
        RS_SUBSCRIPTIONS,
        c -> {
          String replicate =
              SqlConnectionsTable.lockConnection(c, replicateConnectionId, RS_SUBSCRIPTIONS);
          boolean exists =
              databaseLevel
                  ? SqlRepDefsTable.lockDefinition(c, RS_DBREPS, "dbrepname", repDefName)
                  : SqlRepDefsTable.lockDefinition(c, RS_OBJECTS, "objname", repDefName);
          if (!exists) {
            throw new RssdException(
                Reason.NOT_FOUND,
                RS_SUBSCRIPTIONS.sqlName(),
                key,
                "subscription "
                    + name
                    + " names "
                    + (databaseLevel
                        ? "database replication definition "
                        : "replication definition ")
                    + repDefName
                    + ", which does not exist");
          }
          Instant created = Jdbc.micros(clock.instant());
          try (PreparedStatement ps =
              c.prepareStatement(
                  "insert into rs_subscriptions (subname, repl_conn_id, objname, db_level,"
                      + " where_clause, sub_state, created) values (?, ?, ?, ?, ?, ?, ?)")) {
            ps.setString(1, name);
            ps.setInt(2, replicateConnectionId);
            ps.setString(3, repDefName);
            ps.setBoolean(4, databaseLevel);
            if (whereClause.isPresent()) {
              ps.setString(5, whereClause.get());
            } else {
              ps.setNull(5, Types.VARCHAR);
            }
            ps.setString(6, state.name());
            Jdbc.setInstant(ps, 7, created);
            ps.executeUpdate();
          } catch (SQLException e) {
            if (Jdbc.isUniqueViolation(e)) {
              throw new RssdException(
                  Reason.DUPLICATE,
                  RS_SUBSCRIPTIONS.sqlName(),
                  key,
                  "subscription " + name + " for replicate " + replicate + " already exists",
                  e);
            }
            throw e;
          }
          return new Subscription(
              name, repDefName, databaseLevel, replicateConnectionId, whereClause, state, created);
        });
  }

  @Override
  public Optional<Subscription> find(String name, int replicateConnectionId) {
    return jdbc
        .read(
            RS_SUBSCRIPTIONS,
            key(name, replicateConnectionId),
            c -> load(c, " where subname = ? and repl_conn_id = ?", name, replicateConnectionId))
        .stream()
        .findFirst();
  }

  @Override
  public List<Subscription> forRepDef(String repDefName) {
    return jdbc.read(
        RS_SUBSCRIPTIONS, "repdef " + repDefName, c -> load(c, " where objname = ?", repDefName));
  }

  @Override
  public List<Subscription> forReplicate(int replicateConnectionId) {
    return jdbc.read(
        RS_SUBSCRIPTIONS,
        "connection " + replicateConnectionId,
        c -> load(c, " where repl_conn_id = ?", replicateConnectionId));
  }

  @Override
  public List<Subscription> all() {
    return jdbc.read(RS_SUBSCRIPTIONS, "*", c -> load(c, ""));
  }

  private static List<Subscription> load(Connection c, String where, Object... params)
      throws SQLException {
    List<Subscription> result = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(SELECT + where + ORDER)) {
      for (int i = 0; i < params.length; i++) {
        ps.setObject(i + 1, params[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          result.add(
              new Subscription(
                  rs.getString("subname"),
                  rs.getString("objname"),
                  rs.getBoolean("db_level"),
                  rs.getInt("repl_conn_id"),
                  Optional.ofNullable(rs.getString("where_clause")),
                  SubscriptionState.valueOf(rs.getString("sub_state")),
                  Jdbc.getInstant(rs, "created")));
        }
      }
    }
    return List.copyOf(result);
  }

  @Override
  public void setState(String name, int replicateConnectionId, SubscriptionState state) {
    Objects.requireNonNull(state, "state");
    String key = key(name, replicateConnectionId);
    jdbc.write(
        RS_SUBSCRIPTIONS,
        key,
        RS_SUBSCRIPTIONS,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "update rs_subscriptions set sub_state = ? where subname = ? and repl_conn_id = ?")) {
            ps.setString(1, state.name());
            ps.setString(2, name);
            ps.setInt(3, replicateConnectionId);
            if (ps.executeUpdate() == 0) {
              throw notFound(name, replicateConnectionId);
            }
          }
          return null;
        });
  }

  @Override
  public void drop(String name, int replicateConnectionId) {
    jdbc.write(
        RS_SUBSCRIPTIONS,
        key(name, replicateConnectionId),
        RS_SUBSCRIPTIONS,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "delete from rs_subscriptions where subname = ? and repl_conn_id = ?")) {
            ps.setString(1, name);
            ps.setInt(2, replicateConnectionId);
            if (ps.executeUpdate() == 0) {
              throw notFound(name, replicateConnectionId);
            }
          }
          return null;
        });
  }

  private static RssdException notFound(String name, int replicateConnectionId) {
    return new RssdException(
        Reason.NOT_FOUND,
        RS_SUBSCRIPTIONS.sqlName(),
        key(name, replicateConnectionId),
        "no subscription " + name + " for replicate connection id " + replicateConnectionId);
  }
}
