package io.openrs.config.param;

/** When a changed value starts to be used. */
public enum TakesEffect {
  /** Used as soon as the command that sets it returns. */
  IMMEDIATELY("immediately", "as soon as the command returns"),
  /**
   * Used when the connection is next resumed: {@code suspend connection} / {@code resume
   * connection} for DSI parameters, the agent's next connect ({@code suspend log transfer} / {@code
   * resume log transfer}) for agent-side and EXEC parameters. A server-level value reaches each
   * connection at that connection's next resume.
   */
  CONNECTION_RESUME(
      "connection resume",
      "at the next resume: resume connection for DSI parameters, the agent's next connect"
          + " (resume log transfer) for agent and EXEC parameters"),
  /**
   * Used from the next start of the server; {@code configure replication server ... with shutdown}
   * saves the value and stops the server.
   */
  RESTART("restart", "at the next start of the server");

  private final String label;
  private final String wording;

  TakesEffect(String label, String wording) {
    this.label = label;
    this.wording = wording;
  }

  /** The short form used in the docs' tables and {@code admin config}. */
  public String label() {
    return label;
  }

  /** The sentence a DBA reads: when exactly the new value is used. */
  public String wording() {
    return wording;
  }
}
