package io.openrs.dsi.internal;

import io.openrs.dsi.ErrorAction;
import io.openrs.dsi.ErrorClass;
import io.openrs.dsi.dialect.Dialect;
import io.openrs.dsi.dialect.ErrorKind;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The one place that decides what an error means: its {@link ErrorKind} (reconnect? deadlock?) and
 * its {@link ErrorAction}. Actions come from the connection's error class, then the dialect's
 * defaults; an error neither maps stops replication. When a failure carries several errors (a
 * batch's chain) the most severe action wins. Immutable and thread-safe.
 */
final class ErrorPolicy {
  private final Dialect dialect;
  private final ErrorClass connectionClass;
  private final ErrorClass defaults;

  ErrorPolicy(Dialect dialect, ErrorClass connectionClass) {
    this.dialect = dialect;
    this.connectionClass = connectionClass;
    this.defaults = dialect.defaultErrorClass();
  }

  /** What the failure means; a lost connection anywhere in the chain wins. */
  ErrorKind kind(StatementFailure f) {
    if (f.sqlException().isEmpty()) {
      return ErrorKind.OTHER;
    }
    ErrorKind worst = null;
    for (SQLException e : chain(f.sqlException().get())) {
      ErrorKind k = dialect.classify(e);
      if (k == ErrorKind.CONNECTION) {
        return k;
      }
      if (worst == null || (k.transientConflict() && !worst.transientConflict())) {
        worst = k;
      }
    }
    return worst == null ? ErrorKind.OTHER : worst;
  }

  /** The action for the failure. */
  ErrorAction action(StatementFailure f) {
    if (f.dsiCode().isPresent()) {
      return lookup(Integer.parseInt(f.dsiCode().get()), null);
    }
    ErrorAction worst = ErrorAction.IGNORE;
    for (SQLException e : chain(f.sqlException().get())) {
      worst = ErrorAction.max(worst, lookup(e.getErrorCode(), e.getSQLState()));
    }
    return worst;
  }

  /** The action assigned to one error code (vendor number or SQLSTATE). */
  ErrorAction lookup(int vendorCode, String sqlState) {
    Optional<ErrorAction> a = connectionClass.lookup(vendorCode, sqlState);
    if (a.isEmpty()) {
      a = defaults.lookup(vendorCode, sqlState);
    }
    return a.orElse(ErrorAction.STOP_REPLICATION);
  }

  /** The exception, its next exceptions and causes, each once. */
  static List<SQLException> chain(SQLException first) {
    List<SQLException> out = new ArrayList<>();
    Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    List<Throwable> todo = new ArrayList<>(List.of(first));
    while (!todo.isEmpty() && out.size() < 32) {
      Throwable t = todo.remove(0);
      if (t == null || !seen.add(t)) {
        continue;
      }
      if (t instanceof SQLException s) {
        out.add(s);
        todo.add(s.getNextException());
      }
      todo.add(t.getCause());
    }
    return out;
  }
}
