package io.openrs.pgwire;

import java.util.List;
import java.util.Map;

/**
 * The messages a client sends, as {@link PgFrameDecoder} hands them to the connection. Immutable
 * (arrays are not copied: nobody changes them after decoding).
 */
interface FrontendMessage {

  /** StartupMessage (protocol 3.x). */
  record Startup(int major, int minor, Map<String, String> parameters, boolean tls)
      implements FrontendMessage {}

  /** CancelRequest, sent on a connection of its own. */
  record Cancel(int processId, int secretKey) implements FrontendMessage {}

  /**
   * The byte stream cannot be read on (bad length, unknown message type, malformed body,
   * unsupported protocol): answer with a FATAL ErrorResponse and close.
   */
  record Violation(String sqlState, String message) implements FrontendMessage {}

  /**
   * A message whose text is not valid UTF-8: an ordinary error for that message (22021), the stream
   * itself is fine.
   */
  record BadEncoding(char type, String message) implements FrontendMessage {}

  /**
   * A Query, Parse or Bind longer than the statement limit: its body was skipped as it arrived,
   * never buffered; an ordinary error (54000) for that message, the stream itself is fine.
   *
   * @param bodyBytes the message's length without the type byte and the length field
   * @param limitBytes the statement limit it exceeded
   */
  record TooLong(char type, long bodyBytes, int limitBytes) implements FrontendMessage {}

  /** 'Q' Query. */
  record Query(String sql) implements FrontendMessage {}

  /** 'P' Parse. */
  record Parse(String name, String sql, int[] parameterTypes) implements FrontendMessage {}

  /** 'B' Bind; a null value is SQL NULL. */
  record Bind(
      String portal,
      String statement,
      short[] parameterFormats,
      List<byte[]> values,
      short[] resultFormats)
      implements FrontendMessage {}

  /** 'D' Describe; kind 'S' statement or 'P' portal. */
  record Describe(char kind, String name) implements FrontendMessage {}

  /** 'E' Execute; maxRows 0 = all. */
  record Execute(String portal, int maxRows) implements FrontendMessage {}

  /** 'C' Close; kind 'S' statement or 'P' portal. */
  record Close(char kind, String name) implements FrontendMessage {}

  /** 'S' Sync. */
  record Sync() implements FrontendMessage {}

  /** 'H' Flush. */
  record Flush() implements FrontendMessage {}

  /** 'X' Terminate. */
  record Terminate() implements FrontendMessage {}

  /**
   * 'p' PasswordMessage / SASLInitialResponse / SASLResponse: which one depends on the
   * authentication step, so the body stays raw. Never logged.
   */
  record Password(byte[] body) implements FrontendMessage {
    @Override
    public String toString() {
      return "Password[" + body.length + " bytes]";
    }
  }

  /** 'F' FunctionCall (not supported). */
  record FunctionCall() implements FrontendMessage {}

  /** 'd', 'c', 'f' CopyData / CopyDone / CopyFail outside COPY: ignored, as PostgreSQL does. */
  record CopyOutsideCopy(char type) implements FrontendMessage {}

  /**
   * A decoded message with the bytes it took on the wire (for read back-pressure).
   *
   * @param wireBytes bytes of the frame, type and length included
   */
  record Inbound(FrontendMessage message, int wireBytes) {}
}
