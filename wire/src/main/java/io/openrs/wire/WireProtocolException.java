package io.openrs.wire;

import io.netty.handler.codec.DecoderException;

/**
 * The bytes from the peer break the wire protocol: a frame longer than the configured maximum, an
 * unknown frame type, a body too short or too long for its type, a length that points past the
 * frame, text that is not UTF-8, a connection closed inside a frame, or a Hello that is not one
 * well-formed {@code connect} command. The message names the numbers (length and limit, field and
 * bytes available).
 *
 * <p>It extends Netty's {@link DecoderException} so that a pipeline's {@code exceptionCaught} sees
 * it unwrapped. After it the stream is out of step: the decoder discards every further byte, and
 * the server answers {@link ErrorCode#PROTOCOL_ERROR} and closes the connection ({@link
 * FrameCodec#closeWithError}).
 */
public final class WireProtocolException extends DecoderException {
  private static final long serialVersionUID = 1L;

  /** A protocol violation; {@code message} names what and the numbers. */
  public WireProtocolException(String message) {
    super(message);
  }
}
