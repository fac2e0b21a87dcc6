package io.openrs.dsi;

import java.sql.Connection;
import java.util.OptionalInt;

/** {@code dsi_isolation_level}: the isolation level of DSI transactions. */
public enum IsolationLevel {
  /** The replicate's own default. */
  DEFAULT(OptionalInt.empty()),
  READ_UNCOMMITTED(OptionalInt.of(Connection.TRANSACTION_READ_UNCOMMITTED)),
  READ_COMMITTED(OptionalInt.of(Connection.TRANSACTION_READ_COMMITTED)),
  REPEATABLE_READ(OptionalInt.of(Connection.TRANSACTION_REPEATABLE_READ)),
  SERIALIZABLE(OptionalInt.of(Connection.TRANSACTION_SERIALIZABLE));

  private final OptionalInt jdbcLevel;

  IsolationLevel(OptionalInt jdbcLevel) {
    this.jdbcLevel = jdbcLevel;
  }

  /** The JDBC constant, empty for {@link #DEFAULT}. */
  public OptionalInt jdbcLevel() {
    return jdbcLevel;
  }
}
