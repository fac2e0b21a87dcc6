package io.openrs.repagent;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import org.apache.kafka.connect.runtime.WorkerConfig;
import org.apache.kafka.connect.storage.OffsetBackingStore;
import org.apache.kafka.connect.util.Callback;

/**
 * Debezium's offset store for the agent: its state is the resume blob the server handed over at
 * connect, and every flush Debezium makes is handed to the server ({@code StoreResume}) through the
 * agent's session; a flush succeeds only once the server confirmed the blob saved (invariant 2: the
 * source's log is released only behind what the server holds, the resume position included). No
 * local file is the source of truth.
 *
 * <p>Debezium creates the store by class name, so the session it belongs to is found through {@link
 * #BINDING_PROPERTY}, a key into a registry the session fills before it starts the engine.
 *
 * <p>Debezium calls it from its engine threads; methods are synchronized.
 */
public final class ServerOffsetStore implements OffsetBackingStore {

  /** Engine property naming the session binding. */
  public static final String BINDING_PROPERTY = "openrs.agent.binding";

  private static final Map<String, Binding> BINDINGS = new ConcurrentHashMap<>();

  /** What a session provides to the store. */
  interface Binding {
    /** The offsets the server handed over at connect. */
    Map<ByteBuffer, ByteBuffer> initialOffsets();

    /**
     * Debezium flushed: {@code offsets} is the whole state to hand to the server. Completes once
     * the server confirmed it saved them (or nothing needs saving); fails if it did not. Debezium
     * commits the offsets to the source (the PostgreSQL slot's confirmed position) only after
     * success, so the source never releases log the saved resume position still needs.
     */
    CompletableFuture<Void> flushed(Map<ByteBuffer, ByteBuffer> offsets) throws IOException;

    /** The schema history records the server handed over at connect (JSON documents). */
    java.util.List<String> initialHistory();

    /** Debezium stored a schema history record; it goes to the server with the next flush. */
    void historyRecord(String document);
  }

  /** The binding registered under {@code key}, if any (also used by the schema history). */
  static Binding binding(String key) {
    return key == null ? null : BINDINGS.get(key);
  }

  static String register(Binding binding) {
    String key = UUID.randomUUID().toString();
    BINDINGS.put(key, binding);
    return key;
  }

  static void unregister(String key) {
    BINDINGS.remove(key);
  }

  private final Map<ByteBuffer, ByteBuffer> data = new HashMap<>();
  private Binding binding;

  public ServerOffsetStore() {}

  @Override
  public synchronized void configure(WorkerConfig config) {
    Object key = config.originals().get(BINDING_PROPERTY);
    binding = key == null ? null : BINDINGS.get(key.toString());
    if (binding == null) {
      throw new IllegalStateException(
          "ServerOffsetStore is used only by the openrs agent (no session bound as "
              + BINDING_PROPERTY
              + "="
              + key
              + ")");
    }
  }

  @Override
  public synchronized void start() {
    data.clear();
    data.putAll(binding.initialOffsets());
  }

  @Override
  public synchronized void stop() {}

  @Override
  public synchronized Future<Map<ByteBuffer, ByteBuffer>> get(Collection<ByteBuffer> keys) {
    Map<ByteBuffer, ByteBuffer> out = new HashMap<>();
    for (ByteBuffer k : keys) {
      out.put(k, data.get(k));
    }
    return CompletableFuture.completedFuture(out);
  }

  /**
   * Hands the offsets to the server. The future completes when the server confirmed it saved them
   * in its RSSD; Debezium waits for it ({@code offset.flush.timeout.ms}) before it commits the
   * offsets to the source, and commits nothing when it fails or times out (the offsets are flushed
   * again at the next commit).
   */
  @Override
  public synchronized Future<Void> set(
      Map<ByteBuffer, ByteBuffer> values, Callback<Void> callback) {
    data.putAll(values);
    CompletableFuture<Void> saved;
    try {
      saved = binding.flushed(new HashMap<>(data));
    } catch (IOException | RuntimeException e) {
      saved = CompletableFuture.failedFuture(e);
    }
    return saved.whenComplete(
        (v, e) -> {
          if (callback != null) {
            callback.onCompletion(
                e instanceof java.util.concurrent.CompletionException c && c.getCause() != null
                    ? c.getCause()
                    : e,
                null);
          }
        });
  }

  @Override
  public Set<Map<String, Object>> connectorPartitions(String connectorName) {
    return Set.of();
  }
}
