package io.openrs.dsi.internal;

import com.zaxxer.hikari.SQLExceptionOverride;
import io.openrs.dsi.dialect.Dialect;
import io.openrs.dsi.dialect.ErrorKind;
import java.sql.SQLException;

/**
 * Which errors make the pool drop a DSI connection: those the dialect classifies as a lost
 * connection, and no others. HikariCP on its own also evicts on SQLSTATE {@code 0A000} ("feature
 * not supported", PostgreSQL's answer to {@code TRUNCATE} of a table a foreign key references) and
 * a list of vendor codes; the evicted connection then failed {@code isValid}, so the DSI took a
 * refused statement for a lost connection and reconnected and failed again, 20-25 times a second,
 * forever. The DSI decides what an error means ({@link ErrorPolicy}) and evicts a connection itself
 * when it reconnects. Immutable.
 */
public final class PoolEviction implements SQLExceptionOverride {
  private final Dialect dialect;

  public PoolEviction(Dialect dialect) {
    this.dialect = dialect;
  }

  @java.lang.Override
  public SQLExceptionOverride.Override adjudicate(SQLException e) {
    return dialect.classify(e) == ErrorKind.CONNECTION
        ? SQLExceptionOverride.Override.MUST_EVICT
        : SQLExceptionOverride.Override.DO_NOT_EVICT;
  }
}
