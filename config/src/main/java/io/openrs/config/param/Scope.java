package io.openrs.config.param;

import java.util.Locale;

/** Where a parameter can be set, and the command that sets it there. */
public enum Scope {
  /** Server-wide: {@code configure replication server set p to 'v'} or the start-up file. */
  SERVER("the server", "configure replication server"),
  /** One database connection: {@code alter connection to ds.db set p to 'v'}. */
  CONNECTION("a connection", "alter connection"),
  /** One stable queue: {@code alter queue, q_number, q_type, set p to 'v'}. */
  QUEUE("a queue", "alter queue");

  private final String phrase;
  private final String command;

  Scope(String phrase, String command) {
    this.phrase = phrase;
    this.command = command;
  }

  /** The lower-case word used in docs and {@code admin config}: server, connection, queue. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** "the server", "a connection", "a queue": for messages. */
  public String phrase() {
    return phrase;
  }

  /** The RCL command that sets a parameter at this scope. */
  public String command() {
    return command;
  }
}
