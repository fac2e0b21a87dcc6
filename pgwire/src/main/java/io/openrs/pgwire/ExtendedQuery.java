package io.openrs.pgwire;

import io.openrs.pgwire.FrontendMessage.Bind;
import io.openrs.pgwire.FrontendMessage.Close;
import io.openrs.pgwire.FrontendMessage.Describe;
import io.openrs.pgwire.FrontendMessage.Execute;
import io.openrs.pgwire.FrontendMessage.Parse;
import io.openrs.pgwire.LocalStatements.TransactionState;
import io.openrs.pgwire.SqlLexer.Token;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The extended-query flow of one connection: prepared statements (Parse), portals (Bind), Describe,
 * Execute with row limits, Close, and the rule that after an error everything up to Sync is
 * ignored. The protocol wants a Describe answered with the columns before anything runs; since only
 * running a command tells its columns, a portal's command runs at Describe and its result is kept
 * for Execute, and a statement's Describe is answered when the next message shows whether a Bind of
 * it follows (see {@code docs/formats/pgwire.md}).
 *
 * <p>Not thread-safe: owned by the connection's worker, like {@link PgConnection}.
 */
final class ExtendedQuery {
  private static final Logger log = LoggerFactory.getLogger(ExtendedQuery.class);

  /** What the flow needs of its connection. */
  interface Session {
    /** Runs a command (checks, session statements, backend) and sends its notices. */
    PgResult runAndSendNotices(Command command) throws PgException;

    /** DataRows {@code from} (inclusive) to {@code to} (exclusive) of a result. */
    void sendRows(PgResult result, short[] formats, int from, int to) throws PgException;

    /** ErrorResponse with the position already in client characters. */
    void sendError(PgException e, int clientPosition);

    TransactionState transaction();

    /** {@link PgBackend#describe} for this session. */
    Optional<List<PgColumn>> describe(String text) throws PgException;
  }

  private final Session session;
  private final PgOutput out;
  private final Map<String, Prepared> statements = new HashMap<>();
  private final Map<String, Portal> portals = new HashMap<>();
  private boolean skipUntilSync;
  private Prepared pendingDescribe;

  ExtendedQuery(Session session, PgOutput out) {
    this.session = session;
    this.out = out;
  }

  /** Whether an error makes the flow ignore messages until Sync. */
  boolean skippingUntilSync() {
    return skipUntilSync;
  }

  /** A simple Query drops the unnamed statement and portal. */
  void beforeSimpleQuery() {
    statements.remove("");
    portals.remove("");
    pendingDescribe = null;
  }

  /** Flush: a pending statement Describe must be answered first. */
  void flush() {
    if (!skipUntilSync) {
      resolvePendingDescribe();
    }
  }

  /** The transaction ended (ReadyForQuery 'I'): no portal outlives it. */
  void transactionEnded() {
    portals.clear();
  }

  /** An error outside these messages (bad UTF-8 in one of them): skip until Sync. */
  void failed() {
    skipUntilSync = true;
    pendingDescribe = null;
  }

  /** The connection is gone. */
  void clear() {
    statements.clear();
    portals.clear();
  }

  void parse(Parse p) {
    if (skipUntilSync) {
      return;
    }
    resolvePendingDescribe();
    if (skipUntilSync) {
      return;
    }
    try {
      if (!p.name().isEmpty() && statements.containsKey(p.name())) {
        throw new PgException(
            PgSqlState.DUPLICATE_PREPARED_STATEMENT,
            "prepared statement \"" + p.name() + "\" already exists");
      }
      List<SqlLexer.Statement> parts;
      try {
        parts = SqlLexer.split(p.sql());
      } catch (PgException e) {
        extendedError(
            e, e.position() > 0 ? Command.codePointPosition(p.sql(), e.position() - 1) : 0);
        return;
      }
      if (parts.size() > 1) {
        throw new PgException(
            PgSqlState.SYNTAX_ERROR,
            "cannot insert multiple commands into a prepared statement",
            0);
      }
      String text = parts.isEmpty() ? "" : parts.get(0).text();
      int offset = parts.isEmpty() ? 0 : parts.get(0).offset();
      List<Token> tokens;
      int count;
      try {
        tokens = SqlLexer.tokenize(text);
        count = ParameterSubstitution.parameterCount(tokens);
      } catch (PgException e) {
        extendedError(e, positionIn(p.sql(), offset, e));
        return;
      }
      int[] types = Arrays.copyOf(p.parameterTypes(), Math.max(count, p.parameterTypes().length));
      if (p.name().isEmpty()) {
        portals.remove("");
      }
      statements.put(p.name(), new Prepared(p.name(), p.sql(), text, offset, tokens, types));
      out.parseComplete();
    } catch (PgException e) {
      extendedError(e, 0);
    }
  }

  void bind(Bind b) {
    if (skipUntilSync) {
      return;
    }
    Prepared statement = statements.get(b.statement());
    if (pendingDescribe != null && pendingDescribe != statement) {
      resolvePendingDescribe();
      if (skipUntilSync) {
        return;
      }
    }
    Portal portal;
    try {
      if (statement == null) {
        throw unknownStatement(b.statement());
      }
      portal = newPortal(b, statement);
    } catch (PgException e) {
      resolvePendingDescribe();
      if (!skipUntilSync) {
        extendedError(e, 0);
      }
      return;
    }
    if (pendingDescribe == statement) {
      pendingDescribe = null;
      out.parameterDescription(parameterOids(statement));
      if (statement.text.isEmpty()) {
        out.noData();
      } else {
        try {
          portal.result = session.runAndSendNotices(portal.command);
          describeResult(portal.result, null);
        } catch (PgException e) {
          extendedError(e, portal.command.clientPosition(e.position()));
          return;
        }
      }
    } else if (statement.preExecuted != null) {
      portal.result = statement.preExecuted;
      statement.preExecuted = null;
    }
    portals.put(b.portal(), portal);
    out.bindComplete();
  }

  private Portal newPortal(Bind b, Prepared statement) throws PgException {
    if (!b.portal().isEmpty() && portals.containsKey(b.portal())) {
      throw new PgException(
          PgSqlState.DUPLICATE_CURSOR, "portal \"" + b.portal() + "\" already exists");
    }
    int count = statement.parameterTypes.length;
    if (b.values().size() != count) {
      throw new PgException(
          PgSqlState.PROTOCOL_VIOLATION,
          "bind message supplies "
              + b.values().size()
              + " parameters, but prepared statement \""
              + statement.name
              + "\" requires "
              + count);
    }
    short[] formats = b.parameterFormats();
    if (formats.length != 0 && formats.length != 1 && formats.length != count) {
      throw new PgException(
          PgSqlState.PROTOCOL_VIOLATION,
          "bind message has " + formats.length + " parameter formats but " + count + " parameters");
    }
    for (short f : formats) {
      checkFormat(f);
    }
    for (short f : b.resultFormats()) {
      checkFormat(f);
    }
    List<String> values = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      byte[] value = b.values().get(i);
      if (value == null) {
        values.add(null);
        continue;
      }
      short format = formats.length == 0 ? 0 : formats.length == 1 ? formats[0] : formats[i];
      values.add(PgValues.parameterText(i + 1, statement.parameterTypes[i], format == 1, value));
    }
    Command command;
    if (count == 0) {
      command =
          new Command(statement.text, statement.tokens, statement.query, statement.offset, null);
    } else {
      ParameterSubstitution substitution =
          ParameterSubstitution.substitute(statement.text, statement.tokens, values);
      command = Command.of(substitution.text(), statement.query, statement.offset, substitution);
    }
    return new Portal(b.portal(), statement, command, b.resultFormats());
  }

  private static void checkFormat(short format) throws PgException {
    if (format != 0 && format != 1) {
      throw new PgException(
          PgSqlState.INVALID_PARAMETER_VALUE, "unsupported format code: " + format);
    }
  }

  void describe(Describe d) {
    if (skipUntilSync) {
      return;
    }
    resolvePendingDescribe();
    if (skipUntilSync) {
      return;
    }
    if (d.kind() == 'S') {
      Prepared statement = statements.get(d.name());
      if (statement == null) {
        extendedError(unknownStatement(d.name()), 0);
        return;
      }
      // Answered when the next message shows whether a Bind of this statement follows.
      pendingDescribe = statement;
      return;
    }
    Portal portal = portals.get(d.name());
    if (portal == null) {
      extendedError(unknownPortal(d.name()), 0);
      return;
    }
    if (portal.statement.text.isEmpty()) {
      out.noData();
      return;
    }
    try {
      ensureResult(portal);
      describeResult(portal.result, portal.resultFormats);
    } catch (PgException e) {
      extendedError(e, portal.command.clientPosition(e.position()));
    }
  }

  /**
   * Answers a Describe of a statement not followed by a Bind of it: with the backend's description
   * if it has one, else by running a statement without parameters now (its result goes to the next
   * Bind before Sync), else NoData.
   */
  private void resolvePendingDescribe() {
    Prepared statement = pendingDescribe;
    if (statement == null) {
      return;
    }
    pendingDescribe = null;
    out.parameterDescription(parameterOids(statement));
    if (statement.text.isEmpty()) {
      out.noData();
      return;
    }
    Command command =
        new Command(statement.text, statement.tokens, statement.query, statement.offset, null);
    try {
      Optional<List<PgColumn>> columns = Optional.empty();
      if (!looksLocal(statement.tokens)) {
        columns = session.describe(statement.text);
      }
      if (columns.isPresent()) {
        if (columns.get().isEmpty()) {
          out.noData();
        } else {
          out.rowDescription(columns.get(), new short[columns.get().size()]);
        }
      } else if (statement.parameterTypes.length == 0) {
        statement.preExecuted = session.runAndSendNotices(command);
        describeResult(statement.preExecuted, null);
      } else {
        out.noData();
      }
    } catch (PgException e) {
      extendedError(e, command.clientPosition(e.position()));
    } catch (RuntimeException e) {
      log.warn("backend failed to describe a command", e);
      extendedError(PgConnection.internalError(e), 0);
    }
  }

  private static boolean looksLocal(List<Token> tokens) {
    if (tokens.isEmpty() || tokens.get(0).kind() != SqlLexer.Kind.IDENT) {
      return false;
    }
    switch (tokens.get(0).value()) {
      case "set":
      case "reset":
      case "show":
      case "begin":
      case "start":
      case "commit":
      case "end":
      case "rollback":
      case "abort":
      case "savepoint":
      case "release":
      case "discard":
      case "deallocate":
      case "select":
        return true;
      default:
        return false;
    }
  }

  private static int[] parameterOids(Prepared statement) {
    int[] oids = statement.parameterTypes.clone();
    for (int i = 0; i < oids.length; i++) {
      if (oids[i] == 0) {
        oids[i] = PgType.TEXT.oid();
      }
    }
    return oids;
  }

  /** RowDescription or NoData for a result; formats null = all text (statement Describe). */
  private void describeResult(PgResult result, short[] requestedFormats) throws PgException {
    if (!result.hasColumns()) {
      out.noData();
      return;
    }
    short[] formats =
        requestedFormats == null
            ? new short[result.columns().size()]
            : columnFormats(requestedFormats, result.columns().size());
    out.rowDescription(result.columns(), formats);
  }

  private static short[] columnFormats(short[] requested, int columns) throws PgException {
    if (requested.length == 0) {
      return new short[columns];
    }
    if (requested.length == 1) {
      short[] all = new short[columns];
      Arrays.fill(all, requested[0]);
      return all;
    }
    if (requested.length != columns) {
      throw new PgException(
          PgSqlState.PROTOCOL_VIOLATION,
          "bind message has "
              + requested.length
              + " result formats but query has "
              + columns
              + " columns");
    }
    return requested;
  }

  void execute(Execute e) {
    if (skipUntilSync) {
      return;
    }
    resolvePendingDescribe();
    if (skipUntilSync) {
      return;
    }
    Portal portal = portals.get(e.portal());
    if (portal == null) {
      extendedError(unknownPortal(e.portal()), 0);
      return;
    }
    if (portal.statement.text.isEmpty()) {
      out.emptyQueryResponse();
      return;
    }
    try {
      ensureResult(portal);
      PgResult result = portal.result;
      if (!result.hasColumns()) {
        out.commandComplete(result.commandTag());
        portal.sent = 0;
        return;
      }
      short[] formats = columnFormats(portal.resultFormats, result.columns().size());
      int total = result.rows().size();
      int from = portal.sent;
      int to = e.maxRows() > 0 ? (int) Math.min(total, (long) from + e.maxRows()) : total;
      session.sendRows(result, formats, from, to);
      portal.sent = to;
      if (to < total) {
        out.portalSuspended();
      } else if (result.commandTag().equals("SELECT " + total)) {
        out.commandComplete("SELECT " + (to - from));
      } else {
        out.commandComplete(result.commandTag());
      }
    } catch (PgException ex) {
      extendedError(ex, portal.command.clientPosition(ex.position()));
    }
  }

  private void ensureResult(Portal portal) throws PgException {
    if (portal.result == null) {
      portal.result = session.runAndSendNotices(portal.command);
    }
  }

  void close(Close c) {
    if (skipUntilSync) {
      return;
    }
    resolvePendingDescribe();
    if (skipUntilSync) {
      return;
    }
    if (c.kind() == 'S') {
      Prepared removed = statements.remove(c.name());
      if (removed != null) {
        portals.values().removeIf(p -> p.statement == removed);
      }
    } else {
      portals.remove(c.name());
    }
    out.closeComplete();
  }

  /** Sync: ends the sequence (the connection then sends ReadyForQuery). */
  void sync() {
    if (!skipUntilSync) {
      resolvePendingDescribe();
    }
    pendingDescribe = null;
    skipUntilSync = false;
    for (Prepared p : statements.values()) {
      p.preExecuted = null;
    }
  }

  private PgException unknownStatement(String name) {
    return new PgException(
        PgSqlState.INVALID_SQL_STATEMENT_NAME,
        name.isEmpty()
            ? "unnamed prepared statement does not exist"
            : "prepared statement \"" + name + "\" does not exist");
  }

  private PgException unknownPortal(String name) {
    return new PgException(
        PgSqlState.INVALID_CURSOR_NAME,
        name.isEmpty()
            ? "unnamed portal does not exist"
            : "portal \"" + name + "\" does not exist");
  }

  private void extendedError(PgException e, int clientPosition) {
    session.sendError(e, clientPosition);
    session.transaction().failed();
    skipUntilSync = true;
    pendingDescribe = null;
  }

  private static int positionIn(String query, int offset, PgException e) {
    if (e.position() <= 0) {
      return 0;
    }
    return Command.codePointPosition(query, offset + e.position() - 1);
  }

  /** DEALLOCATE name. */
  void deallocate(String name) throws PgException {
    Prepared removed = statements.remove(name);
    if (removed == null) {
      throw new PgException(
          PgSqlState.INVALID_SQL_STATEMENT_NAME,
          "prepared statement \"" + name + "\" does not exist");
    }
    portals.values().removeIf(p -> p.statement == removed);
  }

  /** DEALLOCATE ALL: the named statements and their portals. */
  void deallocateAll() {
    statements.keySet().removeIf(name -> !name.isEmpty());
    portals.values().removeIf(p -> !p.statement.name.isEmpty());
  }

  /** A prepared statement (Parse). */
  static final class Prepared {
    final String name;
    final String query;
    final String text;
    final int offset;
    final List<Token> tokens;
    final int[] parameterTypes;

    /** Result of running it at Describe time, for the next Bind before Sync. */
    PgResult preExecuted;

    Prepared(
        String name,
        String query,
        String text,
        int offset,
        List<Token> tokens,
        int[] parameterTypes) {
      this.name = name;
      this.query = query;
      this.text = text;
      this.offset = offset;
      this.tokens = tokens;
      this.parameterTypes = parameterTypes;
    }
  }

  /** A portal (Bind): the command with its parameters, and its result once run. */
  static final class Portal {
    final String name;
    final Prepared statement;
    final Command command;
    final short[] resultFormats;
    PgResult result;
    int sent;

    Portal(String name, Prepared statement, Command command, short[] resultFormats) {
      this.name = name;
      this.statement = statement;
      this.command = command;
      this.resultFormats = resultFormats;
    }
  }
}
