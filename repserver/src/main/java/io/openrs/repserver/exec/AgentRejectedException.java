package io.openrs.repserver.exec;

import io.openrs.wire.ErrorCode;

/** The server refuses an agent's handshake: the code and message go back in an Error frame. */
public final class AgentRejectedException extends Exception {
  private static final long serialVersionUID = 1L;

  private final ErrorCode code;

  public AgentRejectedException(ErrorCode code, String message) {
    super(message);
    this.code = code;
  }

  public ErrorCode code() {
    return code;
  }
}
