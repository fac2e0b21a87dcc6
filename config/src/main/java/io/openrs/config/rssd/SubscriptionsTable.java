package io.openrs.config.rssd;

import java.util.List;
import java.util.Optional;

/** Subscriptions: {@code rs_subscriptions}, keyed by name and replicate connection. */
public interface SubscriptionsTable {
  /**
   * Stores a subscription.
   *
   * @return it, with its creation time
   * @throws RssdException {@code DUPLICATE} when the name exists for that replicate, {@code
   *     NOT_FOUND} when the replicate connection or the repdef (of the kind {@code databaseLevel}
   *     says) does not exist, {@code INVALID} for a where-clause on a database subscription
   */
  Subscription create(
      String name,
      String repDefName,
      boolean databaseLevel,
      int replicateConnectionId,
      Optional<String> whereClause,
      SubscriptionState state);

  Optional<Subscription> find(String name, int replicateConnectionId);

  /** The subscriptions to one repdef (table or database level), by replicate then name. */
  List<Subscription> forRepDef(String repDefName);

  /** The subscriptions of one replicate connection, by name. */
  List<Subscription> forReplicate(int replicateConnectionId);

  /** Every subscription, by replicate then name. */
  List<Subscription> all();

  /**
   * Changes the materialization state.
   *
   * @throws RssdException {@code NOT_FOUND}
   */
  void setState(String name, int replicateConnectionId, SubscriptionState state);

  /**
   * Drops a subscription.
   *
   * @throws RssdException {@code NOT_FOUND}
   */
  void drop(String name, int replicateConnectionId);
}
