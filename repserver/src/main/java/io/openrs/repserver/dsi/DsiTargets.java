package io.openrs.repserver.dsi;

import io.openrs.config.param.ParameterCatalog;
import io.openrs.config.param.ParameterValues;
import io.openrs.config.param.Scope;
import io.openrs.config.rssd.ConnectionDef;
import io.openrs.config.rssd.Profile;
import io.openrs.config.rssd.Rssd;
import io.openrs.config.secret.SecretException;
import io.openrs.config.secret.Secrets;
import io.openrs.dsi.DsiTarget;
import io.openrs.dsi.OriginProfiles;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a replicate connection's DSI is given: where the database is (its connection settings {@code
 * server}, {@code port}, {@code database}, {@code user}, {@code password}) and its parameters (the
 * connection's catalogue values over the server's). The password is stored sealed or as a reference
 * and revealed here, when a component is about to log in with it.
 */
public final class DsiTargets {
  private static final String PASSWORD = "password";

  private DsiTargets() {}

  /**
   * The replicate database of {@code c}: PostgreSQL {@code jdbc:postgresql://server:port/db},
   * MariaDB {@code jdbc:mariadb://server:port/db}; {@code db} is the {@code database} setting, or
   * the connection's database name.
   *
   * @throws IllegalArgumentException naming the missing setting
   */
  public static DsiTarget target(ConnectionDef c, Secrets secrets) {
    Map<String, String> p = c.properties();
    String server = require(c, p, "server");
    String port = require(c, p, "port");
    String user = require(c, p, "user");
    String database = p.getOrDefault("database", c.database());
    String scheme = c.profile() == Profile.POSTGRESQL ? "postgresql" : "mariadb";
    return new DsiTarget(
        c.id(),
        c.name(),
        scheme,
        "jdbc:" + scheme + "://" + hostPart(server) + ":" + port + "/" + database,
        user,
        password(c, p, secrets));
  }

  /**
   * Each origin's profile, read from {@code rs_connections} when the DSI first meets the origin:
   * the DSI applies a PostgreSQL origin's transactions in replica mode (its log holds its cascades
   * and trigger rows) and a MariaDB origin's with the replicate's foreign keys acting.
   */
  public static OriginProfiles originProfiles(Rssd rssd) {
    return origin -> rssd.connections().find(origin).map(ConnectionDef::profile);
  }

  /** The connection's catalogue values (not its login settings) layered over the server's. */
  public static ParameterValues parameters(ConnectionDef c, ParameterValues server) {
    ParameterCatalog catalog = server.catalog();
    Map<String, String> values = new TreeMap<>();
    c.properties()
        .forEach(
            (k, v) -> {
              if (catalog.find(k).isPresent()) {
                values.put(k, v);
              }
            });
    return ParameterValues.of(catalog, Scope.CONNECTION, values).over(server);
  }

  /**
   * The clear password, had from the stored one only now: opened with the server's key, or read
   * from the environment variable or file it refers to.
   *
   * @throws IllegalArgumentException naming the connection and why (never the password)
   */
  private static String password(ConnectionDef c, Map<String, String> p, Secrets secrets) {
    String stored = p.getOrDefault(PASSWORD, "");
    try {
      return secrets.reveal(stored, Secrets.configContext(c.id(), PASSWORD));
    } catch (SecretException e) {
      throw new IllegalArgumentException("connection " + c.name() + ": " + e.getMessage(), e);
    }
  }

  private static String hostPart(String server) {
    return server.indexOf(':') >= 0 && !server.startsWith("[") ? "[" + server + "]" : server;
  }

  private static String require(ConnectionDef c, Map<String, String> p, String key) {
    String v = p.get(key);
    if (v == null || v.isBlank()) {
      throw new IllegalArgumentException(
          "connection "
              + c.name()
              + " has no "
              + key
              + " setting (alter connection to "
              + c.name()
              + " set "
              + key
              + " to '...')");
    }
    return v;
  }
}
