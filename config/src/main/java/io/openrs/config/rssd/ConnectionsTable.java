package io.openrs.config.rssd;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Database connections: {@code rs_connections} and the connections' rows of {@code rs_config}. */
public interface ConnectionsTable {
  /**
   * Creates a connection with both states {@link ConnectionState#ACTIVE}.
   *
   * @return it, with its new id
   * @throws RssdException {@code DUPLICATE} naming {@code ds.db} when it exists, {@code INVALID}
   *     for a blank name or a '.' in the data server name
   */
  ConnectionDef create(
      String dataserver,
      String database,
      Profile profile,
      boolean logTransfer,
      Map<String, String> properties);

  Optional<ConnectionDef> find(String dataserver, String database);

  Optional<ConnectionDef> find(int id);

  /** Every connection, by id. */
  List<ConnectionDef> all();

  /**
   * Sets one property (inserted or replaced).
   *
   * @throws RssdException {@code NOT_FOUND} for an unknown id
   */
  void setProperty(int id, String key, String value);

  /**
   * Removes one property.
   *
   * @return false when it was not set
   * @throws RssdException {@code NOT_FOUND} for an unknown id
   */
  boolean removeProperty(int id, String key);

  /**
   * Sets the DSI state.
   *
   * @throws RssdException {@code NOT_FOUND} for an unknown id
   */
  void setState(int id, ConnectionState state);

  /**
   * Sets the log-transfer state.
   *
   * @throws RssdException {@code NOT_FOUND} for an unknown id
   */
  void setLogTransferState(int id, ConnectionState state);

  /**
   * Drops a connection with its properties and locator. Its exceptions-log and ticket rows stay.
   *
   * @throws RssdException {@code NOT_FOUND} for an unknown id; {@code IN_USE} naming the repdefs or
   *     subscriptions that still refer to it
   */
  void drop(int id);
}
