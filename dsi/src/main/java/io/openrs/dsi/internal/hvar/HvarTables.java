package io.openrs.dsi.internal.hvar;

import io.openrs.dsi.DsiCounter;
import io.openrs.dsi.DsiSettings;
import io.openrs.dsi.dialect.TableMeta;
import io.openrs.dsi.internal.ForeignKeyOrder;
import io.openrs.dsi.internal.RunContext;
import io.openrs.ltl.TableName;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What HVAR knows about replicate tables during one run: their columns and keys and the tables
 * their foreign keys reference (read from the replicate's catalog, kept until a failure or DDL),
 * and which tables are applied in continuous mode: by the dialect's restrictions, by table-level
 * settings, and after {@code dsi_compile_retry_threshold} failed bulk applies (until the connection
 * resumes, i.e. this run ends). Thread-safe: the compiling thread reads it, executors blame tables.
 */
final class HvarTables {
  private static final Logger LOG = LoggerFactory.getLogger(HvarTables.class);

  private final RunContext ctx;
  private final DsiSettings.Hvar settings;
  private final Map<TableName, TableMeta> metas = new ConcurrentHashMap<>();
  private final Map<TableName, List<TableName>> parents = new ConcurrentHashMap<>();
  private final Map<TableName, Boolean> observable = new ConcurrentHashMap<>();
  private final Map<TableName, Boolean> cascading = new ConcurrentHashMap<>();
  private final Map<TableName, Integer> failures = new ConcurrentHashMap<>();
  private final Set<TableName> continuous = ConcurrentHashMap.newKeySet();

  HvarTables(RunContext ctx) {
    this.ctx = ctx;
    this.settings = ctx.settings.hvar();
  }

  /**
   * The compiler's view of the tables for a group applied in replica mode or not, reading the
   * catalog on {@code c} when needed.
   */
  TableSource source(Connection c, boolean replicaMode) {
    return new TableSource() {
      @Override
      public TableMeta table(TableName name) throws SQLException {
        TableMeta t = metas.get(name);
        if (t == null) {
          try {
            t = ctx.dialect.describe(c, name);
          } finally {
            c.commit();
          }
          if (t.exists()) {
            metas.put(name, t);
          }
        }
        return t;
      }

      @Override
      public boolean uniqueChangesAsDeleteInsert(TableMeta t) throws SQLException {
        if (t.uniqueKeys().isEmpty()) {
          return false;
        }
        if (ctx.dialect.deleteInsertInvisible(replicaMode)) {
          return true;
        }
        Boolean r = observable.get(t.name());
        if (r == null) {
          try {
            r = ctx.dialect.deleteObservable(c, t.name());
          } finally {
            c.commit();
          }
          observable.put(t.name(), r);
        }
        return !r;
      }

      @Override
      public boolean keyMovesAsDeleteInsert(TableMeta t) throws SQLException {
        if (ctx.dialect.deleteInsertInvisible(replicaMode)) {
          return true;
        }
        Boolean r = cascading.get(t.name());
        if (r == null) {
          try {
            r = ctx.dialect.deleteCascades(c, t.name());
          } finally {
            c.commit();
          }
          cascading.put(t.name(), r);
        }
        return !r;
      }

      @Override
      public Optional<String> restriction(TableMeta t) {
        Optional<String> r = ctx.dialect.bulkRestriction(t);
        if (r.isPresent()) {
          return r;
        }
        TableName n = t.name();
        if (settings.tablesNotCompiled().contains(n.schema() + "." + n.table())) {
          return Optional.of("dsi_compile_enable is off for replicate table " + n);
        }
        if (continuous.contains(n)) {
          return Optional.of(
              "replicate table "
                  + n
                  + " is applied in continuous mode after "
                  + settings.retryThreshold()
                  + " failed bulk applies (dsi_compile_retry_threshold) until the connection"
                  + " resumes");
        }
        return Optional.empty();
      }
    };
  }

  /**
   * True if a group touching {@code tables} must defer deferrable constraints to its commit: one of
   * them has some (or is no longer described).
   */
  boolean deferrable(List<TableName> tables) {
    for (TableName t : tables) {
      TableMeta m = metas.get(t);
      if (m == null || m.deferrableConstraints()) {
        return true;
      }
    }
    return false;
  }

  /** The group's tables, parents before children (the catalog read on {@code c}). */
  List<TableName> parentsFirst(Connection c, List<TableName> tables) throws SQLException {
    Map<TableName, List<TableName>> refs = new HashMap<>();
    try {
      for (TableName t : tables) {
        List<TableName> p = parents.get(t);
        if (p == null) {
          p = List.copyOf(ctx.dialect.referencedTables(c, t));
          parents.put(t, p);
        }
        refs.put(t, p);
      }
    } finally {
      c.commit();
    }
    return ForeignKeyOrder.parentsFirst(tables, refs);
  }

  /** The tables {@code t}'s foreign keys reference (the catalog read on {@code c}). */
  List<TableName> parents(Connection c, TableName t) throws SQLException {
    List<TableName> p = parents.get(t);
    if (p == null) {
      try {
        p = List.copyOf(ctx.dialect.referencedTables(c, t));
      } finally {
        c.commit();
      }
      parents.put(t, p);
    }
    return p;
  }

  /** A bulk apply involving {@code t} failed; past the threshold its transactions go continuous. */
  void blame(TableName t) {
    int n = failures.merge(t, 1, Integer::sum);
    if (n >= settings.retryThreshold() && continuous.add(t)) {
      ctx.meters.add(DsiCounter.HVAR_TABLES_CONTINUOUS, 1);
      LOG.warn(
          "{}: {} failed bulk applies involved replicate table {} (dsi_compile_retry_threshold"
              + " {}); its transactions are applied in continuous mode until the connection"
              + " resumes",
          ctx.name(),
          n,
          t,
          settings.retryThreshold());
    }
  }

  /** Forgets catalog reads (after a failure or DDL that may have changed a table). */
  void invalidate() {
    metas.clear();
    parents.clear();
    observable.clear();
    cascading.clear();
  }
}
