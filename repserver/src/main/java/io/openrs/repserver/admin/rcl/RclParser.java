package io.openrs.repserver.admin.rcl;

import io.openrs.repserver.admin.rcl.RclCommand.AlterConnection;
import io.openrs.repserver.admin.rcl.RclCommand.AlterRepDef;
import io.openrs.repserver.admin.rcl.RclCommand.AlterUserPassword;
import io.openrs.repserver.admin.rcl.RclCommand.CheckSubscription;
import io.openrs.repserver.admin.rcl.RclCommand.ConfigureServer;
import io.openrs.repserver.admin.rcl.RclCommand.CreateConnection;
import io.openrs.repserver.admin.rcl.RclCommand.CreateDatabaseRepDef;
import io.openrs.repserver.admin.rcl.RclCommand.CreateRepDef;
import io.openrs.repserver.admin.rcl.RclCommand.CreateSubscription;
import io.openrs.repserver.admin.rcl.RclCommand.CreateUser;
import io.openrs.repserver.admin.rcl.RclCommand.DropConnection;
import io.openrs.repserver.admin.rcl.RclCommand.DropDatabaseRepDef;
import io.openrs.repserver.admin.rcl.RclCommand.DropRepDef;
import io.openrs.repserver.admin.rcl.RclCommand.DropSubscription;
import io.openrs.repserver.admin.rcl.RclCommand.DropUser;
import io.openrs.repserver.admin.rcl.RclCommand.Grant;
import io.openrs.repserver.admin.rcl.RclCommand.ResumeConnection;
import io.openrs.repserver.admin.rcl.RclCommand.ResumeDistributor;
import io.openrs.repserver.admin.rcl.RclCommand.ResumeLogTransfer;
import io.openrs.repserver.admin.rcl.RclCommand.Revoke;
import io.openrs.repserver.admin.rcl.RclCommand.RsDumpStats;
import io.openrs.repserver.admin.rcl.RclCommand.RsHelpCounter;
import io.openrs.repserver.admin.rcl.RclCommand.RsHelpRep;
import io.openrs.repserver.admin.rcl.RclCommand.RsHelpSub;
import io.openrs.repserver.admin.rcl.RclCommand.Shutdown;
import io.openrs.repserver.admin.rcl.RclCommand.SuspendConnection;
import io.openrs.repserver.admin.rcl.RclCommand.SuspendLogTransfer;
import io.openrs.repserver.admin.rcl.RclLexer.Kind;
import io.openrs.repserver.admin.rcl.RclLexer.Token;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Recursive-descent parser for the admin command language (RCL), one command per call. Stateless
 * and thread-safe: each call works on its own instance.
 *
 * <p>Grammar (keywords case-insensitive and not reserved: a name may be spelled like a keyword
 * wherever the grammar expects a name; {@code [x]} optional, <code>{x}</code> repeated, {@code a |
 * b} alternatives):
 *
 * <pre>
 * command    := statement [';']                        -- then end of text
 * name       := identifier | "quoted identifier"
 * dbref      := name '.' name                          -- dataserver.database
 * value      := 'string' | word | number | "quoted"    -- kept as written
 * setting    := set name to value
 * tableref   := tname ['.' tname]        tname := name | 'string'
 * coldef     := name [as name] type [map to type]
 * type       := typeword {typeword} ['(' arg {',' arg} ')'] {typeword}
 *                                                      -- typeword: name but map/null/not/as
 * names      := '(' name {',' name} ')'
 * subtarget  := name for [database replication definition] name with replicate at dbref
 *
 * create connection to dbref using profile name {[','] (setting | set error class [to] name)}
 *     [with log transfer (on|off)]
 * alter connection to dbref [for replicate table named tableref]
 *     (setting | set log transfer (on|off) | set error class [to] name)
 *     {[','] ...}                                      -- error class: the setting error_class
 * drop connection to dbref
 * admin show_connections
 * create replication definition name with primary at dbref
 *     [with all tables named tableref | with primary table named tableref]
 *     [with replicate table named tableref]
 *     '(' coldef {',' coldef} ')' primary key names [searchable columns names]
 * alter replication definition name
 *     (add searchable columns cols | drop searchable columns cols | add coldef {',' coldef})
 *                                                      -- cols: names, or name {',' name}
 * drop replication definition name
 * create database replication definition name with primary at dbref
 *     {[not] replicate tables in '(' pattern {',' pattern} ')'}     -- pattern: 'string' | tableref
 * drop database replication definition name
 * rs_helprep [name | 'string']
 * create subscription subtarget [where text] [without materialization | with materialization]
 *                                                      -- text: up to the materialization clause
 * drop subscription subtarget
 * check subscription subtarget
 * rs_helpsub [name | 'string']
 * configure replication server setting
 * admin config [',' name]
 * suspend log transfer from dbref          resume log transfer from dbref
 * suspend connection to dbref
 * resume connection to dbref [skip [n] (transaction|transactions) | execute transaction]
 * resume distributor dbref
 * admin who [',' name]      admin who_is_down      admin disk_space
 * admin version             admin health           admin echo [[','] value]
 * admin (stats|statistics) [',' (backlog | tps | cps | bps | reset | status | cancel)]
 * admin (stats|statistics) [',' ("all" | name) [',' (inbound|outbound)] [',' instance]]
 *     [',' (display [',' seconds] | save [',' seconds [',' period]])]
 *                                 -- instance: number | 'string' | dbref; period: seconds | 'hh:mm[:ss]'
 * rs_dump_stats
 * rs_helpcounter [name | 'string']
 * sysadmin dump_queue ',' number ',' (0|1) [',' position [',' count]]   -- position: seg[.blk[.row]]
 * sysadmin sqm_purge_queue ',' number ',' (0|1)
 * rs_ticket [value {',' value}]                        -- at most 4
 * admin ticket_history [',' number]
 * create user name set password [to] value [with role role]
 * alter user name set password [to] value
 * drop user name
 * grant [role] role to [user] name        revoke [role] role from [user] name
 *                                                      -- role: sa | admin | monitor (none
 *                                                      --   only in create user ... with role)
 * grant connect source [on dbref] to [user] name
 * revoke connect source [on dbref] from [user] name
 * rs_helpuser [name | 'string']
 * create error class name [set template to name]
 * alter error class name set template to name
 * drop error class name
 * assign action action for name to code {',' code}   -- action: ignore | warn | retry_log | log
 *                                                      --   | retry_stop | stop_replication
 *                                                      -- code: number | 'string' | word, shaped
 *                                                      --   1062, 23505, 40P01 or 23
 * admin show_error_class [[','] name]
 * rs_helperror code [',' dbref]
 * rs_helpexception [number [',' v]]
 * rs_delexception number          rs_delexception_id number [',' number]
 * shutdown
 * </pre>
 *
 * <p>The {@code admin}, {@code sysadmin} and {@code rs_ticket} rules live in {@link
 * AdminCommandParser}, the error-class and exceptions-log rules in {@link ErrorClassParser}; token
 * handling and error messages in {@link RclCursor}.
 *
 * <p>Errors name what was expected, what was found and where, and suggest the nearest keyword for a
 * misspelt one.
 */
public final class RclParser {

  /** The words a command may start with, for the error on an unknown one. */
  static final List<String> COMMAND_WORDS =
      List.of(
          "admin",
          "alter",
          "assign",
          "check",
          "configure",
          "create",
          "drop",
          "grant",
          "resume",
          "revoke",
          "rs_delexception",
          "rs_delexception_id",
          "rs_dump_stats",
          "rs_helpcounter",
          "rs_helperror",
          "rs_helpexception",
          "rs_helprep",
          "rs_helpsub",
          "rs_helpuser",
          "rs_ticket",
          "shutdown",
          "suspend",
          "sysadmin");

  private final RclCursor in;

  private RclParser(RclLexer.Result lexed) {
    this.in = new RclCursor(lexed);
  }

  /**
   * Parses one command. Surrounding whitespace, comments and one trailing {@code ;} are allowed.
   *
   * @throws RclSyntaxException if the text is not exactly one command of the grammar
   */
  public static RclCommand parse(String text) throws RclSyntaxException {
    Objects.requireNonNull(text, "text");
    RclParser parser = new RclParser(RclLexer.tokenize(text));
    return parser.command();
  }

  private RclCommand command() throws RclSyntaxException {
    Token first = in.peek();
    String word = first.kind() == Kind.IDENT ? first.text() : "";
    RclCommand command =
        switch (word) {
          case "admin" -> AdminCommandParser.admin(in);
          case "alter" -> alter();
          case "assign" -> ErrorClassParser.assign(in);
          case "check" -> check();
          case "configure" -> configure();
          case "create" -> create();
          case "drop" -> drop();
          case "grant", "revoke" -> grantOrRevoke();
          case "resume" -> resume();
          case "rs_delexception", "rs_delexception_id" -> ErrorClassParser.rsDelException(in);
          case "rs_dump_stats" -> noArguments(new RsDumpStats());
          case "rs_helpcounter" ->
              new RsHelpCounter(optionalProcArgument("a module or counter name"));
          case "rs_helperror" -> ErrorClassParser.rsHelpError(in);
          case "rs_helpexception" -> ErrorClassParser.rsHelpException(in);
          case "rs_helprep" -> new RsHelpRep(optionalProcArgument("a replication definition name"));
          case "rs_helpsub" -> new RsHelpSub(optionalProcArgument("a subscription name"));
          case "rs_helpuser" -> new RclCommand.RsHelpUser(optionalProcArgument("a user name"));
          case "rs_ticket" -> AdminCommandParser.rsTicket(in);
          case "shutdown" -> noArguments(new Shutdown());
          case "suspend" -> suspend();
          case "sysadmin" -> AdminCommandParser.sysadmin(in);
          default ->
              throw in.error(
                  "a command (" + String.join(", ", COMMAND_WORDS) + ")", -1, COMMAND_WORDS);
        };
    in.acceptSymbol(';');
    if (in.peek().kind() != Kind.END) {
      throw in.error("end of command", 0, List.of());
    }
    return command;
  }

  private RclCommand noArguments(RclCommand command) {
    in.next();
    return command;
  }

  // ---------------------------------------------------------------- create / alter / drop

  private RclCommand create() throws RclSyntaxException {
    in.next();
    if (in.acceptKeyword("connection")) {
      return createConnection();
    }
    if (in.acceptKeyword("replication")) {
      in.expectKeyword("definition", 0);
      return createRepDef();
    }
    if (in.acceptKeyword("database")) {
      in.expectKeyword("replication", 0);
      in.expectKeyword("definition", 0);
      return createDatabaseRepDef();
    }
    if (in.acceptKeyword("subscription")) {
      return createSubscription();
    }
    if (in.acceptKeyword("user")) {
      return createUser();
    }
    if (in.acceptKeyword("error")) {
      in.expectKeyword("class", 0);
      return ErrorClassParser.create(in);
    }
    throw in.expectedKeywords(
        List.of("connection", "replication", "database", "subscription", "user", "error"), 0);
  }

  private RclCommand alter() throws RclSyntaxException {
    in.next();
    if (in.acceptKeyword("connection")) {
      return alterConnection();
    }
    if (in.acceptKeyword("replication")) {
      in.expectKeyword("definition", 0);
      return alterRepDef();
    }
    if (in.acceptKeyword("user")) {
      String user = in.name("a user name", 0);
      return new AlterUserPassword(user, password());
    }
    if (in.acceptKeyword("error")) {
      in.expectKeyword("class", 0);
      return ErrorClassParser.alter(in);
    }
    throw in.expectedKeywords(List.of("connection", "replication", "user", "error"), 0);
  }

  private RclCommand drop() throws RclSyntaxException {
    in.next();
    if (in.acceptKeyword("connection")) {
      in.expectKeyword("to", 0);
      DbRef at = dbRef(0);
      return new DropConnection(at.dataserver(), at.database());
    }
    if (in.acceptKeyword("replication")) {
      in.expectKeyword("definition", 0);
      return new DropRepDef(in.name("a replication definition name", 0));
    }
    if (in.acceptKeyword("database")) {
      in.expectKeyword("replication", 0);
      in.expectKeyword("definition", 0);
      return new DropDatabaseRepDef(in.name("a database replication definition name", 0));
    }
    if (in.acceptKeyword("subscription")) {
      SubTarget t = subscriptionTarget();
      return new DropSubscription(t.name(), t.repDef(), t.databaseLevel(), t.ds(), t.db());
    }
    if (in.acceptKeyword("user")) {
      return new DropUser(in.name("a user name", 0));
    }
    if (in.acceptKeyword("error")) {
      in.expectKeyword("class", 0);
      return ErrorClassParser.drop(in);
    }
    throw in.expectedKeywords(
        List.of("connection", "replication", "database", "subscription", "user", "error"), 0);
  }

  // ---------------------------------------------------------------- connections

  private CreateConnection createConnection() throws RclSyntaxException {
    in.expectKeyword("to", 0);
    DbRef at = dbRef(0);
    in.expectKeyword("using", 0);
    in.expectKeyword("profile", 0);
    String profile = in.name("a profile name (postgresql or mariadb)", 0);
    List<Setting> settings = new ArrayList<>();
    int previous = 0;
    while (in.atKeyword("set") || (!settings.isEmpty() && in.atSymbol(','))) {
      if (in.acceptSymbol(',') && !in.atKeyword("set")) {
        throw in.error("'set'", previous, List.of());
      }
      int start = in.index();
      in.next();
      addSetting(
          settings,
          ErrorClassParser.atErrorClassSetting(in)
              ? ErrorClassParser.errorClassSetting(in, start)
              : setting(start));
      previous = start;
    }
    boolean logTransfer = false;
    if (in.atKeyword("with")) {
      int start = in.index();
      in.next();
      in.expectKeyword("log", start);
      in.expectKeyword("transfer", start);
      logTransfer = onOff(start);
    }
    return new CreateConnection(at.dataserver(), at.database(), profile, settings, logTransfer);
  }

  private AlterConnection alterConnection() throws RclSyntaxException {
    in.expectKeyword("to", 0);
    DbRef at = dbRef(0);
    Optional<TableRef> table = Optional.empty();
    if (in.atKeyword("for")) {
      int forAt = in.index();
      in.next();
      in.expectKeyword("replicate", forAt);
      in.expectKeyword("table", forAt);
      in.expectKeyword("named", forAt);
      table = Optional.of(tableRef(forAt, "a replicate table name"));
    }
    List<Setting> settings = new ArrayList<>();
    int previous = 0;
    do {
      int start = in.index();
      in.expectKeyword("set", previous);
      previous = start;
      if (in.atKeyword("log") && in.peek(1).isKeyword("transfer")) {
        Token log = in.next();
        in.next();
        String value = onOff(start) ? "on" : "off";
        addSetting(settings, new Setting(Setting.LOG_TRANSFER, value, log.position()));
      } else if (ErrorClassParser.atErrorClassSetting(in)) {
        addSetting(settings, ErrorClassParser.errorClassSetting(in, start));
      } else {
        addSetting(settings, setting(start));
      }
    } while (in.acceptSymbol(',') || in.atKeyword("set"));
    return new AlterConnection(at.dataserver(), at.database(), table, settings);
  }

  /** After {@code set}: {@code name to value}. */
  private Setting setting(int start) throws RclSyntaxException {
    Token nameToken = in.peek();
    String name = in.name("a parameter name", start);
    in.expectKeyword("to", start);
    return new Setting(name, in.value("a value", start), nameToken.position());
  }

  private void addSetting(List<Setting> settings, Setting setting) throws RclSyntaxException {
    for (Setting s : settings) {
      if (s.name().equals(setting.name())) {
        throw new RclSyntaxException(
            setting.position(),
            "each parameter at most once",
            setting.name(),
            "parameter '"
                + setting.name()
                + "' is set twice (first at position "
                + s.position()
                + ")");
      }
    }
    settings.add(setting);
  }

  private boolean onOff(int context) throws RclSyntaxException {
    if (in.acceptKeyword("on")) {
      return true;
    }
    if (in.acceptKeyword("off")) {
      return false;
    }
    throw in.error("'on' or 'off'", context, List.of());
  }

  // ---------------------------------------------------- replication definitions

  private CreateRepDef createRepDef() throws RclSyntaxException {
    String name = in.name("a replication definition name", 0);
    DbRef primary = withPrimaryAt();
    TableRef primaryTable = null;
    Optional<TableRef> replicateTable = Optional.empty();
    while (in.atKeyword("with")) {
      int start = in.index();
      in.next();
      if (primaryTable == null && replicateTable.isEmpty() && in.acceptKeyword("all")) {
        in.expectKeyword("tables", start);
        in.expectKeyword("named", start);
        primaryTable = tableRef(start);
      } else if (primaryTable == null && replicateTable.isEmpty() && in.acceptKeyword("primary")) {
        in.expectKeyword("table", start);
        in.expectKeyword("named", start);
        primaryTable = tableRef(start);
      } else if (replicateTable.isEmpty() && in.acceptKeyword("replicate")) {
        in.expectKeyword("table", start);
        in.expectKeyword("named", start);
        replicateTable = Optional.of(tableRef(start));
      } else {
        List<String> options =
            primaryTable == null && replicateTable.isEmpty()
                ? List.of("all", "primary", "replicate")
                : List.of("replicate");
        throw in.expectedKeywords(options, start);
      }
    }
    if (primaryTable == null) {
      primaryTable = TableRef.of(name);
    }
    int listStart = in.index();
    in.expectSymbol('(', "'(' and the column list", 0);
    List<ColumnDef> columns = new ArrayList<>();
    do {
      columns.add(columnDef());
    } while (in.acceptSymbol(','));
    in.expectSymbol(')', "',' or ')'", listStart);
    int keyStart = in.index();
    in.expectKeyword("primary", 0);
    in.expectKeyword("key", keyStart);
    List<String> primaryKey = nameList("a column name", keyStart);
    List<String> searchable = List.of();
    if (in.atKeyword("searchable")) {
      int start = in.index();
      in.next();
      in.expectKeyword("columns", start);
      searchable = nameList("a column name", start);
    }
    return new CreateRepDef(
        name,
        primary.dataserver(),
        primary.database(),
        primaryTable,
        replicateTable,
        columns,
        primaryKey,
        searchable);
  }

  private ColumnDef columnDef() throws RclSyntaxException {
    int start = in.index();
    String column = in.name("a column name", start);
    Optional<String> replicateName = Optional.empty();
    if (in.acceptKeyword("as")) {
      replicateName = Optional.of(in.name("the replicate column name", start));
    }
    String type = type("a datatype", start);
    Optional<String> published = Optional.empty();
    if (in.acceptKeyword("map")) {
      in.expectKeyword("to", start);
      published = Optional.of(type("a published datatype", start));
    }
    return new ColumnDef(column, type, replicateName, published);
  }

  /** A datatype: words, one optional argument list, more words ({@code timestamp(3) with ...}). */
  private String type(String what, int context) throws RclSyntaxException {
    StringBuilder type = new StringBuilder();
    boolean arguments = false;
    while (true) {
      Token t = in.peek();
      if ((t.kind() == Kind.IDENT && !RclText.TYPE_STOP_WORDS.contains(t.text()))
          || t.kind() == Kind.QUOTED_IDENT) {
        if (type.length() > 0) {
          type.append(' ');
        }
        type.append(t.text());
        in.next();
      } else if (t.isSymbol('(') && type.length() > 0 && !arguments) {
        int start = in.index();
        in.next();
        List<String> args = new ArrayList<>();
        do {
          Token arg = in.peek();
          if (arg.kind() != Kind.NUMBER && arg.kind() != Kind.IDENT) {
            throw in.error("a datatype length, precision or scale", start, List.of());
          }
          args.add(arg.text());
          in.next();
        } while (in.acceptSymbol(','));
        in.expectSymbol(')', "',' or ')'", start);
        type.append('(').append(String.join(",", args)).append(')');
        arguments = true;
      } else {
        break;
      }
    }
    if (type.length() == 0) {
      throw in.error(what, context, List.of());
    }
    return type.toString();
  }

  private AlterRepDef alterRepDef() throws RclSyntaxException {
    String name = in.name("a replication definition name", 0);
    int start = in.index();
    if (in.acceptKeyword("add")) {
      if (in.atKeyword("searchable") && in.peek(1).isKeyword("columns")) {
        in.next();
        in.next();
        return new AlterRepDef(name, new RepDefChange.AddSearchableColumns(columnNames(start)));
      }
      List<ColumnDef> columns = new ArrayList<>();
      do {
        columns.add(columnDef());
      } while (in.acceptSymbol(','));
      return new AlterRepDef(name, new RepDefChange.AddColumns(columns));
    }
    if (in.acceptKeyword("drop")) {
      in.expectKeyword("searchable", start);
      in.expectKeyword("columns", start);
      return new AlterRepDef(name, new RepDefChange.DropSearchableColumns(columnNames(start)));
    }
    throw in.expectedKeywords(List.of("add", "drop"), 0);
  }

  /** {@code (a, b)} or {@code a, b}. */
  private List<String> columnNames(int context) throws RclSyntaxException {
    if (in.atSymbol('(')) {
      return nameList("a column name", context);
    }
    List<String> names = new ArrayList<>();
    do {
      names.add(in.name("a column name", context));
    } while (in.acceptSymbol(','));
    return names;
  }

  private CreateDatabaseRepDef createDatabaseRepDef() throws RclSyntaxException {
    String name = in.name("a database replication definition name", 0);
    DbRef primary = withPrimaryAt();
    List<String> include = new ArrayList<>();
    List<String> exclude = new ArrayList<>();
    while (in.atKeyword("not") || in.atKeyword("replicate")) {
      int start = in.index();
      boolean not = in.acceptKeyword("not");
      in.expectKeyword("replicate", start);
      in.expectKeyword("tables", start);
      in.expectKeyword("in", start);
      in.expectSymbol('(', "'(' and table name patterns", start);
      List<String> patterns = not ? exclude : include;
      do {
        patterns.add(tablePattern(start));
      } while (in.acceptSymbol(','));
      in.expectSymbol(')', "',' or ')'", start);
    }
    return new CreateDatabaseRepDef(
        name, primary.dataserver(), primary.database(), include, exclude);
  }

  private String tablePattern(int context) throws RclSyntaxException {
    if (in.peek().kind() == Kind.STRING) {
      return in.next().text();
    }
    TableRef t = tableRef(context, "a table name or a quoted pattern such as 's.t%'");
    return t.schema().map(s -> s + ".").orElse("") + t.table();
  }

  // -------------------------------------------------------------- subscriptions

  private CreateSubscription createSubscription() throws RclSyntaxException {
    SubTarget t = subscriptionTarget();
    Optional<WhereClauseText> where = Optional.empty();
    if (in.atKeyword("where")) {
      int start = in.index();
      in.next();
      int first = in.index();
      while (in.peek().kind() != Kind.END
          && !in.atSymbol(';')
          && !((in.atKeyword("without") || in.atKeyword("with"))
              && in.peek(1).isKeyword("materialization"))) {
        checkMaterializationSpelling();
        in.next();
      }
      if (in.index() == first) {
        throw in.error("a condition", start, List.of());
      }
      Token from = in.token(first);
      String text = in.textFrom(first);
      where = Optional.of(new WhereClauseText(text, from.position()));
    }
    Materialization materialization = Materialization.WITHOUT;
    if (in.atKeyword("without") || in.atKeyword("with")) {
      int start = in.index();
      materialization =
          in.next().text().equals("with") ? Materialization.WITH : Materialization.WITHOUT;
      in.expectKeyword("materialization", start);
    }
    return new CreateSubscription(
        t.name(), t.repDef(), t.databaseLevel(), t.ds(), t.db(), where, materialization);
  }

  /**
   * A where clause never contains {@code with} or {@code without}, so {@code with materialisation}
   * there is a misspelt materialization clause, not part of the condition.
   */
  private void checkMaterializationSpelling() throws RclSyntaxException {
    Token word = in.peek(1);
    if ((in.atKeyword("without") || in.atKeyword("with"))
        && word.kind() == Kind.IDENT
        && Suggestions.closest(word.text(), List.of("materialization")).isPresent()) {
      in.next();
      throw in.expectedKeywords(List.of("materialization"), in.index() - 1);
    }
  }

  private CheckSubscription check() throws RclSyntaxException {
    in.next();
    in.expectKeyword("subscription", 0);
    SubTarget t = subscriptionTarget();
    return new CheckSubscription(t.name(), t.repDef(), t.databaseLevel(), t.ds(), t.db());
  }

  private record SubTarget(
      String name, String repDef, boolean databaseLevel, String ds, String db) {}

  /** {@code name for [database replication definition] rd with replicate at ds.db}. */
  private SubTarget subscriptionTarget() throws RclSyntaxException {
    String name = in.name("a subscription name", 0);
    in.expectKeyword("for", 0);
    boolean databaseLevel = false;
    if (in.atKeyword("database") && in.peek(1).isKeyword("replication")) {
      in.next();
      in.next();
      in.expectKeyword("definition", 0);
      databaseLevel = true;
    }
    String repDef = in.name("a replication definition name", 0);
    in.expectKeyword("with", 0);
    in.expectKeyword("replicate", 0);
    in.expectKeyword("at", 0);
    DbRef at = dbRef(0);
    return new SubTarget(name, repDef, databaseLevel, at.dataserver(), at.database());
  }

  // -------------------------------------------------------------- configuration

  private ConfigureServer configure() throws RclSyntaxException {
    in.next();
    in.expectKeyword("replication", 0);
    in.expectKeyword("server", 0);
    int start = in.index();
    in.expectKeyword("set", 0);
    return new ConfigureServer(setting(start));
  }

  // ----------------------------------------------- log transfer, DSI, distributor

  private RclCommand suspend() throws RclSyntaxException {
    in.next();
    if (in.acceptKeyword("log")) {
      in.expectKeyword("transfer", 0);
      in.expectKeyword("from", 0);
      DbRef at = dbRef(0);
      return new SuspendLogTransfer(at.dataserver(), at.database());
    }
    if (in.acceptKeyword("connection")) {
      in.expectKeyword("to", 0);
      DbRef at = dbRef(0);
      return new SuspendConnection(at.dataserver(), at.database());
    }
    throw in.expectedKeywords(List.of("log", "connection"), 0);
  }

  private RclCommand resume() throws RclSyntaxException {
    in.next();
    if (in.acceptKeyword("log")) {
      in.expectKeyword("transfer", 0);
      in.expectKeyword("from", 0);
      DbRef at = dbRef(0);
      return new ResumeLogTransfer(at.dataserver(), at.database());
    }
    if (in.acceptKeyword("connection")) {
      in.expectKeyword("to", 0);
      DbRef at = dbRef(0);
      Optional<ResumeOption> option = Optional.empty();
      int start = in.index();
      if (in.acceptKeyword("skip")) {
        int count = 1;
        if (in.peek().kind() == Kind.NUMBER) {
          count = in.integer("a number of transactions", 1, Integer.MAX_VALUE, start);
        }
        if (!in.acceptKeyword("transaction") && !in.acceptKeyword("transactions")) {
          throw in.error("'transaction'", start, List.of());
        }
        option = Optional.of(new ResumeOption.SkipTransactions(count));
      } else if (in.acceptKeyword("execute")) {
        in.expectKeyword("transaction", start);
        option = Optional.of(new ResumeOption.ExecuteTransaction());
      }
      return new ResumeConnection(at.dataserver(), at.database(), option);
    }
    if (in.acceptKeyword("distributor")) {
      DbRef at = dbRef(0);
      return new ResumeDistributor(at.dataserver(), at.database());
    }
    throw in.expectedKeywords(List.of("log", "connection", "distributor"), 0);
  }

  // ---------------------------------------------------------------------- users

  private CreateUser createUser() throws RclSyntaxException {
    String user = in.name("a user name", 0);
    String password = password();
    Optional<RclRole> role = Optional.empty();
    if (in.atKeyword("with")) {
      int start = in.index();
      in.next();
      in.expectKeyword("role", start);
      role = Optional.of(role(start, true));
    }
    return new CreateUser(user, password, role);
  }

  /** {@code set password [to] value}. */
  private String password() throws RclSyntaxException {
    int start = in.index();
    in.expectKeyword("set", 0);
    in.expectKeyword("password", start);
    if (in.atKeyword("to") && RclCursor.isValue(in.peek(1))) {
      in.next();
    }
    return in.value("a password", start);
  }

  private RclCommand grantOrRevoke() throws RclSyntaxException {
    boolean grant = in.next().text().equals("grant");
    if (in.acceptKeyword("connect")) {
      in.expectKeyword("source", 0);
      Optional<OriginRef> origin = Optional.empty();
      if (in.acceptKeyword("on")) {
        DbRef at = dbRef(0);
        origin = Optional.of(new OriginRef(at.dataserver(), at.database()));
      }
      String user = grantee(grant);
      return grant
          ? new RclCommand.GrantConnectSource(origin, user)
          : new RclCommand.RevokeConnectSource(origin, user);
    }
    if (in.atKeyword("role") && in.peek(1).kind() == Kind.IDENT) {
      in.next();
    }
    RclRole role = role(0, false);
    String user = grantee(grant);
    return grant ? new Grant(role, user) : new Revoke(role, user);
  }

  /** {@code to [user] name} or {@code from [user] name}. */
  private String grantee(boolean grant) throws RclSyntaxException {
    in.expectKeyword(grant ? "to" : "from", 0);
    if (in.atKeyword("user")
        && (in.peek(1).kind() == Kind.IDENT || in.peek(1).kind() == Kind.QUOTED_IDENT)) {
      in.next();
    }
    return in.name("a user name", 0);
  }

  private RclRole role(int context, boolean noneAllowed) throws RclSyntaxException {
    if (in.acceptKeyword("sa") || in.acceptKeyword("admin")) {
      return RclRole.SA;
    }
    if (in.acceptKeyword("monitor")) {
      return RclRole.MONITOR;
    }
    if (noneAllowed && in.acceptKeyword("none")) {
      return RclRole.NONE;
    }
    throw in.expectedKeywords(
        noneAllowed ? List.of("sa", "monitor", "none") : List.of("sa", "monitor", "connect"),
        context);
  }

  // --------------------------------------------------------------- small parts

  private record DbRef(String dataserver, String database) {}

  private DbRef withPrimaryAt() throws RclSyntaxException {
    int start = in.index();
    in.expectKeyword("with", 0);
    in.expectKeyword("primary", start);
    in.expectKeyword("at", start);
    return dbRef(0);
  }

  private DbRef dbRef(int context) throws RclSyntaxException {
    String dataserver = in.name("a dataserver name (<dataserver>.<database>)", context);
    in.expectSymbol('.', "'.' and a database name (<dataserver>.<database>)", context);
    String database = in.name("a database name", context);
    return new DbRef(dataserver, database);
  }

  private TableRef tableRef(int context) throws RclSyntaxException {
    return tableRef(context, "a table name");
  }

  private TableRef tableRef(int context, String what) throws RclSyntaxException {
    String first = tableName(what, context);
    if (in.acceptSymbol('.')) {
      return TableRef.of(first, tableName("a table name", context));
    }
    return TableRef.of(first);
  }

  private String tableName(String what, int context) throws RclSyntaxException {
    Token t = in.peek();
    if (t.kind() == Kind.STRING && !t.text().isEmpty()) {
      in.next();
      return t.text();
    }
    return in.name(what, context);
  }

  /** {@code '(' name {',' name} ')'}. */
  private List<String> nameList(String what, int context) throws RclSyntaxException {
    in.expectSymbol('(', "'('", context);
    List<String> names = new ArrayList<>();
    do {
      names.add(in.name(what, context));
    } while (in.acceptSymbol(','));
    in.expectSymbol(')', "',' or ')'", context);
    return names;
  }

  /** The optional argument of an RSSD procedure: a name or a string. */
  private Optional<String> optionalProcArgument(String what) throws RclSyntaxException {
    in.next();
    Token t = in.peek();
    if (t.kind() == Kind.STRING && !t.text().isEmpty()) {
      in.next();
      return Optional.of(t.text());
    }
    if (t.kind() == Kind.IDENT || t.kind() == Kind.QUOTED_IDENT) {
      return Optional.of(in.name(what, 0));
    }
    return Optional.empty();
  }
}
