package io.openrs.pgwire;

import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * One logged-in client connection, as a {@link PgBackend} sees it. The parameters change only on
 * the session's worker thread (by {@code SET}, between backend calls); other threads (e.g. an
 * {@code admin who}) may read every accessor at any time.
 */
public final class PgSession {
  private final java.util.concurrent.ConcurrentLinkedQueue<Runnable> afterReady =
      new java.util.concurrent.ConcurrentLinkedQueue<>();
  private final int processId;
  private final int secretKey;
  private final String user;
  private final Set<String> roles;
  private final String database;
  private final SocketAddress remoteAddress;
  private final boolean tls;
  private final ConcurrentSkipListMap<String, String> parameters =
      new ConcurrentSkipListMap<>(String.CASE_INSENSITIVE_ORDER);
  private final ConcurrentMap<String, Object> attributes = new ConcurrentHashMap<>();
  private volatile boolean cancelRequested;

  PgSession(
      int processId,
      int secretKey,
      String user,
      Set<String> roles,
      String database,
      SocketAddress remoteAddress,
      boolean tls,
      Map<String, String> initialParameters) {
    this.processId = processId;
    this.secretKey = secretKey;
    this.user = user;
    this.roles = Set.copyOf(roles);
    this.database = database;
    this.remoteAddress = remoteAddress;
    this.tls = tls;
    this.parameters.putAll(initialParameters);
  }

  /** The user name the client logged in with. */
  public String user() {
    return user;
  }

  /** The user's roles at login. */
  public Set<String> roles() {
    return roles;
  }

  /** The database name the client asked for (the server does not interpret it). */
  public String database() {
    return database;
  }

  /** {@code application_name} as the client set it, "" when not set. */
  public String applicationName() {
    return parameters.getOrDefault("application_name", "");
  }

  /**
   * The session's run-time parameters (startup values and what {@code SET} changed), read-only,
   * keys compared ignoring case as PostgreSQL does.
   */
  public Map<String, String> parameters() {
    return Collections.unmodifiableMap(parameters);
  }

  /** The client's address. */
  public SocketAddress remoteAddress() {
    return remoteAddress;
  }

  /** The session's number (BackendKeyData process id, {@code pg_backend_pid()}). */
  public int processId() {
    return processId;
  }

  /** Whether the connection is encrypted with TLS. */
  public boolean tls() {
    return tls;
  }

  /**
   * Runs {@code action} once the next ReadyForQuery (the end of the command now running) has been
   * written to the client, e.g. a {@code shutdown} command that must answer before the server
   * stops. The action runs on a network thread: keep it short (start a thread for long work).
   */
  public void afterReadyForQuery(Runnable action) {
    afterReady.add(action);
  }

  List<Runnable> drainAfterReadyForQuery() {
    List<Runnable> out = new ArrayList<>();
    Runnable r;
    while ((r = afterReady.poll()) != null) {
      out.add(r);
    }
    return out;
  }

  /** A place for the backend to keep per-session state; cleared when the session ends. */
  public ConcurrentMap<String, Object> attributes() {
    return attributes;
  }

  /**
   * Whether the client sent a CancelRequest for the query now running. A long backend command may
   * poll it and stop with SQLSTATE 57014; the server itself stops before the next statement.
   */
  public boolean cancelRequested() {
    return cancelRequested;
  }

  int secretKey() {
    return secretKey;
  }

  void setCancelRequested(boolean requested) {
    cancelRequested = requested;
  }

  Map<String, String> mutableParameters() {
    return parameters;
  }

  @Override
  public String toString() {
    return "PgSession[pid=" + processId + ", user=" + user + ", from=" + remoteAddress + "]";
  }
}
