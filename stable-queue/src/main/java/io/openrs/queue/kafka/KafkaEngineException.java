package io.openrs.queue.kafka;

/** A cluster operation of the Kafka engine that concerns no one queue failed or timed out. */
public final class KafkaEngineException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public KafkaEngineException(String message, Throwable cause) {
    super(message, cause);
  }
}
