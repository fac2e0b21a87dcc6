package io.openrs.dsi;

import io.openrs.config.rssd.Profile;
import java.util.Map;
import java.util.Optional;

/**
 * What kind of database each origin is, by origin connection id (every transaction in the outbound
 * queue carries its origin's). The DSI decides from it whether the replicate's own rules may act on
 * an origin's changes (design invariant 9): a PostgreSQL origin's log holds the changes its
 * foreign-key actions and triggers made, so they are applied in replica mode and the replicate's
 * cascades and triggers do not repeat them; MariaDB's binlog holds rows written by triggers but not
 * InnoDB's cascades, which the replicate must then make itself. Implementations are thread-safe;
 * the DSI asks once per origin and run.
 */
@FunctionalInterface
public interface OriginProfiles {

  /** The profile of origin connection {@code originConnectionId}; empty if unknown. */
  Optional<Profile> profile(int originConnectionId);

  /** No origin is known: {@code dsi_keep_triggers} alone decides, as before origins were known. */
  static OriginProfiles unknown() {
    return origin -> Optional.empty();
  }

  /** A fixed map of origins. */
  static OriginProfiles of(Map<Integer, Profile> profiles) {
    Map<Integer, Profile> copy = Map.copyOf(profiles);
    return origin -> Optional.ofNullable(copy.get(origin));
  }

  /**
   * True if an origin of {@code profile} writes to its log the rows its foreign-key actions
   * (cascaded deletes and updates, set null) changed: PostgreSQL does; MariaDB/MySQL does not
   * (InnoDB's cascades are not in the binlog).
   */
  static boolean logsCascades(Profile profile) {
    return profile == Profile.POSTGRESQL;
  }
}
