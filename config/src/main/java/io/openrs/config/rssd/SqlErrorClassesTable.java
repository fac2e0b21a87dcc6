package io.openrs.config.rssd;

import static io.openrs.config.rssd.SystemTable.RS_CLASSES;

import io.openrs.config.rssd.ErrorClassAssignment.Source;
import io.openrs.config.rssd.RssdException.Reason;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * {@link ErrorClassesTable} on {@code rs_classes} and {@code rs_erroractions}. Each call is one
 * transaction; a change first locks the class's row, so concurrent changes to one class apply one
 * after the other.
 */
final class SqlErrorClassesTable implements ErrorClassesTable {

  /** {@code rs_classes.classtype} of an error class (RS also stores function-string classes). */
  static final String ERROR_CLASS_TYPE = "E";

  /** The {@code rs_config} option that names a connection's (or the server's) error class. */
  static final String ERROR_CLASS_OPTION = "error_class";

  private static final int MAX_NAME = 255;

  private final Jdbc jdbc;
  private final Clock clock;

  SqlErrorClassesTable(Jdbc jdbc, Clock clock) {
    this.jdbc = jdbc;
    this.clock = clock;
  }

  private record ClassRow(String name, Optional<String> template, boolean builtin) {}

  @Override
  public ErrorClassDef create(String name, Optional<String> template) {
    requireClassName(name);
    Objects.requireNonNull(template, "template");
    return jdbc.write(
        RS_CLASSES,
        name,
        null,
        c -> {
          if (row(c, name, false).isPresent()) {
            throw duplicate(name, null);
          }
          Map<String, String> copied = Map.of();
          if (template.isPresent()) {
            copied = requireTemplate(c, name, template.get()).actions();
          }
          Instant now = clock.instant();
          try (PreparedStatement ps =
              c.prepareStatement(
                  "insert into rs_classes (classname, classtype, template, builtin, created,"
                      + " updated) values (?, ?, ?, false, ?, ?)")) {
            ps.setString(1, name);
            ps.setString(2, ERROR_CLASS_TYPE);
            ps.setString(3, template.orElse(null));
            Jdbc.setInstant(ps, 4, now);
            Jdbc.setInstant(ps, 5, now);
            ps.executeUpdate();
          } catch (SQLException e) {
            if (Jdbc.isUniqueViolation(e)) {
              throw duplicate(name, e);
            }
            throw e;
          }
          for (Map.Entry<String, String> a : copied.entrySet()) {
            putAction(c, name, a.getKey(), a.getValue(), Source.TEMPLATE, now);
          }
          return load(c, name).orElseThrow();
        });
  }

  @Override
  public ErrorClassDef alter(String name, String template) {
    Objects.requireNonNull(template, "template");
    return jdbc.write(
        RS_CLASSES,
        name,
        null,
        c -> {
          requireChangeable(c, name, "altered");
          if (template.equals(name)) {
            throw new RssdException(
                Reason.INVALID,
                RS_CLASSES.sqlName(),
                name,
                "error class " + name + " cannot be its own template");
          }
          ErrorClassDef t = requireTemplate(c, name, template);
          Instant now = clock.instant();
          for (Map.Entry<String, String> a : t.actions().entrySet()) {
            putAction(c, name, a.getKey(), a.getValue(), Source.TEMPLATE, now);
          }
          try (PreparedStatement ps =
              c.prepareStatement(
                  "update rs_classes set template = ?, updated = ? where classname = ?")) {
            ps.setString(1, template);
            Jdbc.setInstant(ps, 2, now);
            ps.setString(3, name);
            ps.executeUpdate();
          }
          return load(c, name).orElseThrow();
        });
  }

  @Override
  public void drop(String name) {
    jdbc.write(
        RS_CLASSES,
        name,
        null,
        c -> {
          requireChangeable(c, name, "dropped");
          List<String> users = usedBy(c, name);
          if (!users.isEmpty()) {
            throw new RssdException(
                Reason.IN_USE,
                RS_CLASSES.sqlName(),
                name,
                "error class "
                    + name
                    + " is used by "
                    + describeUsers(users)
                    + "; set another error class there first");
          }
          try (PreparedStatement ps =
              c.prepareStatement("delete from rs_erroractions where classname = ?")) {
            ps.setString(1, name);
            ps.executeUpdate();
          }
          try (PreparedStatement ps =
              c.prepareStatement("delete from rs_classes where classname = ?")) {
            ps.setString(1, name);
            ps.executeUpdate();
          }
          return null;
        });
  }

  private static String describeUsers(List<String> users) {
    List<String> parts = new ArrayList<>();
    for (String u : users) {
      parts.add(
          u.equals("server")
              ? "the server (configure replication server set error_class)"
              : "connection " + u);
    }
    return String.join(", ", parts);
  }

  @Override
  public void assign(String name, String action, List<String> codes) {
    Objects.requireNonNull(codes, "codes");
    String label;
    try {
      label = ErrorClassDef.normalizeAction(action);
    } catch (IllegalArgumentException e) {
      throw new RssdException(Reason.INVALID, RS_CLASSES.sqlName(), name, e.getMessage(), e);
    }
    if (codes.isEmpty()) {
      throw new RssdException(
          Reason.INVALID, RS_CLASSES.sqlName(), name, "assign action needs at least one code");
    }
    Set<String> normalized = new LinkedHashSet<>();
    for (String code : codes) {
      try {
        normalized.add(ErrorClassDef.normalizeCode(code));
      } catch (IllegalArgumentException e) {
        throw new RssdException(
            Reason.INVALID,
            RS_CLASSES.sqlName(),
            name,
            "error class " + name + ": " + e.getMessage(),
            e);
      }
    }
    jdbc.write(
        RS_CLASSES,
        name,
        null,
        c -> {
          requireChangeable(c, name, "changed");
          Instant now = clock.instant();
          for (String code : normalized) {
            putAction(c, name, code, label, Source.ASSIGNED, now);
          }
          try (PreparedStatement ps =
              c.prepareStatement("update rs_classes set updated = ? where classname = ?")) {
            Jdbc.setInstant(ps, 1, now);
            ps.setString(2, name);
            ps.executeUpdate();
          }
          return null;
        });
  }

  @Override
  public Optional<ErrorClassDef> find(String name) {
    Objects.requireNonNull(name, "name");
    return jdbc.read(RS_CLASSES, name, c -> load(c, name));
  }

  @Override
  public List<ErrorClassDef> all() {
    return jdbc.read(
        RS_CLASSES,
        "",
        c -> {
          Map<String, ClassRow> rows = new LinkedHashMap<>();
          try (PreparedStatement ps =
              c.prepareStatement(
                  "select classname, template, builtin from rs_classes where classtype = ?"
                      + " order by classname")) {
            ps.setString(1, ERROR_CLASS_TYPE);
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                ClassRow r = classRow(rs);
                rows.put(r.name(), r);
              }
            }
          }
          Map<String, Map<String, String>> actions = new LinkedHashMap<>();
          try (PreparedStatement ps =
                  c.prepareStatement(
                      "select classname, ds_errno, action from rs_erroractions"
                          + " order by classname, ds_errno");
              ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
              actions
                  .computeIfAbsent(rs.getString(1), k -> new LinkedHashMap<>())
                  .put(rs.getString(2), rs.getString(3));
            }
          }
          List<ErrorClassDef> out = new ArrayList<>();
          for (ClassRow r : rows.values()) {
            out.add(
                new ErrorClassDef(
                    r.name(), r.template(), actions.getOrDefault(r.name(), Map.of())));
          }
          return List.copyOf(out);
        });
  }

  @Override
  public List<ErrorClassAssignment> assignments(String name) {
    return jdbc.read(
        RS_CLASSES,
        name,
        c -> {
          if (row(c, name, false).isEmpty()) {
            throw notFound(name, "error class");
          }
          List<ErrorClassAssignment> out = new ArrayList<>();
          try (PreparedStatement ps =
              c.prepareStatement(
                  "select ds_errno, action, source from rs_erroractions where classname = ?"
                      + " order by ds_errno")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                out.add(
                    new ErrorClassAssignment(
                        rs.getString(1), rs.getString(2), Source.ofLabel(rs.getString(3))));
              }
            }
          }
          return List.copyOf(out);
        });
  }

  @Override
  public List<String> usedBy(String name) {
    Objects.requireNonNull(name, "name");
    return jdbc.read(RS_CLASSES, name, c -> usedBy(c, name));
  }

  // ------------------------------------------------------------------------------ helpers

  private static List<String> usedBy(Connection c, String name) throws SQLException {
    List<String> users = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "select cf.objid, cn.dsname, cn.dbname from rs_config cf"
                + " left join rs_connections cn on cn.conn_id = cf.objid"
                + " where cf.optionname = ? and cf.charvalue = ? order by cf.objid")) {
      ps.setString(1, ERROR_CLASS_OPTION);
      ps.setString(2, name);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          int objid = rs.getInt(1);
          if (objid == ConfigRows.SERVER) {
            users.add("server");
          } else if (rs.getString(2) != null) {
            users.add(rs.getString(2) + "." + rs.getString(3));
          }
        }
      }
    }
    return List.copyOf(users);
  }

  private static void requireClassName(String name) {
    Jdbc.requireName(RS_CLASSES, String.valueOf(name), "error class name", name);
    if (name.length() > MAX_NAME) {
      throw new RssdException(
          Reason.INVALID,
          RS_CLASSES.sqlName(),
          name,
          "error class name is longer than " + MAX_NAME + " characters");
    }
  }

  /** Locks and returns the class's row; refuses an unknown or built-in class. */
  private static ClassRow requireChangeable(Connection c, String name, String verb)
      throws SQLException {
    ClassRow r = row(c, name, true).orElseThrow(() -> notFound(name, "error class"));
    if (r.builtin()) {
      throw new RssdException(
          Reason.INVALID,
          RS_CLASSES.sqlName(),
          name,
          name
              + " is a built-in error class and cannot be "
              + verb
              + "; create error class <name> set template to "
              + name
              + ", then change that class");
    }
    return r;
  }

  private static ErrorClassDef requireTemplate(Connection c, String name, String template)
      throws SQLException {
    return load(c, template)
        .orElseThrow(
            () ->
                new RssdException(
                    Reason.NOT_FOUND,
                    RS_CLASSES.sqlName(),
                    name,
                    "no error class " + template + " (the template of " + name + ")"));
  }

  private static RssdException notFound(String name, String what) {
    return new RssdException(
        Reason.NOT_FOUND, RS_CLASSES.sqlName(), name, "no " + what + " " + name);
  }

  private static RssdException duplicate(String name, SQLException cause) {
    return new RssdException(
        Reason.DUPLICATE,
        RS_CLASSES.sqlName(),
        name,
        "error class " + name + " already exists",
        cause);
  }

  private static Optional<ClassRow> row(Connection c, String name, boolean lock)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "select classname, template, builtin from rs_classes where classname = ?"
                + " and classtype = ?"
                + (lock ? " for update" : ""))) {
      ps.setString(1, name);
      ps.setString(2, ERROR_CLASS_TYPE);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(classRow(rs)) : Optional.empty();
      }
    }
  }

  private static ClassRow classRow(ResultSet rs) throws SQLException {
    return new ClassRow(
        rs.getString("classname"),
        Optional.ofNullable(rs.getString("template")),
        rs.getBoolean("builtin"));
  }

  private static Optional<ErrorClassDef> load(Connection c, String name) throws SQLException {
    Optional<ClassRow> r = row(c, name, false);
    if (r.isEmpty()) {
      return Optional.empty();
    }
    Map<String, String> actions = new LinkedHashMap<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "select ds_errno, action from rs_erroractions where classname = ? order by ds_errno")) {
      ps.setString(1, name);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          actions.put(rs.getString(1), rs.getString(2));
        }
      }
    }
    return Optional.of(new ErrorClassDef(name, r.get().template(), actions));
  }

  private static void putAction(
      Connection c, String name, String code, String action, Source source, Instant now)
      throws SQLException {
    Jdbc.upsert(
        c,
        conn -> {
          try (PreparedStatement ps =
              conn.prepareStatement(
                  "update rs_erroractions set action = ?, source = ?, updated = ?"
                      + " where classname = ? and ds_errno = ?")) {
            ps.setString(1, action);
            ps.setString(2, source.label());
            Jdbc.setInstant(ps, 3, now);
            ps.setString(4, name);
            ps.setString(5, code);
            return ps.executeUpdate();
          }
        },
        conn -> {
          try (PreparedStatement ps =
              conn.prepareStatement(
                  "insert into rs_erroractions (classname, ds_errno, action, source, updated)"
                      + " values (?, ?, ?, ?, ?)")) {
            ps.setString(1, name);
            ps.setString(2, code);
            ps.setString(3, action);
            ps.setString(4, source.label());
            Jdbc.setInstant(ps, 5, now);
            return ps.executeUpdate();
          }
        });
  }
}
