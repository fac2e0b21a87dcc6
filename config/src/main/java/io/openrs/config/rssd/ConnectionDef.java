package io.openrs.config.rssd;

import io.openrs.config.secret.Secrets;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A database connection ({@code create connection to ds.db}), a row of {@code rs_connections} plus
 * its {@code rs_config} rows.
 *
 * @param id the connection id, assigned by the RSSD from 101 up and never reused; also the queue
 *     number of its queues
 * @param dataserver the data server name (no '.')
 * @param database the database name
 * @param profile which kind of database it is
 * @param logTransfer true for a primary: an agent feeds it ({@code with log transfer on})
 * @param properties the connection's settings: server, port, user, password and connection
 *     parameters such as {@code dsi_num_threads}; sorted by name. A password is stored sealed
 *     ({@code enc:1:...}) or as a reference ({@code env:NAME}, {@code file:/path}); {@code
 *     rssd.secrets().reveal(...)} gives the clear value. They are the connection's rows of {@code
 *     rs_config}, the same rows {@link ConfigTable#connectionValues} returns
 * @param state the DSI state
 * @param logTransferState the log-transfer state (meaningful when {@code logTransfer})
 */
public record ConnectionDef(
    int id,
    String dataserver,
    String database,
    Profile profile,
    boolean logTransfer,
    Map<String, String> properties,
    ConnectionState state,
    ConnectionState logTransferState) {

  public ConnectionDef {
    Objects.requireNonNull(dataserver, "dataserver");
    Objects.requireNonNull(database, "database");
    Objects.requireNonNull(profile, "profile");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(logTransferState, "logTransferState");
    properties = Collections.unmodifiableMap(new TreeMap<>(properties));
  }

  /** Shows secret properties ({@link Secrets#isSecretName}) as {@code ***}. */
  @Override
  public String toString() {
    Map<String, String> shown = new TreeMap<>();
    properties.forEach((k, v) -> shown.put(k, Secrets.isSecretName(k) ? "***" : v));
    return "ConnectionDef[id="
        + id
        + ", name="
        + name()
        + ", profile="
        + profile
        + ", logTransfer="
        + logTransfer
        + ", properties="
        + shown
        + ", state="
        + state
        + ", logTransferState="
        + logTransferState
        + "]";
  }

  /** {@code ds.db}, the name admin commands use. */
  public String name() {
    return dataserver + "." + database;
  }
}
