package io.openrs.runtime;

/**
 * One entry of a module's counter catalogue: the one pattern every module's counters follow. A
 * module declares its counters once, as an enum implementing this ({@code QueueCounter}, {@code
 * DsiCounter}, {@code StsCounter}, {@code AgentCounter}); its meters are registered from the enum,
 * {@code rs_helpcounter} and the documentation read the same entries, and a docs test checks every
 * entry is described.
 *
 * <p>Implementations are enums: immutable and thread-safe.
 */
public interface CounterDefinition {

  /** The meter name: Replication Server's (or Replication Agent's) where it has one. */
  String counterName();

  /** The module whose {@code module} tag it carries. */
  CounterModule module();

  /** How Micrometer keeps it. */
  CounterKind kind();

  /**
   * What one unit of the value is: {@code seconds} for timers, {@code bytes}, or what is counted.
   */
  String unit();

  /** What it counts and what a value means, for operators (one or two sentences). */
  String description();
}
