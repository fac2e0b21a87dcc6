package io.openrs.dsi.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Prepared statements of one connection, reused by SQL text, least recently used closed first. Not
 * thread-safe: owned by the executor thread that owns the connection.
 */
public final class StatementCache {
  private final Connection connection;
  private final int capacity;
  private final LinkedHashMap<String, PreparedStatement> cache =
      new LinkedHashMap<>(64, 0.75f, true);
  private long prepared;

  StatementCache(Connection connection, int capacity) {
    this.connection = connection;
    this.capacity = capacity;
  }

  public PreparedStatement get(String sql) throws SQLException {
    PreparedStatement ps = cache.get(sql);
    if (ps == null) {
      ps = connection.prepareStatement(sql);
      prepared++;
      cache.put(sql, ps);
      if (cache.size() > capacity) {
        Map.Entry<String, PreparedStatement> eldest = cache.entrySet().iterator().next();
        cache.remove(eldest.getKey());
        closeQuietly(eldest.getValue());
      }
    }
    return ps;
  }

  /** Statements prepared so far (cache misses). */
  long prepared() {
    return prepared;
  }

  /** Closes every statement (after DDL, or before the connection goes). */
  void clear() {
    cache.values().forEach(StatementCache::closeQuietly);
    cache.clear();
  }

  private static void closeQuietly(PreparedStatement ps) {
    try {
      ps.close();
    } catch (SQLException ignored) {
      // the connection may be gone; nothing to release then
    }
  }
}
