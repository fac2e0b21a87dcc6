package io.openrs.pgwire;

import io.netty.channel.Channel;
import io.openrs.pgwire.FrontendMessage.Query;
import io.openrs.pgwire.FrontendMessage.Startup;
import io.openrs.pgwire.LocalStatements.TransactionState;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client connection's protocol state machine: startup, SCRAM authentication, the simple query
 * flow, running commands (session statements here, the rest through the backend), transaction
 * status, errors and closing. The extended query flow is {@link ExtendedQuery}.
 *
 * <p>Not thread-safe: owned by the connection's {@link SerialExecutor}, i.e. one worker thread at a
 * time, in the order the messages arrived; the backend is called from there, so it may block. Only
 * {@link #cancelRequested()} and {@link #authenticated()} are called from other threads.
 */
final class PgConnection implements LocalStatements.Host, ExtendedQuery.Session {
  private static final Logger log = LoggerFactory.getLogger(PgConnection.class);

  private enum Phase {
    STARTUP,
    SASL_INITIAL,
    SASL_FINAL,
    READY,
    CLOSED
  }

  private final PgServerContext server;
  private final Channel channel;
  private final PgOutput out;

  private Phase phase = Phase.STARTUP;
  private volatile boolean authenticated;
  private volatile boolean busy;
  private Map<String, String> startupParameters = Map.of();
  private String userName = "";
  private String database = "";
  private boolean tls;
  private boolean slot;
  private ScramServer scram;
  private PgUser user;
  private boolean cleanedUp;

  private PgSession session;
  private SessionParameters parameters;
  private LocalStatements local;
  private final TransactionState transaction = new TransactionState();
  private final ExtendedQuery extended;

  PgConnection(PgServerContext server, Channel channel) {
    this.server = server;
    this.channel = channel;
    this.out = new PgOutput(channel);
    this.extended = new ExtendedQuery(this, out);
  }

  PgOutput output() {
    return out;
  }

  PgSession session() {
    return session;
  }

  boolean authenticated() {
    return authenticated;
  }

  /** A CancelRequest for this session arrived (any thread). */
  void cancelRequested() {
    if (busy && session != null) {
      session.setCancelRequested(true);
    }
  }

  // ---- dispatch ------------------------------------------------------------------------------

  /** Handles one message from the client. */
  void handle(FrontendMessage message) {
    if (phase == Phase.CLOSED) {
      return;
    }
    try {
      if (message instanceof FrontendMessage.Violation) {
        FrontendMessage.Violation v = (FrontendMessage.Violation) message;
        log.info("protocol violation from {}: {}", channel.remoteAddress(), v.message());
        fatal(new PgException(v.sqlState(), v.message()));
        return;
      }
      if (message instanceof FrontendMessage.Terminate) {
        closeNow();
        return;
      }
      switch (phase) {
        case STARTUP:
          startupPhase(message);
          break;
        case SASL_INITIAL:
        case SASL_FINAL:
          authenticationPhase(message);
          break;
        case READY:
          busy = true;
          readyPhase(message);
          break;
        default:
          break;
      }
    } catch (PgException e) {
      fatal(e);
    } catch (RuntimeException e) {
      log.error("internal error on connection from {}", channel.remoteAddress(), e);
      fatal(new PgException(PgSqlState.INTERNAL_ERROR, "internal error: " + e));
    }
  }

  private void startupPhase(FrontendMessage message) throws PgException {
    if (message instanceof FrontendMessage.Cancel) {
      FrontendMessage.Cancel c = (FrontendMessage.Cancel) message;
      server.cancel(c.processId(), c.secretKey());
      closeNow();
    } else if (message instanceof Startup) {
      startup((Startup) message);
    } else {
      throw new PgException(PgSqlState.PROTOCOL_VIOLATION, "expected a startup message");
    }
  }

  private void authenticationPhase(FrontendMessage message) throws PgException {
    if (!(message instanceof FrontendMessage.Password)) {
      throw new PgException(
          PgSqlState.PROTOCOL_VIOLATION,
          "expected SASL response, got " + message.getClass().getSimpleName());
    }
    byte[] body = ((FrontendMessage.Password) message).body();
    if (phase == Phase.SASL_INITIAL) {
      saslInitialResponse(body);
    } else {
      saslResponse(body);
    }
  }

  private void readyPhase(FrontendMessage m) throws PgException {
    if (extended.skippingUntilSync() && !(m instanceof FrontendMessage.Sync)) {
      // after an error in an extended-query sequence everything up to Sync is ignored
      return;
    }
    if (m instanceof Query) {
      simpleQuery(((Query) m).sql());
    } else if (m instanceof FrontendMessage.Parse) {
      extended.parse((FrontendMessage.Parse) m);
    } else if (m instanceof FrontendMessage.Bind) {
      extended.bind((FrontendMessage.Bind) m);
    } else if (m instanceof FrontendMessage.Describe) {
      extended.describe((FrontendMessage.Describe) m);
    } else if (m instanceof FrontendMessage.Execute) {
      extended.execute((FrontendMessage.Execute) m);
    } else if (m instanceof FrontendMessage.Sync) {
      extended.sync();
      readyForQuery();
    } else if (m instanceof FrontendMessage.Flush) {
      extended.flush();
      out.flush();
    } else if (m instanceof FrontendMessage.Close) {
      extended.close((FrontendMessage.Close) m);
    } else if (m instanceof FrontendMessage.BadEncoding) {
      FrontendMessage.BadEncoding bad = (FrontendMessage.BadEncoding) m;
      PgException e = new PgException(PgSqlState.CHARACTER_NOT_IN_REPERTOIRE, bad.message());
      if (bad.type() == 'Q') {
        sendError(e, 0);
        readyForQuery();
      } else {
        sendError(e, 0);
        transaction.failed();
        extended.failed();
      }
    } else if (m instanceof FrontendMessage.TooLong) {
      FrontendMessage.TooLong tooLong = (FrontendMessage.TooLong) m;
      sendError(statementTooLong(tooLong), 0);
      transaction.failed();
      if (tooLong.type() == 'Q') {
        readyForQuery();
      } else {
        extended.failed();
      }
    } else if (m instanceof FrontendMessage.FunctionCall) {
      sendError(
          new PgException(
              PgSqlState.FEATURE_NOT_SUPPORTED, "the function call protocol is not supported"),
          0);
      readyForQuery();
    } else if (m instanceof FrontendMessage.CopyOutsideCopy) {
      log.debug("ignoring {} outside COPY", m);
    } else {
      throw new PgException(
          PgSqlState.PROTOCOL_VIOLATION, "unexpected message " + m.getClass().getSimpleName());
    }
  }

  private PgException statementTooLong(FrontendMessage.TooLong m) {
    String kind = m.type() == 'Q' ? "query" : m.type() == 'P' ? "Parse message" : "Bind message";
    server.limitedLog.info(
        "statement-too-long",
        "session {}: refused a {} of {} bytes (statement limit {} bytes)",
        session,
        kind,
        m.bodyBytes(),
        m.limitBytes());
    return new PgException(
        PgSqlState.PROGRAM_LIMIT_EXCEEDED,
        kind
            + " of "
            + m.bodyBytes()
            + " bytes is longer than the statement limit of "
            + m.limitBytes()
            + " bytes",
        0,
        "the limit is the server parameter admin_max_statement_bytes; send smaller statements",
        null);
  }

  // ---- startup and authentication ------------------------------------------------------------

  private void startup(Startup s) throws PgException {
    startupParameters = s.parameters();
    tls = s.tls();
    List<String> unrecognized = new ArrayList<>();
    for (String name : s.parameters().keySet()) {
      if (name.startsWith("_pq_.")) {
        unrecognized.add(name);
      }
    }
    if (s.minor() > 0 || !unrecognized.isEmpty()) {
      out.negotiateProtocolVersion(0, unrecognized);
    }
    userName = s.parameters().getOrDefault("user", "");
    if (userName.isEmpty()) {
      throw new PgException(
          PgSqlState.INVALID_AUTHORIZATION_SPECIFICATION,
          "no PostgreSQL user name specified in startup packet");
    }
    refuseWhileThrottled();
    database = s.parameters().getOrDefault("database", "");
    if (database.isEmpty()) {
      database = userName;
    }
    String replication = s.parameters().get("replication");
    if (replication != null && !isOff(replication)) {
      throw new PgException(
          PgSqlState.FEATURE_NOT_SUPPORTED, "replication connections are not supported");
    }
    if (server.settings.requireTls() && !tls) {
      throw new PgException(
          PgSqlState.INVALID_AUTHORIZATION_SPECIFICATION,
          "this server accepts only TLS connections (user \"" + userName + "\")",
          0,
          "connect with sslmode=verify-full (or require)",
          null);
    }
    Optional<PgUser> found = server.backend.user(userName);
    Optional<PgScram.Verifier> verifier =
        found.flatMap(u -> PgScram.Verifier.parse(u.scramVerifier()));
    if (found.isPresent() && verifier.isEmpty()) {
      log.warn("user \"{}\" has no valid SCRAM-SHA-256 verifier; it cannot log in", userName);
    }
    user = verifier.isPresent() ? found.get() : null;
    scram =
        new ScramServer(
            userName,
            verifier,
            server.mockSalt(userName),
            tls ? server.channelBindingData : null,
            server.serverNonce());
    out.authenticationSasl(scram.mechanisms());
    out.flush();
    phase = Phase.SASL_INITIAL;
  }

  /** Refuses the login when the client's address must still wait after failed logins. */
  private void refuseWhileThrottled() throws PgException {
    InetAddress address = clientAddress();
    if (address == null) {
      return;
    }
    Optional<Duration> wait = server.loginThrottle.waitFor(address);
    if (wait.isEmpty()) {
      return;
    }
    long seconds = LoginThrottle.seconds(wait.get());
    server.limitedLog.info(
        "login-backoff",
        "refused a login of user \"{}\" from {}: too many failed logins, {} s to wait",
        userName,
        address.getHostAddress(),
        seconds);
    throw new PgException(
        PgSqlState.INVALID_PASSWORD,
        "too many failed logins from " + address.getHostAddress() + ", retry in " + seconds + " s",
        0,
        "each further failure doubles the wait, up to "
            + LoginThrottle.MAX_BACKOFF.toSeconds()
            + " s; a successful login ends it",
        null);
  }

  private InetAddress clientAddress() {
    return channel.remoteAddress() instanceof InetSocketAddress a ? a.getAddress() : null;
  }

  /** Another connection took this one's place among those not logged in yet. */
  void evicted() {
    if (authenticated || phase == Phase.CLOSED) {
      return;
    }
    fatal(
        new PgException(
            PgSqlState.TOO_MANY_CONNECTIONS,
            "too many connections are logging in at once (at most "
                + server.settings.maxUnauthenticated()
                + "); this one waited longest"));
  }

  private static boolean isOff(String value) {
    String v = value.toLowerCase(Locale.ROOT);
    return v.equals("false") || v.equals("off") || v.equals("no") || v.equals("0");
  }

  private void saslInitialResponse(byte[] body) throws PgException {
    ByteBuffer buf = ByteBuffer.wrap(body);
    int nul = -1;
    for (int i = 0; i < body.length; i++) {
      if (body[i] == 0) {
        nul = i;
        break;
      }
    }
    if (nul < 0 || body.length < nul + 5) {
      throw new PgException(PgSqlState.PROTOCOL_VIOLATION, "malformed SASLInitialResponse");
    }
    String mechanism = new String(body, 0, nul, StandardCharsets.UTF_8);
    buf.position(nul + 1);
    int length = buf.getInt();
    if (length < 0 || length != buf.remaining()) {
      throw new PgException(
          PgSqlState.PROTOCOL_VIOLATION,
          "malformed SASLInitialResponse: initial response length "
              + length
              + ", "
              + buf.remaining()
              + " bytes present");
    }
    byte[] data = new byte[length];
    buf.get(data);
    try {
      out.authenticationSaslContinue(scram.clientFirst(mechanism, data));
    } catch (PgException e) {
      logAuthenticationFailure(e);
      throw e;
    }
    out.flush();
    phase = Phase.SASL_FINAL;
  }

  private void saslResponse(byte[] body) throws PgException {
    refuseWhileThrottled();
    byte[] serverFinal;
    try {
      serverFinal = scram.clientFinal(body);
    } catch (PgException e) {
      logAuthenticationFailure(e);
      throw e;
    }
    if (user.roles().isEmpty()) {
      log.info("user \"{}\" from {} has no role and may not log in", userName, remote());
      throw new PgException(
          PgSqlState.INVALID_AUTHORIZATION_SPECIFICATION,
          "role \"" + userName + "\" is not permitted to log in");
    }
    InetAddress address = clientAddress();
    if (address != null) {
      server.loginThrottle.succeeded(address);
    }
    if (!server.acquireSlot()) {
      server.limitedLog.info(
          "session-limit",
          "refused a login of user \"{}\" from {}: {} sessions already",
          userName,
          remote(),
          server.settings.maxConnections());
      throw new PgException(PgSqlState.TOO_MANY_CONNECTIONS, "sorry, too many clients already");
    }
    slot = true;
    out.authenticationSaslFinal(serverFinal);
    out.authenticationOk();
    login();
  }

  private void logAuthenticationFailure(PgException e) {
    String why;
    if (!e.sqlState().equals(PgSqlState.INVALID_PASSWORD)) {
      why = e.getMessage();
    } else if (user == null) {
      why = "unknown user or no valid verifier";
    } else {
      why = "wrong password";
    }
    InetAddress address = clientAddress();
    if (address != null && e.sqlState().equals(PgSqlState.INVALID_PASSWORD)) {
      server.loginThrottle.failed(address);
    }
    server.limitedLog.info(
        "authentication-failed",
        "authentication of user \"{}\" from {} failed: {}",
        userName,
        remote(),
        why);
  }

  private void login() throws PgException {
    boolean superuser = server.backend.superuser(user);
    session =
        new PgSession(
            server.newProcessId(),
            server.newSecretKey(),
            userName,
            user.roles(),
            database,
            channel.remoteAddress(),
            tls,
            Map.of());
    parameters =
        new SessionParameters(
            session.mutableParameters(),
            SessionParameters.serverDefaults(server.settings, userName, superuser));
    for (Map.Entry<String, String> p : startupParameters.entrySet()) {
      String name = p.getKey();
      if (name.equals("user")
          || name.equals("database")
          || name.equals("replication")
          || name.startsWith("_pq_.")) {
        continue;
      }
      if (name.equals("options")) {
        for (String[] option : commandLineOptions(p.getValue())) {
          parameters.applyStartup(option[0], option[1]);
        }
        continue;
      }
      try {
        parameters.applyStartup(name, p.getValue());
      } catch (PgException e) {
        if (!name.equalsIgnoreCase("TimeZone")) {
          throw e;
        }
        log.debug("client time zone {} unknown, staying on UTC", p.getValue());
      }
    }
    parameters.markSessionDefaults();
    local = new LocalStatements(this);
    server.register(this);
    phase = Phase.READY;
    authenticated = true;
    server.leaveUnauthenticated(channel);
    for (String name : SessionParameters.REPORTED_AT_LOGIN) {
      out.parameterStatus(name, parameters.get(name).orElse(""));
    }
    out.backendKeyData(session.processId(), session.secretKey());
    log.debug("session {} logged in", session);
    try {
      server.backend.sessionOpened(session);
    } catch (RuntimeException e) {
      log.warn("backend failed on sessionOpened({})", session, e);
    }
    readyForQuery();
  }

  private static final Pattern OPTION =
      Pattern.compile("(?:-c\\s*|--)((?:[^=\\s\\\\]|\\\\.)+)=((?:[^\\s\\\\]|\\\\.)*)");

  /** {@code -c name=value} and {@code --name=value} of the startup {@code options}. */
  static List<String[]> commandLineOptions(String options) throws PgException {
    List<String[]> result = new ArrayList<>();
    Matcher m = OPTION.matcher(options);
    int at = 0;
    while (at < options.length()) {
      if (Character.isWhitespace(options.charAt(at))) {
        at++;
        continue;
      }
      if (!m.find(at) || m.start() != at) {
        throw new PgException(
            PgSqlState.PROTOCOL_VIOLATION,
            "invalid command-line argument in startup options: " + options.substring(at),
            0,
            "only -c name=value and --name=value are understood",
            null);
      }
      result.add(
          new String[] {
            m.group(1).replaceAll("\\\\(.)", "$1").replace('-', '_'),
            m.group(2).replaceAll("\\\\(.)", "$1")
          });
      at = m.end();
    }
    return result;
  }

  // ---- simple query --------------------------------------------------------------------------

  private void simpleQuery(String sql) {
    extended.beforeSimpleQuery();
    List<SqlLexer.Statement> parts;
    try {
      parts = SqlLexer.split(sql);
    } catch (PgException e) {
      sendError(e, e.position() > 0 ? Command.codePointPosition(sql, e.position() - 1) : 0);
      transaction.failed();
      readyForQuery();
      return;
    }
    if (parts.isEmpty()) {
      out.emptyQueryResponse();
    }
    for (SqlLexer.Statement part : parts) {
      Command command;
      try {
        command = Command.of(part.text(), sql, part.offset(), null);
      } catch (PgException e) {
        Command unlexed = new Command(part.text(), List.of(), sql, part.offset(), null);
        sendError(e, unlexed.clientPosition(e.position()));
        transaction.failed();
        break;
      }
      try {
        PgResult result = run(command);
        sendNotices(result);
        if (result.hasColumns()) {
          short[] text = new short[result.columns().size()];
          out.rowDescription(result.columns(), text);
          sendRows(result, text, 0, result.rows().size());
        }
        out.commandComplete(result.commandTag());
      } catch (PgException e) {
        sendError(e, command.clientPosition(e.position()));
        transaction.failed();
        break;
      }
    }
    readyForQuery();
  }

  // ---- running commands ----------------------------------------------------------------------

  @Override
  public PgResult runAndSendNotices(Command command) throws PgException {
    PgResult result = run(command);
    sendNotices(result);
    return result;
  }

  /** Runs one command: failed-transaction and cancel checks, local statements, else the backend. */
  private PgResult run(Command command) throws PgException {
    if (transaction.status == 'E' && !LocalStatements.endsFailedTransaction(command.tokens())) {
      throw new PgException(
          PgSqlState.IN_FAILED_SQL_TRANSACTION,
          "current transaction is aborted, commands ignored until end of transaction block");
    }
    if (session.cancelRequested()) {
      throw new PgException(PgSqlState.QUERY_CANCELED, "canceling statement due to user request");
    }
    Optional<PgResult> answered = local.handle(command.tokens());
    if (answered.isPresent()) {
      return answered.get();
    }
    PgResult result;
    try {
      result = server.backend.execute(session, command.text());
    } catch (RuntimeException e) {
      log.warn("backend failed on a command of session {}", session, e);
      throw internalError(e);
    }
    if (result == null) {
      throw new PgException(
          PgSqlState.INTERNAL_ERROR, "internal error: the backend returned no result");
    }
    return result;
  }

  static PgException internalError(RuntimeException e) {
    return new PgException(PgSqlState.INTERNAL_ERROR, "internal error: " + e, e);
  }

  private void sendNotices(PgResult result) {
    for (String notice : result.notices()) {
      out.errorOrNotice(false, "NOTICE", "00000", notice, 0, null, null);
    }
  }

  @Override
  public void sendRows(PgResult result, short[] formats, int from, int to) throws PgException {
    List<PgColumn> columns = result.columns();
    PgValues.TextStyle style = parameters.textStyle();
    for (int r = from; r < to; r++) {
      List<Object> row = result.rows().get(r);
      byte[][] values = new byte[columns.size()][];
      for (int c = 0; c < values.length; c++) {
        PgType type = columns.get(c).type();
        try {
          values[c] =
              formats[c] == 1
                  ? PgValues.binary(type, row.get(c))
                  : PgValues.text(type, row.get(c), style);
        } catch (IllegalArgumentException | ArithmeticException e) {
          log.warn("session {}: bad value in row {} column {}: {}", session, r, c, e.getMessage());
          throw new PgException(
              PgSqlState.INTERNAL_ERROR,
              "internal error: value of column \""
                  + columns.get(c).name()
                  + "\": "
                  + e.getMessage());
        }
      }
      out.dataRow(values);
      if (session.cancelRequested()) {
        throw new PgException(PgSqlState.QUERY_CANCELED, "canceling statement due to user request");
      }
    }
  }

  // ---- errors and status ---------------------------------------------------------------------

  /** ErrorResponse (severity ERROR) with the position already in client characters. */
  @Override
  public void sendError(PgException e, int clientPosition) {
    out.errorOrNotice(
        true,
        "ERROR",
        e.sqlState(),
        e.getMessage(),
        clientPosition,
        e.hint().orElse(null),
        e.detail().orElse(null));
  }

  private void readyForQuery() {
    for (String name : parameters.drainChangedReported()) {
      out.parameterStatus(name, parameters.get(name).orElse(""));
    }
    if (transaction.status == 'I') {
      extended.transactionEnded();
    }
    busy = false;
    session.setCancelRequested(false);
    out.readyForQuery(transaction.status);
    List<Runnable> after = session == null ? List.of() : session.drainAfterReadyForQuery();
    if (after.isEmpty()) {
      out.flush();
    } else {
      out.flushThen(() -> after.forEach(Runnable::run));
    }
  }

  /** FATAL ErrorResponse, then close. */
  private void fatal(PgException e) {
    if (phase == Phase.CLOSED) {
      return;
    }
    out.errorOrNotice(
        true,
        "FATAL",
        e.sqlState(),
        e.getMessage(),
        0,
        e.hint().orElse(null),
        e.detail().orElse(null));
    closeNow();
  }

  private void closeNow() {
    phase = Phase.CLOSED;
    out.flushAndClose();
  }

  /** The channel is gone: releases what the connection holds. Runs once, after the last task. */
  void closed() {
    if (cleanedUp) {
      return;
    }
    cleanedUp = true;
    phase = Phase.CLOSED;
    out.discard();
    extended.clear();
    if (slot) {
      slot = false;
      server.releaseSlot();
    }
    if (session != null) {
      server.unregister(this);
      try {
        server.backend.sessionClosed(session);
      } catch (RuntimeException e) {
        log.warn("backend failed on sessionClosed({})", session, e);
      }
      session.attributes().clear();
      log.debug("session {} ended", session);
    }
  }

  private Object remote() {
    return channel.remoteAddress();
  }

  // ---- LocalStatements.Host ------------------------------------------------------------------

  @Override
  public SessionParameters parameters() {
    return parameters;
  }

  @Override
  public PgServerSettings settings() {
    return server.settings;
  }

  @Override
  public TransactionState transaction() {
    return transaction;
  }

  @Override
  public void deallocate(String name) throws PgException {
    extended.deallocate(name);
  }

  @Override
  public void deallocateAll() {
    extended.deallocateAll();
  }

  @Override
  public Optional<List<PgColumn>> describe(String text) throws PgException {
    return server.backend.describe(session, text);
  }

  @Override
  public int processId() {
    return session.processId();
  }

  @Override
  public String user() {
    return userName;
  }

  @Override
  public String database() {
    return database;
  }
}
