package io.openrs.config.rssd;

import io.openrs.config.rssd.RssdException.Reason;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.function.Consumer;
import javax.sql.DataSource;

/**
 * Runs the table classes' SQL: borrows a pooled connection, runs a read or a transaction, turns
 * {@link SQLException}s into {@link RssdException}s naming table and key, and after a committed
 * write tells the change listeners (the STS caches) which table changed.
 *
 * <p>Thread-safe; each call uses its own pooled connection.
 */
final class Jdbc {
  /** SQLSTATE of a unique or primary key violation (H2 and PostgreSQL). */
  static final String UNIQUE_VIOLATION = "23505";

  /** SQLSTATE of a foreign key violation (H2 reports 23503 or 23506). */
  static final String FOREIGN_KEY_VIOLATION = "23503";

  private static final String H2_FOREIGN_KEY_PARENT_MISSING = "23506";

  /** Work on a connection. */
  @FunctionalInterface
  interface Work<T> {
    T run(Connection c) throws SQLException;
  }

  private final DataSource dataSource;
  private final Consumer<SystemTable> changed;

  Jdbc(DataSource dataSource, Consumer<SystemTable> changed) {
    this.dataSource = dataSource;
    this.changed = changed;
  }

  /** Runs {@code work} on an auto-commit connection. */
  <T> T read(SystemTable table, String key, Work<T> work) {
    try (Connection c = dataSource.getConnection()) {
      return work.run(c);
    } catch (SQLException e) {
      throw translate(table, key, e);
    }
  }

  /**
   * Runs {@code work} in one transaction and commits it; rolls back on any exception. After the
   * commit, and before returning, tells the listeners that {@code changes} changed (none when
   * null).
   */
  <T> T write(SystemTable table, String key, SystemTable changes, Work<T> work) {
    T result;
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      try {
        result = work.run(c);
        c.commit();
      } catch (SQLException | RuntimeException | Error e) {
        rollbackQuietly(c, e);
        throw e;
      }
    } catch (SQLException e) {
      throw translate(table, key, e);
    }
    if (changes != null) {
      changed.accept(changes);
    }
    return result;
  }

  private static void rollbackQuietly(Connection c, Throwable failure) {
    try {
      c.rollback();
    } catch (SQLException e) {
      failure.addSuppressed(e);
    }
  }

  /**
   * Inserts a row or, when its key exists, updates it: update first, insert when nothing was
   * updated, and on a unique violation (a concurrent insert won) update again. Runs inside the
   * caller's transaction; the failed insert is rolled back to a savepoint so PostgreSQL keeps the
   * transaction usable.
   */
  static void upsert(Connection c, Work<Integer> update, Work<Integer> insert) throws SQLException {
    if (update.run(c) > 0) {
      return;
    }
    Savepoint savepoint = c.setSavepoint();
    try {
      insert.run(c);
      c.releaseSavepoint(savepoint);
    } catch (SQLException e) {
      if (!isUniqueViolation(e)) {
        throw e;
      }
      c.rollback(savepoint);
      if (update.run(c) == 0) {
        throw e;
      }
    }
  }

  static boolean isUniqueViolation(SQLException e) {
    return UNIQUE_VIOLATION.equals(e.getSQLState());
  }

  static boolean isForeignKeyViolation(SQLException e) {
    return FOREIGN_KEY_VIOLATION.equals(e.getSQLState())
        || H2_FOREIGN_KEY_PARENT_MISSING.equals(e.getSQLState());
  }

  /** An {@link RssdException} for a database failure: SQLSTATE, vendor code and message. */
  static RssdException translate(SystemTable table, String key, SQLException e) {
    Reason reason;
    if (isUniqueViolation(e)) {
      reason = Reason.DUPLICATE;
    } else if (isForeignKeyViolation(e)) {
      reason = Reason.NOT_FOUND;
    } else {
      reason = Reason.DATABASE;
    }
    return new RssdException(
        reason, table.sqlName(), key, "operation on '" + key + "' failed: " + describe(e), e);
  }

  /** {@code SQLSTATE 23505, vendor code 0: message}, first line of the message only. */
  static String describe(SQLException e) {
    String message = String.valueOf(e.getMessage());
    int newline = message.indexOf('\n');
    if (newline >= 0) {
      message = message.substring(0, newline);
    }
    return "SQLSTATE " + e.getSQLState() + ", vendor code " + e.getErrorCode() + ": " + message;
  }

  /** Instants are kept to the microsecond, the precision both databases store. */
  static Instant micros(Instant instant) {
    return instant.truncatedTo(ChronoUnit.MICROS);
  }

  static void setInstant(PreparedStatement ps, int index, Instant instant) throws SQLException {
    if (instant == null) {
      ps.setNull(index, Types.TIMESTAMP_WITH_TIMEZONE);
    } else {
      ps.setObject(index, OffsetDateTime.ofInstant(micros(instant), ZoneOffset.UTC));
    }
  }

  static Instant getInstant(ResultSet rs, String column) throws SQLException {
    OffsetDateTime t = rs.getObject(column, OffsetDateTime.class);
    return t == null ? null : t.toInstant();
  }

  /**
   * @throws RssdException {@code INVALID} when {@code value} is null or blank
   */
  static String requireName(SystemTable table, String key, String what, String value) {
    if (value == null || value.isBlank()) {
      throw new RssdException(Reason.INVALID, table.sqlName(), key, what + " must not be blank");
    }
    return value;
  }
}
