package io.openrs.repagent;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.kafka.connect.json.JsonConverter;

/**
 * Makes a stored PostgreSQL connector offset safe to restart from.
 *
 * <p>The agent releases offsets only at transaction ends, so a stored offset names the end of the
 * last transaction the server holds: {@code lsn_commit} and {@code lsn_proc} both hold the END's
 * position, which is the <em>end</em> of that transaction's commit record. At restart Debezium
 * streams from {@code lsn_proc} and drops every message up to and including the first one whose
 * position equals {@code lsn_proc} ({@code WalPositionLocator}). But the end of a commit record is
 * also where the next WAL record starts, and that record may be a change of a transaction that was
 * still open and commits later: Debezium then drops that transaction's first changes, and the
 * server receives it without them (found by {@code PostgresAgentCrashIT}: a transaction arrived
 * without its first six rows).
 *
 * <p>So before Debezium reads the offset, {@code lsn_proc} is set to one byte before {@code
 * lsn_commit}. No WAL record starts there (records are 8-byte aligned), so no message matches it;
 * Debezium then resumes at the start of the first transaction committed after {@code lsn_commit},
 * whole. Restarting earlier than needed is always safe: the server drops what it already holds by
 * OQID (invariant 1), and the replication slot never lets PostgreSQL send less than what follows
 * its confirmed position.
 *
 * <p>Offsets are the JSON documents Debezium's offset writer stores (schemas off); any value
 * without both positions (a snapshot offset, an offset of another connector) is left unchanged.
 */
final class PostgresResumeOffsets {
  static final String LAST_PROCESSED = "lsn_proc";
  static final String LAST_COMMIT = "lsn_commit";

  private PostgresResumeOffsets() {}

  /** {@code stored} with every PostgreSQL offset's {@code lsn_proc} moved before its commit end. */
  static Map<ByteBuffer, ByteBuffer> safeToRestart(Map<ByteBuffer, ByteBuffer> stored) {
    JsonConverter json = converter();
    Map<ByteBuffer, ByteBuffer> out = new LinkedHashMap<>();
    stored.forEach((key, value) -> out.put(key, value == null ? null : rewrite(json, value)));
    return out;
  }

  /** The highest {@code lsn_commit} among the stored PostgreSQL offsets, if any. */
  static OptionalLong lastCommit(Map<ByteBuffer, ByteBuffer> stored) {
    JsonConverter json = converter();
    OptionalLong max = OptionalLong.empty();
    for (ByteBuffer value : stored.values()) {
      if (value != null
          && parse(json, value) instanceof Map<?, ?> offset
          && offset.get(LAST_COMMIT) instanceof Number commit
          && (max.isEmpty() || commit.longValue() > max.getAsLong())) {
        max = OptionalLong.of(commit.longValue());
      }
    }
    return max;
  }

  private static JsonConverter converter() {
    JsonConverter json = new JsonConverter();
    json.configure(Map.of("schemas.enable", false), false);
    return json;
  }

  private static Object parse(JsonConverter json, ByteBuffer value) {
    byte[] bytes = new byte[value.remaining()];
    value.duplicate().get(bytes);
    return json.toConnectData("", bytes).value();
  }

  private static ByteBuffer rewrite(JsonConverter json, ByteBuffer value) {
    if (!(parse(json, value) instanceof Map<?, ?> offset)
        || !(offset.get(LAST_COMMIT) instanceof Number commit)
        || !(offset.get(LAST_PROCESSED) instanceof Number)) {
      return value;
    }
    Map<Object, Object> safe = new HashMap<>(offset);
    safe.put(LAST_PROCESSED, commit.longValue() - 1);
    return ByteBuffer.wrap(json.fromConnectData("", null, safe));
  }
}
