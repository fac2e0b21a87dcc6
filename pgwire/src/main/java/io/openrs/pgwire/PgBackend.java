package io.openrs.pgwire;

import java.util.List;
import java.util.Optional;

/**
 * What the server asks of whoever gives the commands their meaning. The server calls these methods
 * on a worker thread, never on a network thread; calls for one session come one at a time and in
 * the client's order, calls for different sessions may run at the same time. They may block (e.g.
 * to persist a change) for as long as the command takes.
 */
public interface PgBackend {

  /**
   * The user's SCRAM-SHA-256 verifier and roles; empty = unknown user. Unknown users and wrong
   * passwords get the same answer ({@code 28P01 password authentication failed for user "x"}).
   */
  Optional<PgUser> user(String name);

  /**
   * Runs one command: the text of one statement as the client sent it (leading and trailing white
   * space and the trailing ';' removed; comments kept; in the extended protocol with the parameters
   * already substituted as quoted SQL literals, {@code NULL} for null). The session-level
   * statements the server answers itself ({@code SET}, {@code SHOW}, {@code BEGIN}, {@code SELECT
   * version()} ...; see {@code docs/formats/pgwire.md}) never reach it.
   *
   * @throws PgException to fail the command with that SQLSTATE, message and position
   */
  PgResult execute(PgSession session, String commandText) throws PgException;

  /**
   * The columns {@code commandText} would return, without running it, when the backend can tell;
   * empty = cannot tell. Asked only when a client describes a prepared statement without binding it
   * first (e.g. JDBC's {@code PreparedStatement.getMetaData()} before execution); the text still
   * holds its {@code $n} placeholders. When empty the server runs a statement without parameters at
   * Describe time (and hands that result to the Execute that follows, so it runs once), and answers
   * NoData for one with parameters.
   *
   * @return the columns; an empty list = the command returns no table
   */
  default Optional<List<PgColumn>> describe(PgSession session, String commandText)
      throws PgException {
    return Optional.empty();
  }

  /** Whether the user is reported to clients as a superuser ({@code is_superuser}). */
  default boolean superuser(PgUser user) {
    return false;
  }

  /** A session has logged in. */
  default void sessionOpened(PgSession session) {}

  /** A session has ended (after the last {@link #execute} call for it has returned). */
  default void sessionClosed(PgSession session) {}
}
