package io.openrs.config.rssd;

import java.util.Objects;

/**
 * A failed RSSD operation. The message names the system table and the key; {@link #reason()} is
 * stable, so the admin interface can map it to an error code without parsing text.
 */
public final class RssdException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Why the operation failed. */
  public enum Reason {
    /** A row with the same key exists (duplicate connection, repdef, subscription, user). */
    DUPLICATE,
    /** The row, or a row it refers to, does not exist. */
    NOT_FOUND,
    /** The row is still referred to (a repdef with subscriptions, a connection with repdefs). */
    IN_USE,
    /** The request itself is wrong (blank name, key column that is not a column, ...). */
    INVALID,
    /** The RSSD schema cannot be used: newer than this server, failed migration. */
    SCHEMA,
    /** The database refused or failed (connection lost, timeout, ...); carries SQLSTATE. */
    DATABASE
  }

  private final Reason reason;
  private final String table;
  private final String key;

  public RssdException(Reason reason, String table, String key, String message) {
    this(reason, table, key, message, null);
  }

  public RssdException(Reason reason, String table, String key, String message, Throwable cause) {
    super(table + ": " + message, cause);
    this.reason = Objects.requireNonNull(reason, "reason");
    this.table = Objects.requireNonNull(table, "table");
    this.key = Objects.requireNonNull(key, "key");
  }

  public Reason reason() {
    return reason;
  }

  /** The RSSD table concerned, e.g. {@code rs_connections}. */
  public String table() {
    return table;
  }

  /** The key concerned as text, e.g. {@code ds1.db1}; empty when none. */
  public String key() {
    return key;
  }
}
