package io.openrs.wire;

import java.util.Optional;

/**
 * Why the server refused or ended an agent's connection ({@link Frame.Error}). The numeric {@link
 * #code()} is what travels on the wire and what DBAs see in logs; it never changes meaning. {@link
 * #retryable()} says whether an agent may reconnect on its own after a back-off; for the others a
 * DBA must act first (the table in {@code docs/formats/ltl-wire.md} says what).
 */
public enum ErrorCode {
  /** User or password wrong, or (below version 4) no permission for the origin. */
  AUTHENTICATION_FAILED(1, false),
  /** The server has no connection for the {@code dataserver.database} the agent named. */
  UNKNOWN_ORIGIN(2, false),
  /** The agent's version range and the server's share no version; the message names both. */
  UNSUPPORTED_VERSION(3, false),
  /** The server's limit on agent connections is reached. */
  TOO_MANY_CONNECTIONS(4, true),
  /** The agent broke the protocol (bad frame, wrong order, sequence gap); the message says how. */
  PROTOCOL_ERROR(5, false),
  /** Log transfer from this origin is suspended by a DBA. */
  LOG_TRANSFER_STOPPED(6, false),
  /** Another agent holds this origin (possibly a dead connection the server has not noticed). */
  ORIGIN_BUSY(7, true),
  /** The server is shutting down. */
  SHUTTING_DOWN(8, true),
  /** The server failed; its log has the details. */
  INTERNAL(9, false),
  /**
   * Version 4 on: the user logged in but has no {@code connect source} permission for the origin it
   * names; the message says which grant is missing. Sessions below version 4 get {@link
   * #AUTHENTICATION_FAILED} with the same message (their agents know codes 1-9 only).
   */
  PERMISSION_DENIED(10, false);

  private static final ErrorCode[] BY_CODE = new ErrorCode[11];

  static {
    for (ErrorCode c : values()) {
      BY_CODE[c.code] = c;
    }
  }

  private final int code;
  private final boolean retryable;

  ErrorCode(int code, boolean retryable) {
    this.code = code;
    this.retryable = retryable;
  }

  /** The stable number on the wire. */
  public int code() {
    return code;
  }

  /** Whether an agent may reconnect by itself after a back-off. */
  public boolean retryable() {
    return retryable;
  }

  /** The code with number {@code code}, or empty when this version knows none. */
  public static Optional<ErrorCode> forCode(long code) {
    return code > 0 && code < BY_CODE.length
        ? Optional.ofNullable(BY_CODE[(int) code])
        : Optional.empty();
  }
}
