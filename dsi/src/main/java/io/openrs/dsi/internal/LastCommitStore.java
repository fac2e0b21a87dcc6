package io.openrs.dsi.internal;

import io.openrs.dsi.dialect.Dialect;
import io.openrs.ltl.Oqid;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code rs_lastcommit}: the last applied commit OQID per origin, kept in the replicate and written
 * in the same replicate transaction as the changes. The DSI reads it at start and after every
 * reconnect, and skips every transaction whose commit OQID is at or below its origin's row (exactly
 * once). The in-memory copy only grows. Thread-safe.
 */
public final class LastCommitStore {
  private final Dialect dialect;
  private final String schema;
  private final Map<Integer, Oqid> applied = new ConcurrentHashMap<>();

  LastCommitStore(Dialect dialect, String schema) {
    this.dialect = dialect;
    this.schema = schema;
  }

  /**
   * Reads every row (and commits the read), waiting for a transaction of another session that wrote
   * one and has not ended ({@link Dialect#lastCommitSelect}).
   */
  public void load(Connection c) throws SQLException {
    Optional<String> lock = dialect.lastCommitLock(schema);
    if (lock.isPresent()) {
      try (java.sql.Statement st = c.createStatement()) {
        st.execute(lock.get());
      }
    }
    try (PreparedStatement ps = c.prepareStatement(dialect.lastCommitSelect(schema));
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        advance(rs.getInt(1), Oqid.of(rs.getBytes(2)));
      }
    }
    c.commit();
  }

  /** True if the replicate already holds {@code t} (complete transactions only). */
  public boolean applied(SourceTransaction t) {
    if (!t.complete()) {
      return false;
    }
    Oqid last = applied.get(t.origin());
    return last != null && t.commitOqid().compareTo(last) <= 0;
  }

  /** The stored OQID of an origin. */
  public Optional<Oqid> of(int origin) {
    return Optional.ofNullable(applied.get(origin));
  }

  /**
   * Writes each origin's last commit among {@code txs} (in the current transaction, not committed).
   */
  void write(StatementCache statements, List<SourceTransaction> txs) throws SQLException {
    Map<Integer, SourceTransaction> lastByOrigin = new LinkedHashMap<>();
    for (SourceTransaction t : txs) {
      if (t.complete()) {
        lastByOrigin.put(t.origin(), t);
      }
    }
    if (lastByOrigin.isEmpty()) {
      return;
    }
    PreparedStatement ps = statements.get(dialect.lastCommitUpsert(schema));
    for (SourceTransaction t : lastByOrigin.values()) {
      ps.setInt(1, t.origin());
      ps.setBytes(2, t.commitOqid().toBytes());
      dialect.bindInstant(ps, 3, t.commit().get().time());
      ps.executeUpdate();
    }
  }

  /** Records that {@code txs} committed. */
  void committed(List<SourceTransaction> txs) {
    for (SourceTransaction t : txs) {
      if (t.complete()) {
        advance(t.origin(), t.commitOqid());
      }
    }
  }

  private void advance(int origin, Oqid oqid) {
    applied.merge(origin, oqid, (a, b) -> a.compareTo(b) >= 0 ? a : b);
  }
}
