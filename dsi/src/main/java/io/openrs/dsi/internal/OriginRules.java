package io.openrs.dsi.internal;

import io.openrs.config.rssd.Profile;
import io.openrs.dsi.OriginProfiles;
import io.openrs.dsi.dialect.Dialect;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether an origin's transactions are applied in replica mode ({@link Dialect#replicaMode}),
 * decided from the origin's profile (design invariant 9): a PostgreSQL origin's log holds its
 * cascaded changes and trigger rows, so the replicate's foreign keys and triggers must not act
 * again; a MariaDB origin's binlog lacks InnoDB's cascades, so {@code dsi_keep_triggers} decides
 * (on, the default: the replicate's cascades run). With {@code dsi_keep_triggers off} every origin
 * is applied in replica mode. An origin whose profile is unknown is treated as MariaDB's (logged
 * once). Also holds whether the DSI's user may turn replica mode on, probed on the run's first
 * connection. Thread-safe: one per run.
 */
public final class OriginRules {
  private static final Logger LOG = LoggerFactory.getLogger(OriginRules.class);

  private final String name;
  private final OriginProfiles profiles;
  private final boolean keepTriggers;
  private final Map<Integer, Boolean> byOrigin = new ConcurrentHashMap<>();
  private volatile Optional<String> refusal; // null until probed

  OriginRules(String name, OriginProfiles profiles, boolean keepTriggers) {
    this.name = name;
    this.profiles = profiles;
    this.keepTriggers = keepTriggers;
  }

  /**
   * True if transactions of {@code origin} are applied with the replicate's own rules off.
   *
   * @throws IllegalStateException if the origin's profile cannot be read (the DSI stops)
   */
  public boolean replicaMode(int origin) {
    if (!keepTriggers) {
      return true;
    }
    return byOrigin.computeIfAbsent(origin, this::decide);
  }

  /** True if every transaction is applied in replica mode ({@code dsi_keep_triggers off}). */
  boolean alwaysReplica() {
    return !keepTriggers;
  }

  private boolean decide(int origin) {
    Optional<Profile> p;
    try {
      p = profiles.profile(origin);
    } catch (RuntimeException e) {
      // not guessed (nor remembered): the wrong mode would apply cascades or triggers twice
      throw new IllegalStateException(
          "the profile of origin " + origin + " could not be read: " + e.getMessage(), e);
    }
    if (p.isEmpty()) {
      LOG.info(
          "{}: the profile of origin {} is unknown; its transactions are applied with the"
              + " replicate's foreign keys and triggers acting (dsi_keep_triggers on)",
          name,
          origin);
      return false;
    }
    boolean replica = OriginProfiles.logsCascades(p.get());
    LOG.info(
        "{}: origin {} is {}: its transactions are applied {}",
        name,
        origin,
        p.get(),
        replica
            ? "in replica mode (its log holds cascaded changes and trigger rows)"
            : "with the replicate's foreign keys and triggers acting (dsi_keep_triggers on)");
    return replica;
  }

  /** Once per run, on a fresh connection: may the DSI's user turn replica mode on? */
  void probe(Dialect dialect, Connection c) throws SQLException {
    if (refusal == null) {
      synchronized (this) {
        if (refusal == null) {
          refusal = dialect.replicaModeRefusal(c);
          refusal.ifPresent(r -> LOG.warn("{}: {}", name, r));
        }
      }
    }
  }

  /** Why the DSI's user may not turn replica mode on (with the GRANT); empty if it may. */
  Optional<String> refusal() {
    Optional<String> r = refusal;
    return r == null ? Optional.empty() : r;
  }
}
