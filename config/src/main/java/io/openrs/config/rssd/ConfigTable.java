package io.openrs.config.rssd;

import java.util.Map;

/**
 * Stored configuration values: {@code rs_config}. Server values ({@code configure replication
 * server}) and connection values ({@code alter connection}); a connection's values are the same
 * rows as its {@link ConnectionDef#properties()}. Values are stored as text; the parameter catalog
 * validates and types them.
 */
public interface ConfigTable {
  /** Every stored server value, by name. */
  Map<String, String> serverValues();

  void setServerValue(String name, String value);

  /**
   * Removes a stored server value (the parameter falls back to its default).
   *
   * @return false when none was stored
   */
  boolean removeServerValue(String name);

  /** Every stored value of one connection, by name; empty for an unknown connection. */
  Map<String, String> connectionValues(int connectionId);

  /**
   * Sets one connection value.
   *
   * @throws RssdException {@code NOT_FOUND} for an unknown connection
   */
  void setConnectionValue(int connectionId, String name, String value);

  /**
   * Removes one connection value.
   *
   * @return false when none was stored
   */
  boolean removeConnectionValue(int connectionId, String name);
}
