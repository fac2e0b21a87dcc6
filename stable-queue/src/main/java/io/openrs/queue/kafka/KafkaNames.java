package io.openrs.queue.kafka;

import io.openrs.queue.QueueId;
import java.util.Optional;

/**
 * The names the engine gives Kafka objects. One topic per queue, one consumer group per reader:
 *
 * <pre>
 * topic           openrs.&lt;server&gt;.queue.&lt;q_number&gt;-&lt;q_type&gt;          openrs.RS1.queue.101-1
 * reader's group  &lt;topic&gt;.reader.&lt;reader name&gt;                       openrs.RS1.queue.101-1.reader.SQT
 * </pre>
 *
 * {@code q_type} is 1 for inbound, 0 for outbound, as in {@link QueueId#toString()} ({@code ':'} is
 * not allowed in a topic name). The server name holds no {@code '.'}, so a topic name parses back
 * unambiguously. Reader names are taken as they are (a group id may hold any character).
 */
final class KafkaNames {

  private static final String QUEUE_INFIX = ".queue.";
  private static final String READER_INFIX = ".reader.";

  private final String topicPrefix;

  KafkaNames(String serverName) {
    this.topicPrefix = "openrs." + serverName + QUEUE_INFIX;
  }

  /** The queue's topic. */
  String topic(QueueId id) {
    return topicPrefix + id.number() + "-" + id.type().code();
  }

  /** The queue a topic name belongs to, if it is one of this server's queue topics. */
  Optional<QueueId> queueOf(String topic) {
    if (!topic.startsWith(topicPrefix)) {
      return Optional.empty();
    }
    String rest = topic.substring(topicPrefix.length());
    int dash = rest.lastIndexOf('-');
    if (dash <= 0) {
      return Optional.empty();
    }
    try {
      return Optional.of(QueueId.parse(rest.substring(0, dash) + ":" + rest.substring(dash + 1)));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /** The consumer group holding a reader's position. */
  String readerGroup(QueueId id, String reader) {
    return readerGroupPrefix(id) + reader;
  }

  /** What every reader group of the queue starts with. */
  String readerGroupPrefix(QueueId id) {
    return topic(id) + READER_INFIX;
  }
}
