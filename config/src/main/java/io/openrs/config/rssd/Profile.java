package io.openrs.config.rssd;

/** The kind of database behind a connection; selects the agent's connector and the DSI dialect. */
public enum Profile {
  POSTGRESQL,
  MARIADB
}
