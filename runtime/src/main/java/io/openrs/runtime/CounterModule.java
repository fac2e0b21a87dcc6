package io.openrs.runtime;

/**
 * The module a counter belongs to, as Replication Server names its modules: the {@code module} tag
 * of the server's meters ({@code SQM}, {@code DSIEXEC}, ...), {@code RA} for the agent process
 * (whose meters carry an {@code agent} tag instead). A module's catalogue declares its modules as
 * an enum implementing this, whose {@code name()} is the name.
 */
public interface CounterModule {
  /** The module's name, upper case as Replication Server writes it. */
  String name();
}
