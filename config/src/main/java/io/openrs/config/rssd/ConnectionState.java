package io.openrs.config.rssd;

/**
 * Persisted state of one side of a connection: its DSI (applying to the replicate) or its log
 * transfer (the agent feeding it as a primary). Kept across restarts, as Replication Server keeps
 * {@code suspend connection} and {@code suspend log transfer}.
 */
public enum ConnectionState {
  /** Runs (or will run once the server starts). */
  ACTIVE,
  /** Suspended by an administrator ({@code suspend connection}, {@code suspend log transfer}). */
  SUSPENDED,
  /** Stopped by the server after an error (e.g. a stop_replication action); resumed by the DBA. */
  DOWN
}
