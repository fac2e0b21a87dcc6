package io.openrs.config.rssd;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A subscription ({@code create subscription}), a row of {@code rs_subscriptions}. Its key is the
 * name together with the replicate connection.
 *
 * @param name the subscription name
 * @param repDefName the table or database repdef it subscribes to
 * @param databaseLevel true when {@code repDefName} is a database repdef
 * @param replicateConnectionId where the changes go
 * @param whereClause the where-clause text as written (table-level only)
 * @param state the materialization state
 * @param created when it was created
 */
public record Subscription(
    String name,
    String repDefName,
    boolean databaseLevel,
    int replicateConnectionId,
    Optional<String> whereClause,
    SubscriptionState state,
    Instant created) {
  public Subscription {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(repDefName, "repDefName");
    Objects.requireNonNull(whereClause, "whereClause");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(created, "created");
  }
}
