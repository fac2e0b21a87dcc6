package io.openrs.repagent;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The publication the agent reads on PostgreSQL, when its tables are whole schemas ({@code
 * schema.%}) plus named tables: the agent creates or alters it itself {@code FOR TABLES IN SCHEMA}
 * those schemas (PostgreSQL 15), so a table created in one of them later is published, and so
 * replicated, from its creation on, without a restart. Debezium then uses it as it is ({@code
 * publication.autocreate.mode = disabled}).
 *
 * <p>Otherwise (another pattern such as {@code sales.order%}, a source_user that is not a
 * superuser, which PostgreSQL 15 requires for a schema publication, or PostgreSQL before 15)
 * Debezium keeps the publication {@code FOR TABLE} the tables that match when the agent starts
 * ({@code filtered}), and a table created later is captured from the agent's next start; the agent
 * says so once, with the reason.
 *
 * <p>Stateless; used once per start by the agent's start-up thread.
 */
final class PostgresPublication {

  /** Debezium's {@code publication.autocreate.mode} after {@link #ensure}. */
  enum Mode {
    /** The agent keeps the publication; Debezium uses it as it is. */
    DISABLED("disabled"),
    /** Debezium keeps it, {@code FOR TABLE} the tables matching at start. */
    FILTERED("filtered");

    final String debeziumName;

    Mode(String debeziumName) {
      this.debeziumName = debeziumName;
    }
  }

  /**
   * What {@link #ensure} decided.
   *
   * @param whyFiltered why it left the publication to Debezium
   * @param schemasMissed whether whole schemas were asked for: tables created in them later are
   *     captured only from the next start
   */
  record Decision(Mode mode, Optional<String> whyFiltered, boolean schemasMissed) {}

  private PostgresPublication() {}

  /**
   * Creates or alters publication {@code name} for {@code patterns} ({@code schema.table}, {@code
   * %} = any run) when they are whole schemas and named tables and the user may; otherwise leaves
   * it to Debezium.
   */
  static Decision ensure(Connection c, String name, List<String> patterns, List<String> unreadable)
      throws SQLException {
    Set<String> schemas = new LinkedHashSet<>();
    List<String[]> tables = new ArrayList<>();
    for (String p : patterns) {
      int dot = p.indexOf('.');
      String schema = dot < 0 ? "" : p.substring(0, dot);
      String table = dot < 0 ? p : p.substring(dot + 1);
      if (schema.isEmpty() || schema.indexOf('%') >= 0) {
        return filtered("the table pattern '" + p + "' names no single schema", false);
      }
      if (table.equals("%")) {
        schemas.add(schema);
      } else if (table.indexOf('%') >= 0) {
        return filtered(
            "the table pattern '" + p + "' is neither a whole schema nor one table", false);
      } else {
        tables.add(new String[] {schema, table});
      }
    }
    if (schemas.isEmpty()) {
      return filtered("no table pattern names a whole schema (schema.%)", false);
    }
    for (String t : unreadable) {
      if (schemas.contains(t.substring(0, t.indexOf('.')))) {
        // A schema publication cannot leave one table out, and pgoutput sends every published
        // table's columns, which Debezium refuses for this one.
        return filtered("table " + t + " in one of those schemas cannot be read", true);
      }
    }
    try (Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery(
                "SELECT current_setting('server_version_num')::int >= 150000,"
                    + " (SELECT rolsuper FROM pg_roles WHERE rolname = current_user)")) {
      r.next();
      if (!r.getBoolean(1)) {
        return filtered("a publication FOR TABLES IN SCHEMA needs PostgreSQL 15 or later", true);
      }
      if (!r.getBoolean(2)) {
        return filtered(
            "a publication FOR TABLES IN SCHEMA needs a superuser source_user on PostgreSQL 15",
            true);
      }
    }
    List<String> objects = new ArrayList<>();
    objects.add(
        "TABLES IN SCHEMA "
            + String.join(", ", schemas.stream().map(PostgresPublication::ident).toList()));
    for (String[] t : tables) {
      if (!schemas.contains(t[0]) && exists(c, t[0], t[1])) {
        objects.add("TABLE " + ident(t[0]) + "." + ident(t[1]));
      }
    }
    String list = String.join(", ", objects);
    try (Statement s = c.createStatement()) {
      s.execute(
          (exists(c, name)
                  ? "ALTER PUBLICATION " + ident(name) + " SET "
                  : "CREATE PUBLICATION " + ident(name) + " FOR ")
              + list);
    }
    return new Decision(Mode.DISABLED, Optional.empty(), false);
  }

  private static Decision filtered(String why, boolean schemasMissed) {
    return new Decision(Mode.FILTERED, Optional.of(why), schemasMissed);
  }

  private static boolean exists(Connection c, String publication) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("SELECT 1 FROM pg_publication WHERE pubname = ?")) {
      ps.setString(1, publication);
      try (ResultSet r = ps.executeQuery()) {
        return r.next();
      }
    }
  }

  private static boolean exists(Connection c, String schema, String table) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT 1 FROM pg_class k JOIN pg_namespace n ON n.oid = k.relnamespace"
                + " WHERE n.nspname = ? AND k.relname = ? AND k.relkind IN ('r', 'p')")) {
      ps.setString(1, schema);
      ps.setString(2, table);
      try (ResultSet r = ps.executeQuery()) {
        return r.next();
      }
    }
  }

  private static String ident(String name) {
    return '"' + name.replace("\"", "\"\"") + '"';
  }
}
