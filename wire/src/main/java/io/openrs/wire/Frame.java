package io.openrs.wire;

import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.text.LtlParseException;
import io.openrs.ltl.text.LtlParser;
import io.openrs.ltl.text.LtlWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One frame of the LTL wire protocol. The byte layout of each is drawn in {@link FrameCodec}; the
 * rules (who sends what when) are in {@code docs/formats/ltl-wire.md}.
 *
 * <p>Frames are immutable values. <b>Byte arrays are owned, not copied</b>: a record takes the
 * array it is given and hands the same array out, so whoever builds a frame must not change the
 * array afterwards and whoever reads one must not change what it gets (the decoder gives every
 * frame fresh arrays). {@code equals}, {@code hashCode} and {@code toString} look at array
 * contents; {@code toString} prints sizes rather than payloads and never a password.
 */
public sealed interface Frame {

  /** The type byte on the wire ({@code FrameCodec.TYPE_*}). */
  int type();

  /**
   * Agent to server, first frame of a connection: the UTF-8 LTL text of one {@code connect} command
   * ({@code connect source ds.db versions 1-1 user 'u' password 'p' agent 'name'}).
   *
   * @param connectText UTF-8 text, owned (see {@link Frame})
   */
  record Hello(byte[] connectText) implements Frame {
    public Hello {
      Objects.requireNonNull(connectText, "connectText");
    }

    /** The Hello carrying {@code connect} as LTL text. */
    public static Hello of(LtlCommand.Connect connect) {
      return new Hello(new LtlWriter().toText(connect).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The connect command in the text.
     *
     * @throws WireProtocolException when the text is not exactly one well-formed {@code connect}
     *     command; the message names line, column and what was expected, never the text found there
     *     (it could be the password)
     */
    public LtlCommand.Connect parse() {
      List<LtlCommand> commands = new ArrayList<>(1);
      try {
        new LtlParser().parse(connectText, 0, connectText.length, commands::add);
      } catch (LtlParseException e) {
        throw new WireProtocolException(
            "the Hello frame holds no well-formed connect command: at line "
                + e.line()
                + ", column "
                + e.column()
                + " expected "
                + e.expected());
      }
      if (commands.size() != 1 || !(commands.get(0) instanceof LtlCommand.Connect)) {
        throw new WireProtocolException(
            "the Hello frame must hold exactly one connect command, it holds "
                + (commands.size() == 1
                    ? "a " + commands.get(0).getClass().getSimpleName() + " command"
                    : commands.size() + " commands"));
      }
      return (LtlCommand.Connect) commands.get(0);
    }

    @Override
    public int type() {
      return FrameCodec.TYPE_HELLO;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Hello h && Arrays.equals(connectText, h.connectText);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(connectText);
    }

    /** The parsed command with its password masked; never the raw text. */
    @Override
    public String toString() {
      try {
        return "Hello[" + parse() + "]";
      } catch (WireProtocolException e) {
        return "Hello[" + connectText.length + " bytes, not a well-formed connect command]";
      }
    }
  }

  /**
   * Server to agent, answer to a good {@link Hello}: the protocol version both will speak, the
   * origin's secondary truncation point (the last OQID the server holds durably; empty when it
   * holds none) and the resume blob last stored for this origin by {@link StoreResume} (empty when
   * none). From version 3 on it carries the {@link Liveness} of the session, from version 4 on the
   * {@link LtlCompression} of every byte after it.
   *
   * @param resumeBlob owned (see {@link Frame}); at most {@link WireProtocol#MAX_RESUME_BLOB_BYTES}
   * @param liveness present exactly when {@code version} is {@link WireProtocol#LIVENESS_VERSION}
   *     or later
   * @param compression {@link LtlCompression#NONE} below {@link WireProtocol#COMPRESSION_VERSION}
   */
  record Welcome(
      int version,
      Optional<Oqid> truncationPoint,
      byte[] resumeBlob,
      Optional<Liveness> liveness,
      LtlCompression compression)
      implements Frame {
    public Welcome {
      if (version < 1) {
        throw new IllegalArgumentException("protocol version must be >= 1, got " + version);
      }
      Objects.requireNonNull(truncationPoint, "truncationPoint");
      checkBlob(resumeBlob);
      Objects.requireNonNull(liveness, "liveness");
      if (liveness.isPresent() != (version >= WireProtocol.LIVENESS_VERSION)) {
        throw new IllegalArgumentException(
            "a version "
                + version
                + " Welcome "
                + (liveness.isPresent() ? "carries no" : "must carry the")
                + " heartbeat interval and idle timeout (from version "
                + WireProtocol.LIVENESS_VERSION
                + " on)");
      }
      Objects.requireNonNull(compression, "compression");
      if (compression != LtlCompression.NONE && version < WireProtocol.COMPRESSION_VERSION) {
        throw new IllegalArgumentException(
            "a version "
                + version
                + " Welcome carries no compression (from version "
                + WireProtocol.COMPRESSION_VERSION
                + " on)");
      }
    }

    /** A Welcome without compression. */
    public Welcome(
        int version,
        Optional<Oqid> truncationPoint,
        byte[] resumeBlob,
        Optional<Liveness> liveness) {
      this(version, truncationPoint, resumeBlob, liveness, LtlCompression.NONE);
    }

    /** A Welcome of version 1 or 2, which carries no {@link Liveness}. */
    public Welcome(int version, Optional<Oqid> truncationPoint, byte[] resumeBlob) {
      this(version, truncationPoint, resumeBlob, Optional.empty());
    }

    @Override
    public int type() {
      return FrameCodec.TYPE_WELCOME;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Welcome w
          && version == w.version
          && truncationPoint.equals(w.truncationPoint)
          && Arrays.equals(resumeBlob, w.resumeBlob)
          && liveness.equals(w.liveness)
          && compression == w.compression;
    }

    @Override
    public int hashCode() {
      return Objects.hash(
          version, truncationPoint, Arrays.hashCode(resumeBlob), liveness, compression);
    }

    @Override
    public String toString() {
      return "Welcome[version="
          + version
          + ", truncationPoint="
          + truncationPoint.map(Oqid::toString).orElse("none")
          + ", resumeBlob="
          + resumeBlob.length
          + " bytes"
          + liveness.map(l -> ", " + l).orElse("")
          + (version >= WireProtocol.COMPRESSION_VERSION ? ", compression=" + compression : "")
          + "]";
    }
  }

  /**
   * How a version 3 session tells a live peer from a dead one, chosen by the server and sent at the
   * end of the {@link Welcome}: each side sends a {@link Heartbeat} when it has written nothing for
   * {@code heartbeatIntervalMillis}, and closes the connection when it has received nothing for
   * {@code idleTimeoutMillis}.
   */
  record Liveness(int heartbeatIntervalMillis, int idleTimeoutMillis) {
    public Liveness {
      if (heartbeatIntervalMillis < 1) {
        throw new IllegalArgumentException(
            "heartbeat interval must be >= 1 ms, got " + heartbeatIntervalMillis);
      }
      if (idleTimeoutMillis <= heartbeatIntervalMillis) {
        throw new IllegalArgumentException(
            "idle timeout must exceed the heartbeat interval "
                + heartbeatIntervalMillis
                + " ms, got "
                + idleTimeoutMillis);
      }
    }

    /** The heartbeat interval. */
    public java.time.Duration heartbeatInterval() {
      return java.time.Duration.ofMillis(heartbeatIntervalMillis);
    }

    /** The idle timeout. */
    public java.time.Duration idleTimeout() {
      return java.time.Duration.ofMillis(idleTimeoutMillis);
    }
  }

  /**
   * Agent to server: LTL text, any number of whole lines. {@code sequence} is 1 for the first batch
   * of a connection and grows by 1 with each batch.
   *
   * @param ltlText UTF-8 LTL text, owned (see {@link Frame})
   */
  record Batch(long sequence, byte[] ltlText) implements Frame {
    public Batch {
      checkSequence(sequence);
      Objects.requireNonNull(ltlText, "ltlText");
    }

    @Override
    public int type() {
      return FrameCodec.TYPE_BATCH;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Batch b && sequence == b.sequence && Arrays.equals(ltlText, b.ltlText);
    }

    @Override
    public int hashCode() {
      return 31 * Long.hashCode(sequence) + Arrays.hashCode(ltlText);
    }

    @Override
    public String toString() {
      return "Batch[sequence=" + sequence + ", ltlText=" + ltlText.length + " bytes]";
    }
  }

  /** Server to agent: every command of batch {@code sequence} was taken. */
  record BatchAccepted(long sequence, int commandsTaken) implements Frame {
    public BatchAccepted {
      checkSequence(sequence);
      checkNotNegative(commandsTaken, "commandsTaken");
    }

    @Override
    public int type() {
      return FrameCodec.TYPE_BATCH_ACCEPTED;
    }
  }

  /**
   * Server to agent: of batch {@code sequence} the first {@code commandsTaken} commands were taken,
   * the one at {@code line}, {@code column} (1-based) failed and nothing from it on was taken.
   * {@code lastTakenOqid} is the last OQID the server has taken from this origin; {@code message}
   * says what failed.
   */
  record BatchRejected(
      long sequence,
      int commandsTaken,
      int line,
      int column,
      Optional<Oqid> lastTakenOqid,
      String message)
      implements Frame {
    public BatchRejected {
      checkSequence(sequence);
      checkNotNegative(commandsTaken, "commandsTaken");
      if (line < 1 || column < 1) {
        throw new IllegalArgumentException(
            "line and column are 1-based, got line " + line + ", column " + column);
      }
      Objects.requireNonNull(lastTakenOqid, "lastTakenOqid");
      Objects.requireNonNull(message, "message");
    }

    @Override
    public int type() {
      return FrameCodec.TYPE_BATCH_REJECTED;
    }
  }

  /** Agent to server: asks for the origin's secondary truncation point. */
  record GetTruncation(long requestId) implements Frame {
    @Override
    public int type() {
      return FrameCodec.TYPE_GET_TRUNCATION;
    }
  }

  /**
   * Server to agent, answer to the {@link GetTruncation} with the same {@code requestId}: the last
   * OQID of this origin the server holds durably, empty when none.
   */
  record Truncation(long requestId, Optional<Oqid> truncationPoint) implements Frame {
    public Truncation {
      Objects.requireNonNull(truncationPoint, "truncationPoint");
    }

    @Override
    public int type() {
      return FrameCodec.TYPE_TRUNCATION;
    }
  }

  /**
   * Agent to server, no answer: an opaque resume blob (the agent's log reader offsets) that the
   * server stores durably for this origin once everything up to {@code coveredUpTo} is durable, and
   * hands back in the next {@link Welcome}.
   *
   * @param blob owned (see {@link Frame}); at most {@link WireProtocol#MAX_RESUME_BLOB_BYTES}
   */
  record StoreResume(Oqid coveredUpTo, byte[] blob) implements Frame {
    public StoreResume {
      Objects.requireNonNull(coveredUpTo, "coveredUpTo");
      checkBlob(blob);
    }

    @Override
    public int type() {
      return FrameCodec.TYPE_STORE_RESUME;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof StoreResume s
          && coveredUpTo.equals(s.coveredUpTo)
          && Arrays.equals(blob, s.blob);
    }

    @Override
    public int hashCode() {
      return 31 * coveredUpTo.hashCode() + Arrays.hashCode(blob);
    }

    @Override
    public String toString() {
      return "StoreResume[coveredUpTo=" + coveredUpTo + ", blob=" + blob.length + " bytes]";
    }
  }

  /**
   * Either way, version 3 on: "I am alive". Sent when the sender has written nothing for the
   * session's heartbeat interval ({@link Liveness}); no answer, no body.
   */
  record Heartbeat() implements Frame {
    @Override
    public int type() {
      return FrameCodec.TYPE_HEARTBEAT;
    }
  }

  /**
   * Agent to server, version 5 on, no answer: what the agent cannot capture, as a whole. Each one
   * replaces the previous one of the session; the agent sends one right after the {@link Welcome}
   * (empty when all is well) and another whenever the list changes. The server keeps the last one
   * per origin for the admin commands ({@code admin who, rep}).
   *
   * @param items at most {@link WireProtocol#MAX_STATUS_ITEMS}
   */
  record AgentStatus(List<StatusItem> items) implements Frame {
    public AgentStatus {
      items = List.copyOf(items);
      if (items.size() > WireProtocol.MAX_STATUS_ITEMS) {
        throw new IllegalArgumentException(
            "an agent status holds at most "
                + WireProtocol.MAX_STATUS_ITEMS
                + " items, not "
                + items.size());
      }
    }

    @Override
    public int type() {
      return FrameCodec.TYPE_AGENT_STATUS;
    }
  }

  /**
   * One item of an {@link AgentStatus}.
   *
   * @param subject the table ({@code schema.table}) the item is about, or empty for the whole
   *     origin; UTF-8, at most {@link WireProtocol#MAX_STATUS_SUBJECT_BYTES}
   * @param message what is wrong and what to do, for a DBA; UTF-8, at most {@link
   *     WireProtocol#MAX_STATUS_MESSAGE_BYTES}
   */
  record StatusItem(StatusKind kind, String subject, String message) {
    public StatusItem {
      Objects.requireNonNull(kind, "kind");
      checkText("subject", subject, WireProtocol.MAX_STATUS_SUBJECT_BYTES);
      checkText("message", message, WireProtocol.MAX_STATUS_MESSAGE_BYTES);
    }

    private static void checkText(String what, String text, int maxBytes) {
      Objects.requireNonNull(text, what);
      int bytes = text.getBytes(StandardCharsets.UTF_8).length;
      if (bytes > maxBytes) {
        throw new IllegalArgumentException(
            "a status item's " + what + " is at most " + maxBytes + " bytes, not " + bytes);
      }
    }
  }

  /** What a {@link StatusItem} reports; the code is its byte on the wire. */
  enum StatusKind {
    /** The agent leaves the table out of the capture: none of its changes are sent. */
    TABLE_NOT_REPLICATED(1),
    /**
     * Replication goes on, but the DBA should know (e.g. values the source can store inexactly).
     */
    WARNING(2);

    private final int code;

    StatusKind(int code) {
      this.code = code;
    }

    /** The byte on the wire. */
    public int code() {
      return code;
    }

    /** The kind with this wire code, or empty. */
    public static Optional<StatusKind> ofCode(int code) {
      for (StatusKind k : values()) {
        if (k.code == code) {
          return Optional.of(k);
        }
      }
      return Optional.empty();
    }
  }

  /** Server to agent: the connection is refused or ended; the server closes it after this frame. */
  record Error(ErrorCode code, String message) implements Frame {
    public Error {
      Objects.requireNonNull(code, "code");
      Objects.requireNonNull(message, "message");
    }

    @Override
    public int type() {
      return FrameCodec.TYPE_ERROR;
    }
  }

  // ---- Version 4: the SCRAM-SHA-256 login between Hello and Welcome (RFC 5802, RFC 7677).
  // Messages are the SCRAM texts as bytes, owned (see Frame); toString prints their size only.

  /**
   * Agent to server, version 4, right after the Hello: the mechanism it chose and its
   * client-first-message ({@code n,,n=<user>,r=<client nonce>}).
   *
   * @param mechanism {@link WireProtocol#SCRAM_MECHANISM}; ASCII, 1..{@link
   *     WireProtocol#MAX_MECHANISM_LENGTH} bytes
   */
  record ScramClientFirst(String mechanism, byte[] message) implements Frame {
    public ScramClientFirst {
      Objects.requireNonNull(mechanism, "mechanism");
      Objects.requireNonNull(message, "message");
      if (mechanism.isEmpty()
          || mechanism.length() > WireProtocol.MAX_MECHANISM_LENGTH
          || !StandardCharsets.US_ASCII.newEncoder().canEncode(mechanism)) {
        throw new IllegalArgumentException(
            "a SCRAM mechanism name is 1.." + WireProtocol.MAX_MECHANISM_LENGTH + " ASCII bytes");
      }
    }

    @Override
    public int type() {
      return FrameCodec.TYPE_SCRAM_CLIENT_FIRST;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof ScramClientFirst f
          && mechanism.equals(f.mechanism)
          && Arrays.equals(message, f.message);
    }

    @Override
    public int hashCode() {
      return 31 * mechanism.hashCode() + Arrays.hashCode(message);
    }

    @Override
    public String toString() {
      return "ScramClientFirst[mechanism=" + mechanism + ", " + message.length + " bytes]";
    }
  }

  /** Server to agent, version 4: the server-first-message ({@code r=<nonce>,s=<salt>,i=<n>}). */
  record ScramServerFirst(byte[] message) implements Frame {
    public ScramServerFirst {
      Objects.requireNonNull(message, "message");
    }

    @Override
    public int type() {
      return FrameCodec.TYPE_SCRAM_SERVER_FIRST;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof ScramServerFirst f && Arrays.equals(message, f.message);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(message);
    }

    @Override
    public String toString() {
      return "ScramServerFirst[" + message.length + " bytes]";
    }
  }

  /**
   * Agent to server, version 4: the client-final-message ({@code c=<binding>,r=<nonce>,p=<proof>}).
   */
  record ScramClientFinal(byte[] message) implements Frame {
    public ScramClientFinal {
      Objects.requireNonNull(message, "message");
    }

    @Override
    public int type() {
      return FrameCodec.TYPE_SCRAM_CLIENT_FINAL;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof ScramClientFinal f && Arrays.equals(message, f.message);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(message);
    }

    @Override
    public String toString() {
      return "ScramClientFinal[" + message.length + " bytes]";
    }
  }

  /**
   * Server to agent, version 4, once the agent's proof is right: the server-final-message ({@code
   * v=<server signature>}), which the agent checks before it accepts the Welcome.
   */
  record ScramServerFinal(byte[] message) implements Frame {
    public ScramServerFinal {
      Objects.requireNonNull(message, "message");
    }

    @Override
    public int type() {
      return FrameCodec.TYPE_SCRAM_SERVER_FINAL;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof ScramServerFinal f && Arrays.equals(message, f.message);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(message);
    }

    @Override
    public String toString() {
      return "ScramServerFinal[" + message.length + " bytes]";
    }
  }

  private static void checkSequence(long sequence) {
    if (sequence < 1) {
      throw new IllegalArgumentException("batch sequence numbers start at 1, got " + sequence);
    }
  }

  private static void checkNotNegative(int value, String name) {
    if (value < 0) {
      throw new IllegalArgumentException(name + " must be >= 0, got " + value);
    }
  }

  private static void checkBlob(byte[] blob) {
    Objects.requireNonNull(blob, "blob");
    if (blob.length > WireProtocol.MAX_RESUME_BLOB_BYTES) {
      throw new IllegalArgumentException(
          "a resume blob holds at most "
              + WireProtocol.MAX_RESUME_BLOB_BYTES
              + " bytes, got "
              + blob.length);
    }
  }
}
