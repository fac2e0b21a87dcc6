package io.openrs.repagent;

/**
 * An error the agent reports to the DBA, with a stable code. Whether the agent retries after it is
 * decided by {@link RetryPolicy}, from the code.
 */
public final class AgentException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Stable error codes; the numbers never change meaning. */
  public enum Code {
    /** The configuration file or a parameter is wrong: fix it and restart. */
    CONFIGURATION(1),
    /**
     * The primary is set up so that its log cannot be read (wal_level, privileges, binlog format):
     * the message names the setting.
     */
    SOURCE_SETUP(2),
    /** The primary cannot be reached or dropped the connection: retried with back-off. */
    SOURCE_UNAVAILABLE(3),
    /** The server refused the agent for good (credentials, unknown origin, protocol). */
    SERVER_REFUSED(4),
    /** The server rejected the same command more than {@code rejection_retry_limit} times. */
    COMMAND_REJECTED(5),
    /** The log reader failed in a way the agent does not know; retried with back-off. */
    READER_FAILED(6),
    /**
     * The server holds changes of the origin but no resume position, and the primary keeps none (no
     * slot): starting at the current end of the log would skip changes. Retried a few times (the
     * server may be about to save the position), then the agent stops.
     */
    RESUME_POSITION_MISSING(7),
    /** A bug in the agent. */
    INTERNAL(9);

    private final int number;

    Code(int number) {
      this.number = number;
    }

    public int number() {
      return number;
    }

    /** {@code RA-<n>}, as printed in messages. */
    public String label() {
      return "RA-" + number;
    }
  }

  private final Code code;

  public AgentException(Code code, String message) {
    super(code.label() + " " + message);
    this.code = code;
  }

  public AgentException(Code code, String message, Throwable cause) {
    super(code.label() + " " + message, cause);
    this.code = code;
  }

  public Code code() {
    return code;
  }
}
