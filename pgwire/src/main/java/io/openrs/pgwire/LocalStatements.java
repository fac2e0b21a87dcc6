package io.openrs.pgwire;

import io.openrs.pgwire.SqlLexer.Kind;
import io.openrs.pgwire.SqlLexer.Token;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The session-level statements the server answers itself, so that clients work whatever the
 * backend's language is: {@code SET}/{@code RESET}/{@code SHOW}, transaction control ({@code
 * BEGIN}, {@code COMMIT}, {@code ROLLBACK}, savepoints), {@code DISCARD}, {@code DEALLOCATE}, and
 * {@code SELECT} lists made only of {@code version()}, {@code current_setting(...)}, {@code
 * current_user} and the like, and literals. A statement is answered here only when it has exactly
 * PostgreSQL's form; anything else (including e.g. RCL's {@code set autocorrection ...}) goes to
 * the backend.
 *
 * <p>Not thread-safe: owned by the connection's worker.
 */
final class LocalStatements {

  /** What the statements act on: the connection's state. */
  interface Host {
    SessionParameters parameters();

    PgServerSettings settings();

    TransactionState transaction();

    /** DEALLOCATE name. */
    void deallocate(String name) throws PgException;

    /** DEALLOCATE ALL. */
    void deallocateAll();

    int processId();

    String user();

    String database();
  }

  /** The transaction status clients see in ReadyForQuery, and the savepoints of the block. */
  static final class TransactionState {
    /** 'I' idle, 'T' in a transaction block, 'E' in a failed transaction block. */
    char status = 'I';

    final List<String> savepoints = new ArrayList<>();

    boolean inBlock() {
      return status != 'I';
    }

    void end() {
      status = 'I';
      savepoints.clear();
    }

    /** An error happened: a block becomes failed. */
    void failed() {
      if (status == 'T') {
        status = 'E';
      }
    }
  }

  private final Host host;

  LocalStatements(Host host) {
    this.host = host;
  }

  /**
   * Whether the statement may run in a failed transaction block: COMMIT, END, ROLLBACK, ABORT (with
   * or without TO SAVEPOINT).
   */
  static boolean endsFailedTransaction(List<Token> tokens) {
    if (tokens.isEmpty()) {
      return false;
    }
    Token t = tokens.get(0);
    return t.isKeyword("commit")
        || t.isKeyword("end")
        || t.isKeyword("rollback")
        || t.isKeyword("abort");
  }

  /**
   * Answers the statement if it is one of the local ones.
   *
   * @param tokens the statement's tokens (positions relative to its text)
   * @return the result; empty = not a local statement, give it to the backend
   */
  Optional<PgResult> handle(List<Token> tokens) throws PgException {
    if (tokens.isEmpty() || tokens.get(0).kind() != Kind.IDENT) {
      return Optional.empty();
    }
    Cursor c = new Cursor(tokens);
    switch (tokens.get(0).value()) {
      case "set":
        return set(c);
      case "reset":
        return reset(c);
      case "show":
        return show(c);
      case "begin":
      case "start":
        return begin(c);
      case "commit":
      case "end":
        return commit(c);
      case "rollback":
      case "abort":
        return rollback(c);
      case "savepoint":
        return savepoint(c);
      case "release":
        return release(c);
      case "discard":
        return discard(c);
      case "deallocate":
        return deallocate(c);
      case "select":
        return select(c);
      default:
        return Optional.empty();
    }
  }

  // ---- SET / RESET / SHOW --------------------------------------------------------------------

  private Optional<PgResult> set(Cursor c) throws PgException {
    c.next(); // SET
    boolean local = false;
    if (c.acceptKeyword("session")) {
      if (c.peekKeyword("characteristics")) {
        c.next();
        if (!c.acceptKeyword("as") || !c.acceptKeyword("transaction")) {
          return Optional.empty();
        }
        Optional<String[]> modes = transactionModes(c);
        if (modes.isEmpty() || !c.atEnd()) {
          return Optional.empty();
        }
        if (modes.get()[0] != null) {
          host.parameters().set("default_transaction_isolation", modes.get()[0], 0);
          host.parameters().set("transaction_isolation", modes.get()[0], 0);
        }
        if (modes.get()[1] != null) {
          host.parameters().set("default_transaction_read_only", modes.get()[1], 0);
        }
        return Optional.of(PgResult.command("SET"));
      }
      if (c.peekKeyword("authorization")) {
        throw notSupported("SET SESSION AUTHORIZATION", "log in as that user instead");
      }
    } else if (c.acceptKeyword("local")) {
      local = true;
    }
    if (c.peekKeyword("role")) {
      throw notSupported("SET ROLE", "log in as a user with that role instead");
    }
    if (!local && c.peekKeyword("transaction")) {
      c.next();
      if (c.peekKeyword("snapshot")) {
        throw notSupported("SET TRANSACTION SNAPSHOT", null);
      }
      Optional<String[]> modes = transactionModes(c);
      if (modes.isEmpty() || !c.atEnd()) {
        return Optional.empty();
      }
      if (modes.get()[0] != null) {
        host.parameters().set("transaction_isolation", modes.get()[0], 0);
      }
      return Optional.of(PgResult.command("SET"));
    }
    if (c.peekKeyword("time") && c.peekAt(1) != null && c.peekAt(1).isKeyword("zone")) {
      c.next();
      c.next();
      Token valueToken = c.peek();
      Optional<String> value = settingValue(c, true);
      if (value.isEmpty() || !c.atEnd()) {
        return Optional.empty();
      }
      if (value.get().equals("default") || value.get().equals("local")) {
        host.parameters().reset("TimeZone");
      } else {
        host.parameters().set("TimeZone", value.get(), valueToken.start() + 1);
      }
      return Optional.of(PgResult.command("SET"));
    }
    Optional<String> name = parameterName(c);
    if (name.isEmpty()) {
      return Optional.empty();
    }
    if (!c.acceptKeyword("to") && !c.acceptOperator("=")) {
      return Optional.empty();
    }
    if (c.peekKeyword("default") && c.size() == c.index() + 1) {
      c.next();
      host.parameters().reset(name.get());
      return Optional.of(PgResult.command("SET"));
    }
    List<String> values = new ArrayList<>();
    Token first = c.peek();
    do {
      Optional<String> value = settingValue(c, false);
      if (value.isEmpty()) {
        return Optional.empty();
      }
      values.add(value.get());
    } while (c.acceptOperator(","));
    if (!c.atEnd() || first == null) {
      return Optional.empty();
    }
    host.parameters().set(name.get(), String.join(", ", values), first.start() + 1);
    return Optional.of(PgResult.command("SET"));
  }

  /** [ISOLATION LEVEL x] [READ WRITE|READ ONLY] [[NOT] DEFERRABLE], comma-separated. */
  private static Optional<String[]> transactionModes(Cursor c) {
    String isolation = null;
    String readOnly = null;
    boolean first = true;
    while (!c.atEnd()) {
      if (!first) {
        c.acceptOperator(",");
      }
      first = false;
      if (c.acceptKeyword("isolation")) {
        if (!c.acceptKeyword("level")) {
          return Optional.empty();
        }
        if (c.acceptKeyword("serializable")) {
          isolation = "serializable";
        } else if (c.acceptKeyword("repeatable")) {
          if (!c.acceptKeyword("read")) {
            return Optional.empty();
          }
          isolation = "repeatable read";
        } else if (c.acceptKeyword("read")) {
          if (c.acceptKeyword("committed")) {
            isolation = "read committed";
          } else if (c.acceptKeyword("uncommitted")) {
            isolation = "read uncommitted";
          } else {
            return Optional.empty();
          }
        } else {
          return Optional.empty();
        }
      } else if (c.acceptKeyword("read")) {
        if (c.acceptKeyword("only")) {
          readOnly = "on";
        } else if (c.acceptKeyword("write")) {
          readOnly = "off";
        } else {
          return Optional.empty();
        }
      } else if (c.acceptKeyword("not")) {
        if (!c.acceptKeyword("deferrable")) {
          return Optional.empty();
        }
      } else if (!c.acceptKeyword("deferrable")) {
        return Optional.empty();
      }
    }
    return Optional.of(new String[] {isolation, readOnly});
  }

  /** name or name.name..., as PostgreSQL folds it. */
  private static Optional<String> parameterName(Cursor c) {
    Token t = c.peek();
    if (t == null || (t.kind() != Kind.IDENT && t.kind() != Kind.QUOTED_IDENT)) {
      return Optional.empty();
    }
    c.next();
    StringBuilder name = new StringBuilder(t.value());
    while (c.peek() != null && c.peek().isOperator(".")) {
      c.next();
      Token part = c.peek();
      if (part == null || (part.kind() != Kind.IDENT && part.kind() != Kind.QUOTED_IDENT)) {
        return Optional.empty();
      }
      c.next();
      name.append('.').append(part.value());
    }
    return Optional.of(name.toString());
  }

  /** One value of SET: a string, an identifier (lower-cased), a signed number, a keyword. */
  private static Optional<String> settingValue(Cursor c, boolean allowInterval) {
    Token t = c.peek();
    if (t == null) {
      return Optional.empty();
    }
    if (t.isOperator("-") || t.isOperator("+")) {
      Token number = c.peekAt(1);
      if (number == null || number.kind() != Kind.NUMBER) {
        return Optional.empty();
      }
      c.next();
      c.next();
      return Optional.of((t.value().equals("-") ? "-" : "") + number.value());
    }
    switch (t.kind()) {
      case STRING:
      case NUMBER:
      case IDENT:
      case QUOTED_IDENT:
        c.next();
        return Optional.of(t.value());
      default:
        return Optional.empty();
    }
  }

  private Optional<PgResult> reset(Cursor c) throws PgException {
    c.next(); // RESET
    if (c.acceptKeyword("all") && c.atEnd()) {
      host.parameters().resetAll();
      return Optional.of(PgResult.command("RESET"));
    }
    if (c.peekKeyword("time") && c.peekAt(1) != null && c.peekAt(1).isKeyword("zone")) {
      c.next();
      c.next();
      if (!c.atEnd()) {
        return Optional.empty();
      }
      host.parameters().reset("TimeZone");
      return Optional.of(PgResult.command("RESET"));
    }
    if ((c.peekKeyword("role") || c.peekKeyword("session")) && c.size() <= 3) {
      return Optional.of(PgResult.command("RESET"));
    }
    Optional<String> name = parameterName(c);
    if (name.isEmpty() || !c.atEnd()) {
      return Optional.empty();
    }
    host.parameters().reset(name.get());
    return Optional.of(PgResult.command("RESET"));
  }

  private Optional<PgResult> show(Cursor c) throws PgException {
    c.next(); // SHOW
    String name;
    if (c.peekKeyword("all") && c.size() == 2) {
      List<List<Object>> rows = new ArrayList<>();
      for (String[] row : host.parameters().all()) {
        rows.add(Arrays.asList((Object[]) row));
      }
      return Optional.of(
          PgResult.rows(
                  List.of(
                      PgColumn.text("name"),
                      PgColumn.text("setting"),
                      PgColumn.text("description")),
                  rows)
              .withCommandTag("SHOW"));
    } else if (c.peekKeyword("time") && c.size() == 3 && c.peekAt(1).isKeyword("zone")) {
      name = "TimeZone";
    } else if (c.peekKeyword("transaction")
        && c.size() == 4
        && c.peekAt(1).isKeyword("isolation")
        && c.peekAt(2).isKeyword("level")) {
      name = "transaction_isolation";
    } else if (c.peekKeyword("session")
        && c.size() == 3
        && c.peekAt(1).isKeyword("authorization")) {
      name = "session_authorization";
    } else {
      Token at = c.peek();
      Optional<String> parsed = parameterName(c);
      if (parsed.isEmpty() || !c.atEnd()) {
        return Optional.empty();
      }
      name = SessionParameters.canonical(parsed.get());
      if (host.parameters().get(name).isEmpty()) {
        throw new PgException(
            PgSqlState.UNDEFINED_OBJECT,
            "unrecognized configuration parameter \"" + parsed.get() + "\"",
            at.start() + 1);
      }
    }
    String value = host.parameters().get(name).orElse("");
    return Optional.of(
        PgResult.rows(List.of(PgColumn.text(name)), List.of(List.<Object>of(value)))
            .withCommandTag("SHOW"));
  }

  // ---- transaction control -------------------------------------------------------------------

  private Optional<PgResult> begin(Cursor c) throws PgException {
    Token first = c.next();
    String tag = "BEGIN";
    if (first.isKeyword("start")) {
      if (!c.acceptKeyword("transaction")) {
        return Optional.empty();
      }
      tag = "START TRANSACTION";
    } else if (!c.acceptKeyword("work")) {
      c.acceptKeyword("transaction");
    }
    Optional<String[]> modes = transactionModes(c);
    if (modes.isEmpty()) {
      return Optional.empty();
    }
    TransactionState tx = host.transaction();
    PgResult result = PgResult.command(tag);
    if (tx.inBlock()) {
      result = result.withNotice("there is already a transaction in progress");
    } else {
      tx.status = 'T';
    }
    return Optional.of(result);
  }

  private Optional<PgResult> commit(Cursor c) throws PgException {
    c.next();
    if (c.peekKeyword("prepared")) {
      throw notSupported("COMMIT PREPARED", null);
    }
    if (!c.acceptKeyword("work")) {
      c.acceptKeyword("transaction");
    }
    Optional<Boolean> chain = chain(c);
    if (chain.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(endTransaction(chain.get(), false));
  }

  private Optional<PgResult> rollback(Cursor c) throws PgException {
    c.next();
    if (c.peekKeyword("prepared")) {
      throw notSupported("ROLLBACK PREPARED", null);
    }
    if (!c.acceptKeyword("work")) {
      c.acceptKeyword("transaction");
    }
    if (c.acceptKeyword("to")) {
      c.acceptKeyword("savepoint");
      Optional<String> name = identifier(c);
      if (name.isEmpty() || !c.atEnd()) {
        return Optional.empty();
      }
      TransactionState tx = host.transaction();
      if (!tx.inBlock()) {
        throw new PgException(
            PgSqlState.NO_ACTIVE_SQL_TRANSACTION,
            "ROLLBACK TO SAVEPOINT can only be used in transaction blocks");
      }
      int at = tx.savepoints.lastIndexOf(name.get());
      if (at < 0) {
        throw new PgException(
            PgSqlState.INVALID_SAVEPOINT_SPECIFICATION,
            "savepoint \"" + name.get() + "\" does not exist");
      }
      tx.savepoints.subList(at + 1, tx.savepoints.size()).clear();
      tx.status = 'T';
      return Optional.of(PgResult.command("ROLLBACK"));
    }
    Optional<Boolean> chain = chain(c);
    if (chain.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(endTransaction(chain.get(), true));
  }

  /** [AND [NO] CHAIN] then the end: present = parsed, with whether to chain. */
  private static Optional<Boolean> chain(Cursor c) {
    boolean chain = false;
    if (c.acceptKeyword("and")) {
      boolean no = c.acceptKeyword("no");
      if (!c.acceptKeyword("chain")) {
        return Optional.empty();
      }
      chain = !no;
    }
    return c.atEnd() ? Optional.of(chain) : Optional.empty();
  }

  private PgResult endTransaction(boolean chain, boolean rollback) throws PgException {
    TransactionState tx = host.transaction();
    String tag = rollback || tx.status == 'E' ? "ROLLBACK" : "COMMIT";
    if (!tx.inBlock()) {
      if (chain) {
        throw new PgException(
            PgSqlState.NO_ACTIVE_SQL_TRANSACTION,
            (rollback ? "ROLLBACK" : "COMMIT")
                + " AND CHAIN can only be used in transaction blocks");
      }
      return PgResult.command(tag).withNotice("there is no transaction in progress");
    }
    tx.end();
    if (chain) {
      tx.status = 'T';
    }
    return PgResult.command(tag);
  }

  private Optional<PgResult> savepoint(Cursor c) throws PgException {
    c.next();
    Optional<String> name = identifier(c);
    if (name.isEmpty() || !c.atEnd()) {
      return Optional.empty();
    }
    TransactionState tx = host.transaction();
    if (!tx.inBlock()) {
      throw new PgException(
          PgSqlState.NO_ACTIVE_SQL_TRANSACTION, "SAVEPOINT can only be used in transaction blocks");
    }
    tx.savepoints.add(name.get());
    return Optional.of(PgResult.command("SAVEPOINT"));
  }

  private Optional<PgResult> release(Cursor c) throws PgException {
    c.next();
    c.acceptKeyword("savepoint");
    Optional<String> name = identifier(c);
    if (name.isEmpty() || !c.atEnd()) {
      return Optional.empty();
    }
    TransactionState tx = host.transaction();
    if (!tx.inBlock()) {
      throw new PgException(
          PgSqlState.NO_ACTIVE_SQL_TRANSACTION,
          "RELEASE SAVEPOINT can only be used in transaction blocks");
    }
    int at = tx.savepoints.lastIndexOf(name.get());
    if (at < 0) {
      throw new PgException(
          PgSqlState.INVALID_SAVEPOINT_SPECIFICATION,
          "savepoint \"" + name.get() + "\" does not exist");
    }
    tx.savepoints.subList(at, tx.savepoints.size()).clear();
    return Optional.of(PgResult.command("RELEASE"));
  }

  private static Optional<String> identifier(Cursor c) {
    Token t = c.peek();
    if (t == null || (t.kind() != Kind.IDENT && t.kind() != Kind.QUOTED_IDENT)) {
      return Optional.empty();
    }
    c.next();
    return Optional.of(t.value());
  }

  // ---- DISCARD / DEALLOCATE ------------------------------------------------------------------

  private Optional<PgResult> discard(Cursor c) throws PgException {
    c.next();
    Token what = c.peek();
    if (what == null || c.size() != 2 || what.kind() != Kind.IDENT) {
      return Optional.empty();
    }
    switch (what.value()) {
      case "all":
        if (host.transaction().inBlock()) {
          throw new PgException(
              PgSqlState.ACTIVE_SQL_TRANSACTION,
              "DISCARD ALL cannot run inside a transaction block");
        }
        host.parameters().resetAll();
        host.deallocateAll();
        return Optional.of(PgResult.command("DISCARD ALL"));
      case "plans":
        return Optional.of(PgResult.command("DISCARD PLANS"));
      case "sequences":
        return Optional.of(PgResult.command("DISCARD SEQUENCES"));
      case "temp":
      case "temporary":
        return Optional.of(PgResult.command("DISCARD TEMP"));
      default:
        return Optional.empty();
    }
  }

  private Optional<PgResult> deallocate(Cursor c) throws PgException {
    c.next();
    c.acceptKeyword("prepare");
    if (c.peekKeyword("all") && c.size() == c.index() + 1) {
      host.deallocateAll();
      return Optional.of(PgResult.command("DEALLOCATE ALL"));
    }
    Optional<String> name = identifier(c);
    if (name.isEmpty() || !c.atEnd()) {
      return Optional.empty();
    }
    host.deallocate(name.get());
    return Optional.of(PgResult.command("DEALLOCATE"));
  }

  // ---- SELECT of session functions and literals ----------------------------------------------

  private Optional<PgResult> select(Cursor c) throws PgException {
    c.next(); // SELECT
    List<PgColumn> columns = new ArrayList<>();
    List<Object> row = new ArrayList<>();
    do {
      Optional<Item> item = item(c);
      if (item.isEmpty()) {
        return Optional.empty();
      }
      String name = item.get().name();
      if (c.acceptKeyword("as")) {
        Optional<String> alias = identifier(c);
        if (alias.isEmpty()) {
          return Optional.empty();
        }
        name = alias.get();
      } else if (c.peek() != null
          && (c.peek().kind() == Kind.QUOTED_IDENT
              || (c.peek().kind() == Kind.IDENT && !c.peek().isKeyword("from")))) {
        name = c.next().value();
      }
      columns.add(new PgColumn(name, item.get().type()));
      row.add(item.get().value());
    } while (c.acceptOperator(","));
    if (!c.atEnd()) {
      return Optional.empty();
    }
    List<List<Object>> rows = new ArrayList<>();
    rows.add(row);
    return Optional.of(PgResult.rows(columns, rows));
  }

  private record Item(String name, PgType type, Object value) {}

  private Optional<Item> item(Cursor c) throws PgException {
    Token t = c.peek();
    if (t == null) {
      return Optional.empty();
    }
    if (t.kind() == Kind.NUMBER || t.isOperator("-")) {
      boolean negative = t.isOperator("-");
      Token number = negative ? c.peekAt(1) : t;
      if (number == null || number.kind() != Kind.NUMBER) {
        return Optional.empty();
      }
      c.next();
      if (negative) {
        c.next();
      }
      BigDecimal value = new BigDecimal(number.value());
      if (negative) {
        value = value.negate();
      }
      if (number.value().matches("\\d+")) {
        try {
          return Optional.of(new Item("?column?", PgType.INT4, value.intValueExact()));
        } catch (ArithmeticException e) {
          try {
            return Optional.of(new Item("?column?", PgType.INT8, value.longValueExact()));
          } catch (ArithmeticException e2) {
            return Optional.of(new Item("?column?", PgType.NUMERIC, value));
          }
        }
      }
      return Optional.of(new Item("?column?", PgType.NUMERIC, value));
    }
    if (t.kind() == Kind.STRING) {
      c.next();
      return Optional.of(new Item("?column?", PgType.TEXT, t.value()));
    }
    if (t.kind() != Kind.IDENT) {
      return Optional.empty();
    }
    String name = t.value();
    c.next();
    if (name.equals("pg_catalog") && c.acceptOperator(".")) {
      Token fn = c.peek();
      if (fn == null || fn.kind() != Kind.IDENT) {
        return Optional.empty();
      }
      name = c.next().value();
    }
    boolean call = c.acceptOperator("(");
    List<Token> args = new ArrayList<>();
    if (call) {
      while (!c.atEnd() && !c.peek().isOperator(")")) {
        args.add(c.next());
        if (!c.acceptOperator(",")) {
          break;
        }
      }
      if (!c.acceptOperator(")")) {
        return Optional.empty();
      }
    }
    switch (name) {
      case "true":
      case "false":
        return call
            ? Optional.empty()
            : Optional.of(new Item("bool", PgType.BOOL, name.equals("true")));
      case "null":
        return call ? Optional.empty() : Optional.of(new Item("?column?", PgType.TEXT, null));
      case "version":
        return call && args.isEmpty()
            ? Optional.of(
                new Item("version", PgType.TEXT, "PostgreSQL " + host.settings().serverVersion()))
            : Optional.empty();
      case "current_user":
      case "session_user":
      case "user":
      case "current_role":
        return call ? Optional.empty() : Optional.of(new Item(name, PgType.TEXT, host.user()));
      case "current_database":
        return call && args.isEmpty()
            ? Optional.of(new Item(name, PgType.TEXT, host.database()))
            : Optional.empty();
      case "current_catalog":
        return call ? Optional.empty() : Optional.of(new Item(name, PgType.TEXT, host.database()));
      case "current_schema":
        return args.isEmpty()
            ? Optional.of(new Item(name, PgType.TEXT, "public"))
            : Optional.empty();
      case "pg_backend_pid":
        return call && args.isEmpty()
            ? Optional.of(new Item(name, PgType.INT4, host.processId()))
            : Optional.empty();
      case "current_setting":
        return currentSetting(call, args);
      default:
        return Optional.empty();
    }
  }

  private Optional<Item> currentSetting(boolean call, List<Token> args) throws PgException {
    if (!call || args.isEmpty() || args.size() > 2 || args.get(0).kind() != Kind.STRING) {
      return Optional.empty();
    }
    boolean missingOk = false;
    if (args.size() == 2) {
      Token ok = args.get(1);
      if (ok.isKeyword("true")) {
        missingOk = true;
      } else if (!ok.isKeyword("false")) {
        return Optional.empty();
      }
    }
    String requested = args.get(0).value();
    String name = SessionParameters.canonical(requested);
    Optional<String> value = host.parameters().get(name);
    if (value.isEmpty() && !missingOk) {
      throw new PgException(
          PgSqlState.UNDEFINED_OBJECT,
          "unrecognized configuration parameter \"" + requested + "\"",
          args.get(0).start() + 1);
    }
    return Optional.of(new Item("current_setting", PgType.TEXT, value.orElse(null)));
  }

  private static PgException notSupported(String what, String hint) {
    return new PgException(
        PgSqlState.FEATURE_NOT_SUPPORTED, what + " is not supported by this server", 0, hint, null);
  }

  /** Walks the tokens of one statement. */
  private static final class Cursor {
    private final List<Token> tokens;
    private int i;

    Cursor(List<Token> tokens) {
      this.tokens = tokens;
    }

    int size() {
      return tokens.size();
    }

    int index() {
      return i;
    }

    boolean atEnd() {
      return i >= tokens.size();
    }

    Token peek() {
      return peekAt(0);
    }

    Token peekAt(int ahead) {
      int at = i + ahead;
      return at < tokens.size() ? tokens.get(at) : null;
    }

    Token next() {
      return tokens.get(i++);
    }

    boolean peekKeyword(String keyword) {
      Token t = peek();
      return t != null && t.isKeyword(keyword);
    }

    boolean acceptKeyword(String keyword) {
      if (peekKeyword(keyword)) {
        i++;
        return true;
      }
      return false;
    }

    boolean acceptOperator(String op) {
      Token t = peek();
      if (t != null && t.isOperator(op)) {
        i++;
        return true;
      }
      return false;
    }
  }
}
