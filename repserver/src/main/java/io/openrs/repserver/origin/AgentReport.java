package io.openrs.repserver.origin;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What an origin's agent last reported it does not capture (LTL protocol version 5 on, the
 * AgentStatus frame): the tables it leaves out and its warnings. It stays after the agent
 * disconnects, until the agent's next report replaces it; a server that restarted knows nothing
 * until the agent's next session.
 *
 * @param agent the agent's name from its connect command, or {@code (unnamed)}
 * @param received when the server received the report
 * @param items the report's items, in the agent's order
 */
public record AgentReport(String agent, Instant received, List<Item> items) {

  /**
   * One item.
   *
   * @param tableLeftOut true when the agent leaves the table out of the capture, false for a
   *     warning
   * @param subject {@code schema.table}, or empty for the whole origin
   * @param message what is wrong and what to do
   */
  public record Item(boolean tableLeftOut, String subject, String message) {
    public Item {
      Objects.requireNonNull(subject, "subject");
      Objects.requireNonNull(message, "message");
    }
  }

  public AgentReport {
    Objects.requireNonNull(agent, "agent");
    Objects.requireNonNull(received, "received");
    items = List.copyOf(items);
  }

  /** How many tables the agent leaves out. */
  public long tablesLeftOut() {
    return items.stream().filter(Item::tableLeftOut).count();
  }
}
