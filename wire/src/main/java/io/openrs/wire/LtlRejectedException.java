package io.openrs.wire;

import java.io.IOException;
import java.util.Objects;

/**
 * The server refused the handshake or ended the connection with an {@link Frame.Error}: carries its
 * {@link ErrorCode} and message. {@link LtlClient#connect} throws it; after the handshake every
 * pending batch and truncation future of the client fails with it.
 */
public final class LtlRejectedException extends IOException {
  private static final long serialVersionUID = 1L;

  private final ErrorCode code;
  private final String serverMessage;

  /** The server's refusal with {@code code} and its {@code serverMessage}. */
  public LtlRejectedException(ErrorCode code, String serverMessage) {
    super(
        "server refused the agent: "
            + Objects.requireNonNull(code, "code")
            + " (code "
            + code.code()
            + (code.retryable() ? ", retryable" : "")
            + "): "
            + serverMessage);
    this.code = code;
    this.serverMessage = Objects.requireNonNull(serverMessage, "serverMessage");
  }

  /** Why the server refused. */
  public ErrorCode code() {
    return code;
  }

  /** The server's own words. */
  public String serverMessage() {
    return serverMessage;
  }

  /** Whether the agent may reconnect by itself after a back-off ({@link ErrorCode#retryable}). */
  public boolean retryable() {
    return code.retryable();
  }
}
