package io.openrs.config.rssd;

import java.util.Optional;

/**
 * Origin locators: {@code rs_locater} (Replication Server's spelling), one row per origin
 * connection holding the last OQID the server made durable and the agent's resume data.
 */
public interface LocatorsTable {
  Optional<Locator> find(int originConnectionId);

  /**
   * Stores a locator (insert or update). The stored OQID never moves backwards: OQIDs compare
   * bytewise, unsigned, and on an equal prefix the longer one is greater; a save below the stored
   * OQID changes nothing (neither OQID nor blob). A save at or above it replaces the OQID, and the
   * blob unless {@code resumeBlobOrNull} is null (keep the stored blob).
   *
   * @throws RssdException {@code NOT_FOUND} when the connection does not exist
   */
  void save(int originConnectionId, byte[] oqid, byte[] resumeBlobOrNull);

  /**
   * Removes the row so the agent restarts from its own truncation point (RS {@code rs_zeroltm}).
   *
   * @return false when there was none
   */
  boolean reset(int originConnectionId);
}
