package io.openrs.config.rssd;

import static io.openrs.config.rssd.SystemTable.RS_CONFIG;
import static io.openrs.config.rssd.SystemTable.RS_CONNECTIONS;

import io.openrs.config.secret.Secrets;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;

/**
 * {@link ConfigTable} on {@code rs_config}. Connection values are part of {@link ConnectionDef}, so
 * writing them tells the STS that {@code rs_connections} changed.
 */
final class SqlConfigTable implements ConfigTable {
  private final Jdbc jdbc;
  private final Clock clock;
  private final Secrets secrets;

  SqlConfigTable(Jdbc jdbc, Clock clock, Secrets secrets) {
    this.jdbc = jdbc;
    this.clock = clock;
    this.secrets = secrets;
  }

  @Override
  public Map<String, String> serverValues() {
    return jdbc.read(RS_CONFIG, "server", c -> ConfigRows.load(c, ConfigRows.SERVER));
  }

  @Override
  public void setServerValue(String name, String value) {
    Jdbc.requireName(RS_CONFIG, "server", "parameter name", name);
    Objects.requireNonNull(value, "value");
    jdbc.write(
        RS_CONFIG,
        "server " + name,
        null,
        c -> {
          ConfigRows.put(c, ConfigRows.SERVER, name, value, clock.instant(), secrets);
          return null;
        });
  }

  @Override
  public boolean removeServerValue(String name) {
    return jdbc.write(
        RS_CONFIG, "server " + name, null, c -> ConfigRows.remove(c, ConfigRows.SERVER, name));
  }

  @Override
  public Map<String, String> connectionValues(int connectionId) {
    return jdbc.read(
        RS_CONFIG, "connection " + connectionId, c -> ConfigRows.load(c, connectionId));
  }

  @Override
  public void setConnectionValue(int connectionId, String name, String value) {
    String key = "connection " + connectionId + " " + name;
    Jdbc.requireName(RS_CONFIG, key, "parameter name", name);
    Objects.requireNonNull(value, "value");
    jdbc.write(
        RS_CONFIG,
        key,
        RS_CONNECTIONS,
        c -> {
          SqlConnectionsTable.lockConnection(c, connectionId, RS_CONFIG);
          ConfigRows.put(c, connectionId, name, value, clock.instant(), secrets);
          return null;
        });
  }

  @Override
  public boolean removeConnectionValue(int connectionId, String name) {
    return jdbc.write(
        RS_CONFIG,
        "connection " + connectionId + " " + name,
        RS_CONNECTIONS,
        c -> ConfigRows.remove(c, connectionId, name));
  }
}
