package io.openrs.repserver.admin.rcl;

/**
 * How {@code create subscription} brings the replicate up to date before changes flow.
 *
 * <p>Replication Server's default is atomic materialization. Ours is {@link #WITHOUT}: a
 * subscription created without either clause copies nothing, so a mistyped command never starts a
 * snapshot of a large table by surprise; {@code with materialization} asks for it explicitly.
 */
public enum Materialization {
  /** {@code without materialization}: the replicate already holds the data; the default. */
  WITHOUT("without materialization"),
  /** {@code with materialization}: the replicate is loaded from a snapshot taken by the agent. */
  WITH("with materialization");

  private final String rcl;

  Materialization(String rcl) {
    this.rcl = rcl;
  }

  /** The clause as written in RCL. */
  public String rcl() {
    return rcl;
  }
}
