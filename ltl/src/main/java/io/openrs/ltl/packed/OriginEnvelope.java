package io.openrs.ltl.packed;

import io.openrs.ltl.ByteBuilder;
import io.openrs.ltl.LtlCommand;
import java.util.Optional;

/**
 * An outbound-queue message: one packed command tagged with the connection id of its origin, so a
 * replicate connection fed by several primaries knows whose locator each command advances.
 *
 * <pre>
 * Origin envelope (outbound queue message)
 * +-------------+------------------------------+----------------------------------------+
 * | magic (u8)  | origin connection id (u32,   | packed command ({@link PackedFormat}),  |
 * | 0xE1        | big-endian)                  | to the end of the message               |
 * +-------------+------------------------------+----------------------------------------+
 *   offset 0      offset 1                       offset 5 = HEADER_SIZE
 * </pre>
 *
 * The magic doubles as the envelope's version: a later layout takes a new magic.
 */
public final class OriginEnvelope {

  /** First byte of every envelope (version 1 of the layout). */
  public static final byte MAGIC = (byte) 0xE1;

  private static final int ORIGIN_OFFSET = 1;

  /** Bytes before the packed command. */
  public static final int HEADER_SIZE = ORIGIN_OFFSET + 4;

  private OriginEnvelope() {}

  /** An envelope around already packed command bytes. */
  public static byte[] wrap(int originConnectionId, byte[] packedCommand) {
    ByteBuilder out = new ByteBuilder(HEADER_SIZE + packedCommand.length);
    out.append(MAGIC).appendIntBigEndian(originConnectionId).append(packedCommand);
    return out.toByteArray();
  }

  /** Packs {@code command} into an envelope. */
  public static byte[] pack(int originConnectionId, LtlCommand command, PackedEncoder encoder) {
    ByteBuilder out = new ByteBuilder(256);
    out.append(MAGIC).appendIntBigEndian(originConnectionId);
    encoder.encode(command, out);
    return out.toByteArray();
  }

  /**
   * The origin connection id of an envelope.
   *
   * @throws PackedFormatException when the message is not an envelope
   */
  public static int originOf(byte[] message) throws PackedFormatException {
    check(message);
    return ((message[1] & 0xff) << 24)
        | ((message[2] & 0xff) << 16)
        | ((message[3] & 0xff) << 8)
        | (message[4] & 0xff);
  }

  /** The command inside an envelope (empty for a command kind this version does not know). */
  public static Optional<LtlCommand> commandOf(byte[] message, PackedDecoder decoder)
      throws PackedFormatException {
    check(message);
    return decoder.decode(message, HEADER_SIZE, message.length - HEADER_SIZE);
  }

  private static void check(byte[] message) throws PackedFormatException {
    if (message.length < HEADER_SIZE) {
      throw new PackedFormatException(
          0,
          "origin envelope of "
              + message.length
              + " bytes is shorter than its "
              + HEADER_SIZE
              + "-byte header");
    }
    if (message[0] != MAGIC) {
      throw new PackedFormatException(
          0, String.format("origin envelope magic is 0x%02x, expected 0x%02x", message[0], MAGIC));
    }
  }
}
