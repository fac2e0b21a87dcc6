package io.openrs.pgwire;

import io.netty.channel.Channel;
import io.netty.handler.ssl.SslContext;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.LoggerFactory;

/**
 * What every connection of one {@link PgServer} shares: settings, backend, TLS context, the worker
 * pool, the session slots, the connections not yet logged in, the login throttle, the rate-limited
 * log and the registry of logged-in sessions (for CancelRequest and {@link PgServer#sessions()}).
 * Thread-safe.
 */
final class PgServerContext {
  final PgServerSettings settings;
  final PgBackend backend;
  final SslContext sslContext;
  final byte[] channelBindingData;
  final ExecutorService workers;
  final Clock clock;
  final LoginThrottle loginThrottle;
  final RateLimitedLog limitedLog;

  private final SecureRandom random = new SecureRandom();
  private final ScramExchange.ServerSecrets scramSecrets = new ScramExchange.ServerSecrets();
  private final AtomicInteger nextProcessId = new AtomicInteger(1000);
  private final AtomicInteger slotsInUse = new AtomicInteger();
  private final ConcurrentMap<Integer, PgConnection> sessions = new ConcurrentHashMap<>();

  /** Connections from accept until login or close, oldest first; guarded by itself. */
  private final LinkedHashSet<Channel> unauthenticated = new LinkedHashSet<>();

  /**
   * @param sslContext null when TLS is not offered
   * @param channelBindingData the certificate's tls-server-end-point hash, or null
   */
  PgServerContext(
      PgServerSettings settings,
      PgBackend backend,
      SslContext sslContext,
      byte[] channelBindingData,
      ExecutorService workers,
      Clock clock) {
    this.settings = settings;
    this.backend = backend;
    this.sslContext = sslContext;
    this.channelBindingData = channelBindingData;
    this.workers = workers;
    this.clock = clock;
    this.loginThrottle = new LoginThrottle(settings.maxLoginFailures(), clock);
    this.limitedLog = new RateLimitedLog(LoggerFactory.getLogger(PgServer.class), clock);
  }

  /** Takes a session slot; false when {@code maxConnections} are in use. */
  boolean acquireSlot() {
    while (true) {
      int used = slotsInUse.get();
      if (used >= settings.maxConnections()) {
        return false;
      }
      if (slotsInUse.compareAndSet(used, used + 1)) {
        return true;
      }
    }
  }

  void releaseSlot() {
    slotsInUse.decrementAndGet();
  }

  int slotsInUse() {
    return slotsInUse.get();
  }

  /**
   * Counts a new connection as not yet logged in. When that makes more than {@code
   * maxUnauthenticated}, the oldest of them is taken out of the count and returned, for the caller
   * to close: a flood of silent sockets then cannot keep a client that authenticates promptly out.
   *
   * @return the connection to close, or null
   */
  Channel admitUnauthenticated(Channel channel) {
    synchronized (unauthenticated) {
      unauthenticated.add(channel);
      if (unauthenticated.size() <= settings.maxUnauthenticated()) {
        return null;
      }
      Iterator<Channel> oldest = unauthenticated.iterator();
      Channel evicted = oldest.next();
      oldest.remove();
      return evicted;
    }
  }

  /** The connection logged in or went away: it no longer counts as unauthenticated. */
  void leaveUnauthenticated(Channel channel) {
    synchronized (unauthenticated) {
      unauthenticated.remove(channel);
    }
  }

  int unauthenticatedCount() {
    synchronized (unauthenticated) {
      return unauthenticated.size();
    }
  }

  int newProcessId() {
    return nextProcessId.getAndUpdate(p -> p == Integer.MAX_VALUE ? 1000 : p + 1);
  }

  int newSecretKey() {
    return random.nextInt();
  }

  /** The server's half of a SCRAM nonce: 18 random bytes in base64, as PostgreSQL. */
  String serverNonce() {
    return scramSecrets.serverNonce();
  }

  /** The salt shown for a user without a verifier: stable per user name and server. */
  byte[] mockSalt(String user) {
    return scramSecrets.mockSalt(user);
  }

  void register(PgConnection connection) {
    sessions.put(connection.session().processId(), connection);
  }

  void unregister(PgConnection connection) {
    sessions.remove(connection.session().processId(), connection);
  }

  /** Marks the session's running query cancelled if process id and key match; else nothing. */
  void cancel(int processId, int secretKey) {
    PgConnection target = sessions.get(processId);
    if (target != null && target.session().secretKey() == secretKey) {
      target.cancelRequested();
    }
  }

  List<PgSession> sessions() {
    List<PgSession> list = new ArrayList<>();
    for (PgConnection c : sessions.values()) {
      list.add(c.session());
    }
    return list;
  }
}
