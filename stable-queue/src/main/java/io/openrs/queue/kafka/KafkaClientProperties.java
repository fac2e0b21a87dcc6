package io.openrs.queue.kafka;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The properties of the engine's Kafka clients: the configured ones passed through ({@link
 * KafkaEngineConfig#clientProperties()}), then those the engine's rules rest on. A configured value
 * that would weaken a rule is refused, naming the property; any other is kept.
 *
 * <ul>
 *   <li>producer: {@code acks=all}, {@code enable.idempotence=true}, {@code
 *       max.in.flight.requests.per.connection} at most 5 (default 5), no transactions
 *   <li>consumers: no group membership and no automatic commit (positions are committed by the
 *       engine, {@code ReaderMarks}), {@code isolation.level=read_committed}
 * </ul>
 */
final class KafkaClientProperties {

  static final String PRODUCER_PREFIX = "producer.";
  static final String CONSUMER_PREFIX = "consumer.";
  static final String ADMIN_PREFIX = "admin.";

  /** Room for a record's framing and headers beyond the largest message. */
  static final int RECORD_OVERHEAD_BYTES = 64 * 1024;

  private final KafkaEngineConfig config;

  KafkaClientProperties(KafkaEngineConfig config) {
    this.config = config;
  }

  Map<String, Object> admin(String clientId) {
    Map<String, Object> p = common(ADMIN_PREFIX);
    p.putIfAbsent(CommonClientConfigs.CLIENT_ID_CONFIG, clientId);
    int timeout = (int) config.operationTimeout().toMillis();
    p.putIfAbsent(CommonClientConfigs.DEFAULT_API_TIMEOUT_MS_CONFIG, timeout);
    // The admin client refuses an API timeout below its request timeout (30 s by default).
    p.putIfAbsent(CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG, Math.min(30_000, timeout));
    return p;
  }

  Map<String, Object> producer(String clientId, int maxMessageBytes) {
    Map<String, Object> p = common(PRODUCER_PREFIX);
    p.putIfAbsent(CommonClientConfigs.CLIENT_ID_CONFIG, clientId);
    require(p, PRODUCER_PREFIX, ProducerConfig.ACKS_CONFIG, "all", "-1", "all");
    require(p, PRODUCER_PREFIX, ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true", "true");
    if (p.containsKey(ProducerConfig.TRANSACTIONAL_ID_CONFIG)) {
      throw refused(PRODUCER_PREFIX, ProducerConfig.TRANSACTIONAL_ID_CONFIG, p, "not set");
    }
    Object inFlight = p.getOrDefault(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "5");
    int n;
    try {
      n = Integer.parseInt(inFlight.toString().trim());
    } catch (NumberFormatException e) {
      n = -1;
    }
    if (n < 1 || n > 5) {
      throw refused(
          PRODUCER_PREFIX, ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, p, "1..5");
    }
    p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, n);
    p.putIfAbsent(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, maxMessageBytes + RECORD_OVERHEAD_BYTES);
    // A cluster that cannot acknowledge (too few in-sync replicas, no leader, unreachable) makes
    // writes wait, not fail (up to Integer.MAX_VALUE ms, 24 days): the producer retries until it
    // can, and a send blocks while its buffer is full. Either bound can be set
    // (producer.delivery.timeout.ms, producer.max.block.ms); past it the queue stops.
    p.putIfAbsent(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Integer.MAX_VALUE);
    p.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, (long) Integer.MAX_VALUE);
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    return p;
  }

  Map<String, Object> consumer(String clientId) {
    Map<String, Object> p = common(CONSUMER_PREFIX);
    p.putIfAbsent(CommonClientConfigs.CLIENT_ID_CONFIG, clientId);
    if (p.containsKey(ConsumerConfig.GROUP_ID_CONFIG)) {
      throw refused(
          CONSUMER_PREFIX,
          ConsumerConfig.GROUP_ID_CONFIG,
          p,
          "not set (each reader has its own group, named by the engine)");
    }
    require(p, CONSUMER_PREFIX, ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false", "false");
    require(
        p,
        CONSUMER_PREFIX,
        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
        "read_committed",
        "read_committed");
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    return p;
  }

  /**
   * The consumer of random-access reads ({@code dump}, {@code lastMessage}, byte offsets): it seeks
   * before each read, and a fetch the broker parks at the end of the log (up to {@code
   * fetch.max.wait.ms}, 500 ms by default) would delay the read after the seek; so 10 ms unless
   * configured.
   */
  Map<String, Object> randomAccessConsumer(String clientId) {
    Map<String, Object> p = consumer(clientId);
    p.putIfAbsent(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 10);
    return p;
  }

  /** Plain keys, then the client's prefixed keys over them; bootstrap.servers from the config. */
  private Map<String, Object> common(String clientPrefix) {
    Map<String, Object> p = new HashMap<>();
    for (Map.Entry<String, String> e : config.clientProperties().entrySet()) {
      String k = e.getKey();
      if (!k.startsWith(PRODUCER_PREFIX)
          && !k.startsWith(CONSUMER_PREFIX)
          && !k.startsWith(ADMIN_PREFIX)) {
        p.put(k, e.getValue());
      }
    }
    for (Map.Entry<String, String> e : config.clientProperties().entrySet()) {
      if (e.getKey().startsWith(clientPrefix)) {
        p.put(e.getKey().substring(clientPrefix.length()), e.getValue());
      }
    }
    p.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
    return p;
  }

  /** Sets {@code key} to {@code value}; a configured value other than an allowed one is refused. */
  private static void require(
      Map<String, Object> p, String prefix, String key, String value, String... allowed) {
    Object configured = p.get(key);
    if (configured != null) {
      String c = configured.toString().trim();
      boolean ok = false;
      for (String a : allowed) {
        ok |= a.equalsIgnoreCase(c);
      }
      if (!ok) {
        throw refused(prefix, key, p, value);
      }
    }
    p.put(key, value);
  }

  private static IllegalArgumentException refused(
      String prefix, String key, Map<String, Object> p, String allowed) {
    return new IllegalArgumentException(
        "Kafka engine: client property "
            + key
            + " (or "
            + prefix
            + key
            + ") = '"
            + p.get(key)
            + "' is not allowed: must be "
            + allowed
            + "; a write is acknowledged only once every in-sync replica holds it"
            + " (docs/stable-queue.md, Kafka engine)");
  }
}
