package io.openrs.config.rssd;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * System Table Services: a bounded read cache of the RSSD rows the server reads on hot paths
 * (repdefs by primary table, database repdefs, subscriptions per repdef, connections, users).
 *
 * <p>Each system table has its own cache. A table named in {@code fullyCachedTables} ({@code
 * sts_full_cache_<table>}) is loaded whole, answers every lookup from memory, is never evicted and
 * is not bounded by {@code sts_cachesize}. Every other table keeps at most {@code sts_cachesize}
 * entries (one entry per lookup key, including "nothing there" answers) and swaps out the least
 * recently used one to make room, counting {@code STSCacheExceed}.
 *
 * <p>Writes go through the {@link Rssd} tables as usual; the {@link Rssd} announces each committed
 * write to its definitions before the write call returns, and this cache then drops the changed
 * table's entries (a fully cached table is reloaded on its next lookup). So after an admin change
 * returns, no thread reads the old definition. A lookup that raced with a write does not put its
 * possibly old answer into the cache (a generation check).
 *
 * <p>Thread-safe: lookups come from any server thread; each table's cache has its own lock, held
 * only for map operations, never during an RSSD query of an LRU table. Cached values are immutable.
 */
public final class StsCache implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(StsCache.class);

  /** The system tables the STS caches; the names {@code sts_full_cache_<table>} may name. */
  public static final Set<String> CACHEABLE_TABLES =
      Set.of(
          "rs_connections",
          "rs_objects",
          "rs_columns",
          "rs_dbreps",
          "rs_subscriptions",
          "rs_users");

  /** Key of a connection looked up by name. */
  private record ConnName(String dataserver, String database) {}

  /** Key of the repdefs of one primary table. */
  private record TableKey(int connectionId, String schema, String table) {}

  private final Rssd rssd;
  private final int cacheSize;
  private final Set<String> fullyCached;
  private final Group<Object, Optional<ConnectionDef>> connections;
  private final Group<TableKey, List<RepDef>> repDefs;
  private final Group<Integer, List<DatabaseRepDef>> dbRepDefs;
  private final Group<String, List<Subscription>> subscriptions;
  private final Group<String, Optional<RssdUser>> users;
  private final List<Group<?, ?>> groups;
  private final Consumer<SystemTable> listener = this::changed;

  /**
   * Builds the cache and loads the fully cached tables.
   *
   * @param rssd the RSSD; its writes invalidate this cache
   * @param stsCacheSize {@code sts_cachesize}: entries each not fully cached table may hold (0 =
   *     cache nothing)
   * @param fullyCachedTables tables to cache whole, from {@link #CACHEABLE_TABLES}; {@code
   *     rs_columns} means the same as {@code rs_objects} (a repdef's columns are part of its entry)
   * @param registry where the counters ({@link StsCounter}) are registered
   * @throws IllegalArgumentException for a negative size or a table name not in {@link
   *     #CACHEABLE_TABLES}
   */
  public StsCache(
      Rssd rssd, int stsCacheSize, Set<String> fullyCachedTables, MeterRegistry registry) {
    this.rssd = Objects.requireNonNull(rssd, "rssd");
    Objects.requireNonNull(registry, "registry");
    if (stsCacheSize < 0) {
      throw new IllegalArgumentException("sts_cachesize must not be negative: " + stsCacheSize);
    }
    Set<String> full = new TreeSet<>();
    for (String t : fullyCachedTables) {
      String table = t.toLowerCase(Locale.ROOT);
      if (!CACHEABLE_TABLES.contains(table)) {
        throw new IllegalArgumentException(
            "STS cannot cache table '"
                + t
                + "'; cacheable tables: "
                + new TreeSet<>(CACHEABLE_TABLES));
      }
      full.add(table.equals("rs_columns") ? "rs_objects" : table);
    }
    this.cacheSize = stsCacheSize;
    this.fullyCached = Collections.unmodifiableSet(full);

    ConnectionsTable ct = rssd.connections();
    this.connections =
        new Group<>(
            "rs_connections",
            full.contains("rs_connections"),
            stsCacheSize,
            registry,
            key ->
                key instanceof ConnName n
                    ? ct.find(n.dataserver(), n.database())
                    : ct.find((Integer) key),
            () -> {
              Map<Object, Optional<ConnectionDef>> all = new HashMap<>();
              for (ConnectionDef c : ct.all()) {
                all.put(c.id(), Optional.of(c));
                all.put(new ConnName(c.dataserver(), c.database()), Optional.of(c));
              }
              return all;
            },
            Optional.empty());
    SqlRepDefsTable rt = rssd.repDefsSql();
    this.repDefs =
        new Group<>(
            "rs_objects",
            full.contains("rs_objects"),
            stsCacheSize,
            registry,
            key -> rt.forPrimaryTable(key.connectionId(), key.schema(), key.table()),
            () ->
                groupBy(
                    rt.all(),
                    d ->
                        new TableKey(d.primaryConnectionId(), d.primarySchema(), d.primaryTable())),
            List.of());
    this.dbRepDefs =
        new Group<>(
            "rs_dbreps",
            full.contains("rs_dbreps"),
            stsCacheSize,
            registry,
            rt::databaseRepDefsFor,
            () -> groupBy(rt.allDatabaseRepDefs(), DatabaseRepDef::primaryConnectionId),
            List.of());
    SubscriptionsTable st = rssd.subscriptions();
    this.subscriptions =
        new Group<>(
            "rs_subscriptions",
            full.contains("rs_subscriptions"),
            stsCacheSize,
            registry,
            st::forRepDef,
            () -> groupBy(st.all(), Subscription::repDefName),
            List.of());
    UsersTable ut = rssd.users();
    this.users =
        new Group<>(
            "rs_users",
            full.contains("rs_users"),
            stsCacheSize,
            registry,
            ut::find,
            () -> {
              Map<String, Optional<RssdUser>> all = new HashMap<>();
              for (RssdUser u : ut.all()) {
                all.put(u.name(), Optional.of(u));
              }
              return all;
            },
            Optional.empty());
    this.groups = List.of(connections, repDefs, dbRepDefs, subscriptions, users);
    rssd.addChangeListener(listener);
    try {
      for (Group<?, ?> g : groups) {
        g.loadIfFull();
      }
    } catch (RuntimeException e) {
      rssd.removeChangeListener(listener);
      throw e;
    }
  }

  private static <K, V> Map<K, List<V>> groupBy(List<V> values, Function<V, K> key) {
    Map<K, List<V>> grouped = new HashMap<>();
    for (V v : values) {
      grouped.computeIfAbsent(key.apply(v), k -> new ArrayList<>()).add(v);
    }
    grouped.replaceAll((k, v) -> List.copyOf(v));
    return grouped;
  }

  /** The connection {@code ds.db}. */
  public Optional<ConnectionDef> connection(String dataserver, String database) {
    return connections.get(
        new ConnName(
            Objects.requireNonNull(dataserver, "dataserver"),
            Objects.requireNonNull(database, "database")));
  }

  public Optional<ConnectionDef> connection(int id) {
    return connections.get(id);
  }

  /** The table repdefs of one primary table, by name; empty when it has none. */
  public List<RepDef> repDefsForTable(int primaryConnectionId, String schema, String table) {
    return repDefs.get(
        new TableKey(
            primaryConnectionId,
            Objects.requireNonNull(schema, "schema"),
            Objects.requireNonNull(table, "table")));
  }

  /** The database repdefs of one primary connection, by name. */
  public List<DatabaseRepDef> databaseRepDefs(int primaryConnectionId) {
    return dbRepDefs.get(primaryConnectionId);
  }

  /** The subscriptions to one repdef (table or database level), by replicate then name. */
  public List<Subscription> subscriptionsFor(String repDefName) {
    return subscriptions.get(Objects.requireNonNull(repDefName, "repDefName"));
  }

  public Optional<RssdUser> user(String name) {
    return users.get(Objects.requireNonNull(name, "name"));
  }

  /** Drops every cached entry; fully cached tables reload on their next lookup. */
  public void invalidateAll() {
    for (Group<?, ?> g : groups) {
      g.invalidate();
    }
  }

  /** The RSSD behind the cache. */
  public Rssd rssd() {
    return rssd;
  }

  /** {@code sts_cachesize}. */
  public int cacheSize() {
    return cacheSize;
  }

  /** The fully cached tables ({@code rs_columns} is reported as {@code rs_objects}). */
  public Set<String> fullyCachedTables() {
    return fullyCached;
  }

  /** Lookups answered from memory, all tables. */
  public long hits() {
    return groups.stream().mapToLong(g -> g.hitCount.sum()).sum();
  }

  /** Lookups that queried the RSSD, all tables. */
  public long misses() {
    return groups.stream().mapToLong(g -> g.missCount.sum()).sum();
  }

  /** Entries swapped out for lack of room ({@code STSCacheExceed}), all tables. */
  public long cacheExceeded() {
    return groups.stream().mapToLong(g -> g.exceedCount.sum()).sum();
  }

  /**
   * Entries cached now for one table: lookup keys for an LRU table, loaded keys for a fully cached
   * one.
   *
   * @throws IllegalArgumentException for a table not in {@link #CACHEABLE_TABLES}
   */
  public int cachedEntries(String table) {
    String t = table.equals("rs_columns") ? "rs_objects" : table;
    for (Group<?, ?> g : groups) {
      if (g.table.equals(t)) {
        return g.size();
      }
    }
    throw new IllegalArgumentException("STS does not cache table '" + table + "'");
  }

  private void changed(SystemTable table) {
    switch (table) {
      case RS_CONNECTIONS:
        connections.invalidate();
        break;
      case RS_OBJECTS:
      case RS_COLUMNS:
        repDefs.invalidate();
        break;
      case RS_DBREPS:
      case RS_DBSUBSETS:
        dbRepDefs.invalidate();
        break;
      case RS_SUBSCRIPTIONS:
        subscriptions.invalidate();
        break;
      case RS_USERS:
      case RS_CONNECT_SOURCE:
        users.invalidate();
        break;
      default:
        break;
    }
  }

  /** Stops listening to the RSSD's writes. The cache must not be used afterwards. */
  @Override
  public void close() {
    rssd.removeChangeListener(listener);
  }

  /**
   * The cache of one system table: an access-ordered LRU map bounded by {@code capacity}, or, when
   * {@code full}, an immutable snapshot of the whole table.
   */
  private static final class Group<K, V> {
    final String table;
    final boolean full;
    final int capacity;
    final Function<K, V> loader;
    final Supplier<Map<K, V>> fullLoader;
    final V absent;
    final LongAdder hitCount = new LongAdder();
    final LongAdder missCount = new LongAdder();
    final LongAdder exceedCount = new LongAdder();
    final Counter hits;
    final Counter misses;
    final Counter exceeded;
    final ReentrantLock lock = new ReentrantLock();

    /** Guarded by {@link #lock}. */
    final LinkedHashMap<K, V> lru = new LinkedHashMap<>(16, 0.75f, true);

    /** Guarded by {@link #lock}; bumped by every invalidation. */
    long generation;

    /** Guarded by {@link #lock}. */
    boolean exceedLogged;

    /** Written under {@link #lock}; null when not loaded. */
    volatile Map<K, V> snapshot;

    Group(
        String table,
        boolean full,
        int capacity,
        MeterRegistry registry,
        Function<K, V> loader,
        Supplier<Map<K, V>> fullLoader,
        V absent) {
      this.table = table;
      this.full = full;
      this.capacity = capacity;
      this.loader = loader;
      this.fullLoader = fullLoader;
      this.absent = absent;
      this.hits = counter(registry, StsCounter.STS_CACHE_HITS);
      this.misses = counter(registry, StsCounter.STS_CACHE_MISSES);
      this.exceeded = counter(registry, StsCounter.STS_CACHE_EXCEED);
    }

    private Counter counter(MeterRegistry registry, StsCounter c) {
      return Counter.builder(c.counterName())
          .description(c.description())
          .baseUnit(c.unit())
          .tag("module", StsCounter.MODULE)
          .tag("instance", table)
          .register(registry);
    }

    V get(K key) {
      if (full) {
        V v = loaded().get(key);
        hit();
        return v == null ? absent : v;
      }
      long seen;
      lock.lock();
      try {
        V v = lru.get(key);
        if (v != null) {
          hit();
          return v;
        }
        seen = generation;
      } finally {
        lock.unlock();
      }
      missCount.increment();
      misses.increment();
      V v = loader.apply(key);
      lock.lock();
      try {
        if (generation == seen) {
          lru.put(key, v);
          evictOverflow();
        }
      } finally {
        lock.unlock();
      }
      return v;
    }

    private void hit() {
      hitCount.increment();
      hits.increment();
    }

    /** Caller holds {@link #lock}. */
    private void evictOverflow() {
      Iterator<K> eldest = lru.keySet().iterator();
      while (lru.size() > capacity) {
        K evicted = eldest.next();
        eldest.remove();
        exceedCount.increment();
        exceeded.increment();
        if (!exceedLogged) {
          exceedLogged = true;
          LOG.info(
              "A cached entry for system table '{}' was swapped out of the STS cache to make room"
                  + " for another (sts_cachesize {}); raise sts_cachesize or set"
                  + " sts_full_cache_{} on. Further swaps are counted in STSCacheExceed.",
              table,
              capacity,
              table);
        } else {
          LOG.debug("STS swapped out {} entry {}", table, evicted);
        }
      }
    }

    /** The snapshot of a fully cached table, loading it when needed. */
    private Map<K, V> loaded() {
      Map<K, V> snap = snapshot;
      if (snap != null) {
        return snap;
      }
      lock.lock();
      try {
        snap = snapshot;
        if (snap == null) {
          missCount.increment();
          misses.increment();
          // Loaded under the lock: an invalidation (after a committed write) waits for this load
          // and then drops it, so an old snapshot never survives a write.
          snap = Map.copyOf(fullLoader.get());
          snapshot = snap;
        }
        return snap;
      } finally {
        lock.unlock();
      }
    }

    void loadIfFull() {
      if (full) {
        loaded();
      }
    }

    void invalidate() {
      lock.lock();
      try {
        generation++;
        lru.clear();
        snapshot = null;
      } finally {
        lock.unlock();
      }
    }

    int size() {
      if (full) {
        Map<K, V> snap = snapshot;
        return snap == null ? 0 : snap.size();
      }
      lock.lock();
      try {
        return lru.size();
      } finally {
        lock.unlock();
      }
    }
  }
}
