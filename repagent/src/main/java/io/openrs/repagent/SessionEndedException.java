package io.openrs.repagent;

/**
 * Thrown into the log reader's thread when the session it feeds has ended (the server connection
 * failed or the agent is stopping): the reader stops, and the agent starts a new session.
 */
final class SessionEndedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  SessionEndedException(String message, Throwable cause) {
    super(message, cause);
  }
}
