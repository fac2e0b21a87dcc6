package io.openrs.wire;

import java.util.OptionalInt;

/**
 * Versions and limits of the LTL wire protocol (the frame layout is drawn in {@link FrameCodec};
 * the rules are in {@code docs/formats/ltl-wire.md}).
 *
 * <p>The protocol version is negotiated once per connection: the agent offers a range in its {@link
 * Frame.Hello} ({@code connect ... versions <min>-<max>}), the server answers in {@link
 * Frame.Welcome} with the highest version in that range it speaks ({@link #negotiate}), or with
 * {@link ErrorCode#UNSUPPORTED_VERSION} naming its own range. The frame header itself never changes
 * between versions, so every version can at least send an {@link Frame.Error}.
 */
public final class WireProtocol {
  private WireProtocol() {}

  /** Version 1 (2026-11): Hello/Welcome handshake, pipelined batches, truncation, resume blobs. */
  public static final int VERSION_1 = 1;

  /**
   * Version 2 (2026-11): LTL values {@code dec NaN}, {@code ±Infinity}, {@code date/ts/tstz
   * ±infinity} and {@code native} (docs/ltl.md); frames unchanged.
   */
  public static final int VERSION_2 = 2;

  /**
   * Version 3 (2026-11): link liveness. The {@link Frame.Welcome} ends with the heartbeat interval
   * and idle timeout ({@link Frame.Liveness}), and either side sends a {@link Frame.Heartbeat} when
   * it has written nothing for a heartbeat interval; a side that receives nothing for the idle
   * timeout closes the connection. Sessions at version 1 or 2 never carry either.
   */
  public static final int VERSION_3 = 3;

  /**
   * Version 4 (2026-11): SCRAM-SHA-256 login and link compression. The Hello carries no password;
   * the agent proves it in {@link Frame.ScramClientFirst} / {@link Frame.ScramClientFinal}, the
   * server proves it knows the verifier in {@link Frame.ScramServerFinal}, before the Welcome. The
   * agent offers compression methods in its connect command ({@code compression 'lz4,zstd'}), the
   * {@link Frame.Welcome} ends with the method the server chose ({@link LtlCompression}), and every
   * byte after the Welcome, both ways, goes through it. LTL text as version 2.
   */
  public static final int VERSION_4 = 4;

  /**
   * Version 5 (2026-11): the agent reports what it cannot capture ({@link Frame.AgentStatus}:
   * tables it leaves out and warnings) right after the Welcome and whenever that changes. LTL text
   * and every other frame as version 4.
   */
  public static final int VERSION_5 = 5;

  /** First version whose sessions carry {@link Frame.AgentStatus}. */
  public static final int STATUS_VERSION = VERSION_5;

  /** Most items in one {@link Frame.AgentStatus}. */
  public static final int MAX_STATUS_ITEMS = 10_000;

  /** Longest subject (a table name) of a {@link Frame.StatusItem}, in UTF-8 bytes. */
  public static final int MAX_STATUS_SUBJECT_BYTES = 1024;

  /** Longest message of a {@link Frame.StatusItem}, in UTF-8 bytes. */
  public static final int MAX_STATUS_MESSAGE_BYTES = 4096;

  /** First version whose sessions carry {@link Frame.Liveness} and {@link Frame.Heartbeat}. */
  public static final int LIVENESS_VERSION = VERSION_3;

  /** First version whose {@link Frame.Welcome} names a {@link LtlCompression}. */
  public static final int COMPRESSION_VERSION = VERSION_4;

  /** First version whose agents log in with SCRAM frames instead of a password in the Hello. */
  public static final int SCRAM_VERSION = VERSION_4;

  /** The SCRAM mechanism of version 4 logins. */
  public static final String SCRAM_MECHANISM = "SCRAM-SHA-256";

  /** Longest mechanism name in {@link Frame.ScramClientFirst}. */
  public static final int MAX_MECHANISM_LENGTH = 64;

  /** The version this code speaks best. */
  public static final int VERSION = VERSION_5;

  /** Oldest version this code speaks. */
  public static final int MIN_VERSION = VERSION_1;

  /** Newest version this code speaks. */
  public static final int MAX_VERSION = VERSION_5;

  /** Default bound on the length field of a frame (type byte + body): 16 MiB. */
  public static final int DEFAULT_MAX_FRAME_LENGTH = 16 * 1024 * 1024;

  /** Smallest configurable maximum frame length: every control frame fits in it. */
  public static final int MIN_MAX_FRAME_LENGTH = 1024;

  /** Largest configurable maximum frame length: 1 GiB. */
  public static final int MAX_MAX_FRAME_LENGTH = 1 << 30;

  /**
   * Bound on the first frame of a connection at the server, the Hello (a connect command of a few
   * hundred bytes): a peer that is not admitted yet cannot make the server buffer more. 64 KiB.
   */
  public static final int MAX_HELLO_FRAME_LENGTH = 64 * 1024;

  /** Longest resume blob in {@link Frame.Welcome} and {@link Frame.StoreResume}: 1 MiB. */
  public static final int MAX_RESUME_BLOB_BYTES = 1024 * 1024;

  /**
   * The version a server speaking {@link #MIN_VERSION}..{@link #MAX_VERSION} answers to an agent
   * offering {@code agentMin..agentMax}: the highest version both speak, or empty when they share
   * none (the server then answers {@link ErrorCode#UNSUPPORTED_VERSION}).
   */
  public static OptionalInt negotiate(int agentMin, int agentMax) {
    int high = Math.min(agentMax, MAX_VERSION);
    return high >= Math.max(agentMin, MIN_VERSION) ? OptionalInt.of(high) : OptionalInt.empty();
  }

  /**
   * The version of the LTL text ({@code docs/ltl.md}, {@code LtlParser#protocolVersion}) that the
   * batches of a session at {@code protocolVersion} hold: versions 3 and 4 changed frames only, so
   * their text is version 2's (so is version 5's).
   */
  public static int textVersion(int protocolVersion) {
    return Math.min(protocolVersion, VERSION_2);
  }

  /**
   * Checks a configured maximum frame length.
   *
   * @throws IllegalArgumentException naming the value and the allowed range
   */
  public static int checkMaxFrameLength(int maxFrameLength) {
    if (maxFrameLength < MIN_MAX_FRAME_LENGTH || maxFrameLength > MAX_MAX_FRAME_LENGTH) {
      throw new IllegalArgumentException(
          "maxFrameLength must be "
              + MIN_MAX_FRAME_LENGTH
              + ".."
              + MAX_MAX_FRAME_LENGTH
              + " bytes, got "
              + maxFrameLength);
    }
    return maxFrameLength;
  }
}
