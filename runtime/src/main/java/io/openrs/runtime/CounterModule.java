package io.openrs.runtime;

/**
 * The Replication Server module a counter belongs to, its {@code module} tag ({@code SQM}, {@code
 * DSIEXEC}, ...). A module's catalogue declares its modules as an enum implementing this, whose
 * {@code name()} is the tag.
 */
public interface CounterModule {
  /** The {@code module} tag, upper case as Replication Server writes it. */
  String name();
}
