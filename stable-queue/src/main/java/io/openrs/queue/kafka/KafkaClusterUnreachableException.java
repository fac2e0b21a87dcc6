package io.openrs.queue.kafka;

/**
 * The Kafka cluster did not answer within the operation timeout when the engine opened: nothing is
 * wrong with the configuration, the cluster may come back (a caller may wait and try again).
 */
public final class KafkaClusterUnreachableException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public KafkaClusterUnreachableException(String message, Throwable cause) {
    super(message, cause);
  }
}
