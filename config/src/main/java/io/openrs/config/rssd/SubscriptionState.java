package io.openrs.config.rssd;

/**
 * Materialization state of a subscription, as Replication Server names them. Bulk materialization
 * walks {@code DEFINED -> ACTIVATING -> ACTIVE -> VALIDATING -> VALID}; atomic materialization goes
 * {@code MATERIALIZING -> VALID}; {@code without materialization} creates it {@code VALID}.
 */
public enum SubscriptionState {
  /** {@code define subscription}: recorded, nothing flows yet. */
  DEFINED,
  /** {@code activate subscription}: the activation marker is on its way. */
  ACTIVATING,
  /** Changes flow to the replicate; the data there may not be complete yet. */
  ACTIVE,
  /** {@code validate subscription}: the validation marker is on its way. */
  VALIDATING,
  /** Complete: changes flow and the replicate holds the subscribed data. */
  VALID,
  /** Atomic or incremental materialization copies the primary's rows. */
  MATERIALIZING
}
