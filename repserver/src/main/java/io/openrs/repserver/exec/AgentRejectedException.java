package io.openrs.repserver.exec;

import io.openrs.wire.ErrorCode;

/** The server refuses an agent's handshake: the code and message go back in an Error frame. */
public final class AgentRejectedException extends Exception {
  private static final long serialVersionUID = 1L;

  private final ErrorCode code;
  private final boolean repeated;

  public AgentRejectedException(ErrorCode code, String message) {
    this(code, message, false);
  }

  /**
   * @param repeated the same refusal as the last one for the same reason (an agent reconnecting
   *     while log transfer stays stopped): logged at DEBUG only
   */
  public AgentRejectedException(ErrorCode code, String message, boolean repeated) {
    super(message);
    this.code = code;
    this.repeated = repeated;
  }

  public ErrorCode code() {
    return code;
  }

  /** Whether the refusal repeats one already logged. */
  public boolean repeated() {
    return repeated;
  }
}
