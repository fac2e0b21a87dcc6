package io.openrs.repagent;

import static org.assertj.core.api.Assertions.assertThat;

import io.debezium.connector.postgresql.connection.Lsn;
import io.debezium.connector.postgresql.connection.ReplicationMessage;
import io.debezium.connector.postgresql.connection.ReplicationMessage.Operation;
import io.debezium.connector.postgresql.connection.WalPositionLocator;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.connect.json.JsonConverter;
import org.junit.jupiter.api.Test;

/**
 * The restart shape {@code PostgresAgentCrashIT} hit, fed to Debezium's own restart search ({@code
 * WalPositionLocator}): transaction X committed, its commit record ending at {@code C}; the server
 * holds X and the stored offset names C. Transaction A was open across X: its first change was
 * written before X's commit, its second one starts exactly at C, and A commits after X.
 */
class PostgresResumeOffsetsTest {
  private static final long C = 0x9100_1000L;
  private static final ByteBuffer KEY =
      ByteBuffer.wrap("[\"engine\",{\"server\":\"pg1.sales\"}]".getBytes(StandardCharsets.UTF_8));

  /** A's messages as PostgreSQL streams them after the restart (X is not sent again). */
  private record Message(long lsn, Operation op) {}

  private static final List<Message> A =
      List.of(
          new Message(0x9100_0F00L, Operation.BEGIN),
          new Message(0x9100_0F00L, Operation.INSERT),
          new Message(C, Operation.INSERT),
          new Message(0x9100_1040L, Operation.INSERT),
          new Message(0x9100_1100L, Operation.COMMIT));

  @Test
  void debeziumAloneResumesInsideTheOpenTransactionLosingItsFirstChanges() {
    Map<String, Object> stored = storedOffset();

    List<Message> delivered = restart(stored);

    // The shape of the bug: A arrives without the changes written before C and at C.
    assertThat(delivered).containsExactly(A.get(3), A.get(4));
  }

  @Test
  void theRewrittenOffsetResumesAtTheStartOfTheOpenTransaction() {
    Map<String, Object> safe =
        offsetOf(PostgresResumeOffsets.safeToRestart(encoded(storedOffset())));

    assertThat(((Number) safe.get("lsn_proc")).longValue()).isEqualTo(C - 1);
    assertThat(((Number) safe.get("lsn_commit")).longValue()).isEqualTo(C);
    assertThat(safe.get("txId")).isEqualTo(storedOffset().get("txId"));
    assertThat(restart(safe)).containsExactlyElementsOf(A);
  }

  @Test
  void anOffsetWithoutBothPositionsIsLeftAlone() {
    Map<ByteBuffer, ByteBuffer> snapshot = encoded(Map.of("lsn", C, "last_snapshot_record", true));

    assertThat(PostgresResumeOffsets.safeToRestart(snapshot)).isEqualTo(snapshot);
  }

  /** What the agent stores at X's END: both positions at the end of X's commit record. */
  private static Map<String, Object> storedOffset() {
    return Map.of("lsn", C, "lsn_proc", C, "lsn_commit", C, "txId", 4711L, "messageType", "COMMIT");
  }

  /**
   * Debezium's restart: the search phase reads A until the locator names the resume position, then
   * the stream is read again with filtering on; returns the messages that get through.
   */
  private static List<Message> restart(Map<String, Object> offset) {
    WalPositionLocator locator =
        new WalPositionLocator(
            Lsn.valueOf(((Number) offset.get("lsn_commit")).longValue()),
            Lsn.valueOf(((Number) offset.get("lsn_proc")).longValue()),
            Operation.valueOf((String) offset.get("messageType")));
    Optional<Lsn> resume = Optional.empty();
    for (Message m : A) {
      resume =
          locator.resumeFromLsn(
              Lsn.valueOf(m.lsn()), new ReplicationMessage.NoopMessage(4712L, null, m.op()));
      if (resume.isPresent()) {
        break;
      }
    }
    assertThat(resume).as("the locator finds a resume position").isPresent();
    locator.enableFiltering();
    List<Message> delivered = new ArrayList<>();
    for (Message m : A) {
      if (!locator.skipMessage(Lsn.valueOf(m.lsn()))) {
        delivered.add(m);
      }
    }
    return delivered;
  }

  private static Map<ByteBuffer, ByteBuffer> encoded(Map<String, Object> offset) {
    return Map.of(KEY, ByteBuffer.wrap(converter().fromConnectData("", null, offset)));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> offsetOf(Map<ByteBuffer, ByteBuffer> offsets) {
    ByteBuffer value = offsets.get(KEY);
    byte[] bytes = new byte[value.remaining()];
    value.duplicate().get(bytes);
    return (Map<String, Object>) converter().toConnectData("", bytes).value();
  }

  private static JsonConverter converter() {
    JsonConverter json = new JsonConverter();
    json.configure(Map.of("schemas.enable", false), false);
    return json;
  }
}
