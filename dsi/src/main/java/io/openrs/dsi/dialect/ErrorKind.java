package io.openrs.dsi.dialect;

/**
 * What a database error means to the DSI, whatever the target: it decides reconnects and what is
 * counted as a deadlock. Which action follows is the error class's business ({@code
 * io.openrs.dsi.ErrorClass}).
 */
public enum ErrorKind {
  /** The connection is gone (network, server shutdown, backend terminated): reconnect. */
  CONNECTION,
  /** The database broke a deadlock by rolling this transaction back. */
  DEADLOCK,
  /** A serialization failure (SERIALIZABLE / REPEATABLE READ conflict). */
  SERIALIZATION,
  /** A lock wait timed out. */
  LOCK_TIMEOUT,
  /** An integrity constraint failed (unique, foreign key, not null, check). */
  CONSTRAINT,
  /** A value was refused (type, range, format). */
  DATA,
  /** Anything else (missing table or column, privileges, ...). */
  OTHER;

  /** True for the kinds that the same transaction can pass on a second try. */
  public boolean transientConflict() {
    return this == DEADLOCK || this == SERIALIZATION || this == LOCK_TIMEOUT;
  }
}
