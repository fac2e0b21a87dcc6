package io.openrs.repserver.admin.rcl;

import static io.openrs.repserver.admin.rcl.RclText.dbRef;
import static io.openrs.repserver.admin.rcl.RclText.ident;
import static io.openrs.repserver.admin.rcl.RclText.literal;
import static io.openrs.repserver.admin.rcl.RclText.requireName;

import io.openrs.queue.QueueId;
import io.openrs.queue.QueuePosition;
import io.openrs.queue.QueueType;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * One parsed admin command: an immutable record per command form, produced by {@link
 * RclParser#parse(String)}. Records say what was asked, nothing about how it is carried out.
 *
 * <p>Dispatch with {@code switch (command.kind())}, which the compiler checks for exhaustiveness,
 * then cast; or with {@code instanceof} patterns.
 *
 * <p>{@code toString()} of every command is its canonical RCL text with secrets written as {@code
 * '***'}; it parses back to an equal command (apart from the masked secrets and {@link
 * Setting#position()}s), so it is safe to log and fit to show.
 *
 * <p>Names written unquoted are folded to lower case; {@code "quoted"} names are kept exactly.
 * Dataserver and database names come in pairs {@code ds.db}.
 */
public sealed interface RclCommand {

  /** Which command this is; one constant per record. */
  Kind kind();

  /** The tag the wire layer sends in CommandComplete, e.g. {@code CREATE CONNECTION}. */
  default String commandTag() {
    return kind().tag();
  }

  /**
   * True if the command changes the server's state (configuration, RSSD objects, queues, threads,
   * counters) and so needs the administrator role; false for commands that only report, which the
   * monitor role may run.
   */
  default boolean changesState() {
    return kind().changesState();
  }

  /** The command kinds, with their CommandComplete tag. */
  enum Kind {
    CREATE_CONNECTION("CREATE CONNECTION", true),
    ALTER_CONNECTION("ALTER CONNECTION", true),
    DROP_CONNECTION("DROP CONNECTION", true),
    ADMIN_SHOW_CONNECTIONS("ADMIN SHOW_CONNECTIONS", false),
    SUSPEND_LOG_TRANSFER("SUSPEND LOG TRANSFER", true),
    RESUME_LOG_TRANSFER("RESUME LOG TRANSFER", true),
    SUSPEND_CONNECTION("SUSPEND CONNECTION", true),
    RESUME_CONNECTION("RESUME CONNECTION", true),
    RESUME_DISTRIBUTOR("RESUME DISTRIBUTOR", true),
    CREATE_REP_DEF("CREATE REPLICATION DEFINITION", true),
    ALTER_REP_DEF("ALTER REPLICATION DEFINITION", true),
    DROP_REP_DEF("DROP REPLICATION DEFINITION", true),
    CREATE_DATABASE_REP_DEF("CREATE DATABASE REPLICATION DEFINITION", true),
    DROP_DATABASE_REP_DEF("DROP DATABASE REPLICATION DEFINITION", true),
    RS_HELPREP("RS_HELPREP", false),
    CREATE_SUBSCRIPTION("CREATE SUBSCRIPTION", true),
    DROP_SUBSCRIPTION("DROP SUBSCRIPTION", true),
    CHECK_SUBSCRIPTION("CHECK SUBSCRIPTION", false),
    RS_HELPSUB("RS_HELPSUB", false),
    CONFIGURE_SERVER("CONFIGURE REPLICATION SERVER", true),
    ADMIN_CONFIG("ADMIN CONFIG", false),
    ADMIN_WHO("ADMIN WHO", false),
    ADMIN_WHO_IS_DOWN("ADMIN WHO_IS_DOWN", false),
    ADMIN_DISK_SPACE("ADMIN DISK_SPACE", false),
    ADMIN_VERSION("ADMIN VERSION", false),
    ADMIN_HEALTH("ADMIN HEALTH", false),
    ADMIN_ECHO("ADMIN ECHO", false),
    /** {@link AdminStats#changesState()} depends on the action. */
    ADMIN_STATS("ADMIN STATS", false),
    RS_DUMP_STATS("RS_DUMP_STATS", false),
    RS_HELPCOUNTER("RS_HELPCOUNTER", false),
    SYSADMIN_DUMP_QUEUE("SYSADMIN DUMP_QUEUE", false),
    SYSADMIN_PURGE_QUEUE("SYSADMIN SQM_PURGE_QUEUE", true),
    RS_TICKET("RS_TICKET", true),
    ADMIN_TICKET_HISTORY("ADMIN TICKET_HISTORY", false),
    CREATE_ERROR_CLASS("CREATE ERROR CLASS", true),
    ALTER_ERROR_CLASS("ALTER ERROR CLASS", true),
    DROP_ERROR_CLASS("DROP ERROR CLASS", true),
    ASSIGN_ACTION("ASSIGN ACTION", true),
    ADMIN_SHOW_ERROR_CLASS("ADMIN SHOW_ERROR_CLASS", false),
    RS_HELPERROR("RS_HELPERROR", false),
    RS_HELPEXCEPTION("RS_HELPEXCEPTION", false),
    RS_DELEXCEPTION("RS_DELEXCEPTION", true),
    CREATE_USER("CREATE USER", true),
    ALTER_USER_PASSWORD("ALTER USER", true),
    DROP_USER("DROP USER", true),
    GRANT("GRANT", true),
    REVOKE("REVOKE", true),
    SHUTDOWN("SHUTDOWN", true);

    private final String tag;
    private final boolean changesState;

    Kind(String tag, boolean changesState) {
      this.tag = tag;
      this.changesState = changesState;
    }

    /** The CommandComplete tag. */
    public String tag() {
      return tag;
    }

    /** See {@link RclCommand#changesState()}. */
    public boolean changesState() {
      return changesState;
    }
  }

  // ---------------------------------------------------------------- connections

  /**
   * {@code create connection to ds.db using profile <profile> set p to 'v' [, set ...] [with log
   * transfer on]}.
   *
   * @param profile the dialect profile, e.g. {@code postgresql} or {@code mariadb}
   * @param settings {@code server}, {@code port}, {@code user}, {@code password} and any connection
   *     parameter, in the order written, each name at most once
   * @param logTransfer {@code with log transfer on}: the connection also accepts a replication
   *     agent (it gets an inbound queue)
   */
  record CreateConnection(
      String dataserver,
      String database,
      String profile,
      List<Setting> settings,
      boolean logTransfer)
      implements RclCommand {
    public CreateConnection {
      requireName(dataserver, "dataserver");
      requireName(database, "database");
      requireName(profile, "profile");
      settings = List.copyOf(settings);
    }

    /** The value of a setting, if it was given. */
    public Optional<String> setting(String name) {
      return settings.stream().filter(s -> s.name().equals(name)).map(Setting::value).findFirst();
    }

    @Override
    public Kind kind() {
      return Kind.CREATE_CONNECTION;
    }

    @Override
    public String toString() {
      return "create connection to "
          + dbRef(dataserver, database)
          + " using profile "
          + ident(profile)
          + (settings.isEmpty() ? "" : " " + RclText.join(settings))
          + (logTransfer ? " with log transfer on" : "");
    }
  }

  /**
   * {@code alter connection to ds.db [for replicate table named t] set p to 'v' [, set ...]};
   * {@code set log transfer on|off} gives a setting named {@link Setting#LOG_TRANSFER} with value
   * {@code on} or {@code off}. With a replicate table the settings are that table's (Replication
   * Server's table-level values, for {@code dsi_compile_enable} and {@code dsi_command_convert}).
   */
  record AlterConnection(
      String dataserver, String database, Optional<TableRef> replicateTable, List<Setting> settings)
      implements RclCommand {
    public AlterConnection {
      requireName(dataserver, "dataserver");
      requireName(database, "database");
      Objects.requireNonNull(replicateTable, "replicateTable");
      settings = RclText.nonEmptyCopy(settings, "settings");
    }

    /** The connection-level form, without {@code for replicate table named}. */
    public AlterConnection(String dataserver, String database, List<Setting> settings) {
      this(dataserver, database, Optional.empty(), settings);
    }

    @Override
    public Kind kind() {
      return Kind.ALTER_CONNECTION;
    }

    @Override
    public String toString() {
      StringBuilder b =
          new StringBuilder("alter connection to ").append(dbRef(dataserver, database));
      replicateTable.ifPresent(t -> b.append(" for replicate table named ").append(t));
      String sep = " ";
      for (Setting s : settings) {
        b.append(sep);
        sep = ", ";
        if (s.name().equals(Setting.LOG_TRANSFER)
            && (s.value().equals("on") || s.value().equals("off"))) {
          b.append("set log transfer ").append(s.value());
        } else {
          b.append(s);
        }
      }
      return b.toString();
    }
  }

  /** {@code drop connection to ds.db}. */
  record DropConnection(String dataserver, String database) implements RclCommand {
    public DropConnection {
      requireName(dataserver, "dataserver");
      requireName(database, "database");
    }

    @Override
    public Kind kind() {
      return Kind.DROP_CONNECTION;
    }

    @Override
    public String toString() {
      return "drop connection to " + dbRef(dataserver, database);
    }
  }

  /** {@code admin show_connections}. */
  record AdminShowConnections() implements RclCommand {
    @Override
    public Kind kind() {
      return Kind.ADMIN_SHOW_CONNECTIONS;
    }

    @Override
    public String toString() {
      return "admin show_connections";
    }
  }

  // ------------------------------------------------- log transfer, DSI, distributor

  /** {@code suspend log transfer from ds.db}: disconnect the agent and refuse it until resumed. */
  record SuspendLogTransfer(String dataserver, String database) implements RclCommand {
    public SuspendLogTransfer {
      requireName(dataserver, "dataserver");
      requireName(database, "database");
    }

    @Override
    public Kind kind() {
      return Kind.SUSPEND_LOG_TRANSFER;
    }

    @Override
    public String toString() {
      return "suspend log transfer from " + dbRef(dataserver, database);
    }
  }

  /** {@code resume log transfer from ds.db}. */
  record ResumeLogTransfer(String dataserver, String database) implements RclCommand {
    public ResumeLogTransfer {
      requireName(dataserver, "dataserver");
      requireName(database, "database");
    }

    @Override
    public Kind kind() {
      return Kind.RESUME_LOG_TRANSFER;
    }

    @Override
    public String toString() {
      return "resume log transfer from " + dbRef(dataserver, database);
    }
  }

  /** {@code suspend connection to ds.db}: stop the DSI after the current transaction. */
  record SuspendConnection(String dataserver, String database) implements RclCommand {
    public SuspendConnection {
      requireName(dataserver, "dataserver");
      requireName(database, "database");
    }

    @Override
    public Kind kind() {
      return Kind.SUSPEND_CONNECTION;
    }

    @Override
    public String toString() {
      return "suspend connection to " + dbRef(dataserver, database);
    }
  }

  /** {@code resume connection to ds.db [skip [n] transaction | execute transaction]}. */
  record ResumeConnection(String dataserver, String database, Optional<ResumeOption> option)
      implements RclCommand {
    public ResumeConnection {
      requireName(dataserver, "dataserver");
      requireName(database, "database");
      Objects.requireNonNull(option, "option");
    }

    @Override
    public Kind kind() {
      return Kind.RESUME_CONNECTION;
    }

    @Override
    public String toString() {
      return "resume connection to "
          + dbRef(dataserver, database)
          + option.map(o -> " " + o).orElse("");
    }
  }

  /**
   * {@code resume distributor ds.db}: restart a DIST that stopped on a message it could not send.
   */
  record ResumeDistributor(String dataserver, String database) implements RclCommand {
    public ResumeDistributor {
      requireName(dataserver, "dataserver");
      requireName(database, "database");
    }

    @Override
    public Kind kind() {
      return Kind.RESUME_DISTRIBUTOR;
    }

    @Override
    public String toString() {
      return "resume distributor " + dbRef(dataserver, database);
    }
  }

  // ---------------------------------------------------- replication definitions

  /**
   * {@code create replication definition <name> with primary at ds.db [with all tables named t |
   * with primary table named t] [with replicate table named t2] (col [as rcol] type [map to type],
   * ...) primary key (c, ...) [searchable columns (c, ...)]}.
   *
   * @param primaryTable the table at the primary; when no table clause is written it is the
   *     replication definition's name, as in Replication Server
   * @param replicateTable the table at the replicates when it differs ({@code with replicate table
   *     named})
   */
  record CreateRepDef(
      String name,
      String primaryDataserver,
      String primaryDatabase,
      TableRef primaryTable,
      Optional<TableRef> replicateTable,
      List<ColumnDef> columns,
      List<String> primaryKey,
      List<String> searchableColumns)
      implements RclCommand {
    public CreateRepDef {
      requireName(name, "name");
      requireName(primaryDataserver, "primaryDataserver");
      requireName(primaryDatabase, "primaryDatabase");
      Objects.requireNonNull(primaryTable, "primaryTable");
      Objects.requireNonNull(replicateTable, "replicateTable");
      columns = RclText.nonEmptyCopy(columns, "columns");
      primaryKey = RclText.nonEmptyCopy(primaryKey, "primaryKey");
      searchableColumns = List.copyOf(searchableColumns);
    }

    @Override
    public Kind kind() {
      return Kind.CREATE_REP_DEF;
    }

    @Override
    public String toString() {
      return "create replication definition "
          + ident(name)
          + " with primary at "
          + dbRef(primaryDataserver, primaryDatabase)
          + replicateTable
              .map(
                  r ->
                      " with primary table named "
                          + primaryTable
                          + " with replicate table named "
                          + r)
              .orElse(" with all tables named " + primaryTable)
          + " ("
          + RclText.join(columns)
          + ") primary key "
          + RclText.names(primaryKey)
          + (searchableColumns.isEmpty()
              ? ""
              : " searchable columns " + RclText.names(searchableColumns));
    }
  }

  /** {@code alter replication definition <name> {add ... | add/drop searchable columns (...)}}. */
  record AlterRepDef(String name, RepDefChange change) implements RclCommand {
    public AlterRepDef {
      requireName(name, "name");
      Objects.requireNonNull(change, "change");
    }

    @Override
    public Kind kind() {
      return Kind.ALTER_REP_DEF;
    }

    @Override
    public String toString() {
      return "alter replication definition " + ident(name) + " " + change;
    }
  }

  /** {@code drop replication definition <name>}. */
  record DropRepDef(String name) implements RclCommand {
    public DropRepDef {
      requireName(name, "name");
    }

    @Override
    public Kind kind() {
      return Kind.DROP_REP_DEF;
    }

    @Override
    public String toString() {
      return "drop replication definition " + ident(name);
    }
  }

  /**
   * {@code create database replication definition <name> with primary at ds.db [[not] replicate
   * tables in ('s.t%', ...)] ...}.
   *
   * @param includeTables patterns of {@code replicate tables in (...)}; empty means every table
   * @param excludeTables patterns of {@code not replicate tables in (...)}
   */
  record CreateDatabaseRepDef(
      String name,
      String primaryDataserver,
      String primaryDatabase,
      List<String> includeTables,
      List<String> excludeTables)
      implements RclCommand {
    public CreateDatabaseRepDef {
      requireName(name, "name");
      requireName(primaryDataserver, "primaryDataserver");
      requireName(primaryDatabase, "primaryDatabase");
      includeTables = List.copyOf(includeTables);
      excludeTables = List.copyOf(excludeTables);
    }

    @Override
    public Kind kind() {
      return Kind.CREATE_DATABASE_REP_DEF;
    }

    @Override
    public String toString() {
      return "create database replication definition "
          + ident(name)
          + " with primary at "
          + dbRef(primaryDataserver, primaryDatabase)
          + (includeTables.isEmpty()
              ? ""
              : " replicate tables in " + RclText.literals(includeTables))
          + (excludeTables.isEmpty()
              ? ""
              : " not replicate tables in " + RclText.literals(excludeTables));
    }
  }

  /** {@code drop database replication definition <name>}. */
  record DropDatabaseRepDef(String name) implements RclCommand {
    public DropDatabaseRepDef {
      requireName(name, "name");
    }

    @Override
    public Kind kind() {
      return Kind.DROP_DATABASE_REP_DEF;
    }

    @Override
    public String toString() {
      return "drop database replication definition " + ident(name);
    }
  }

  /** {@code rs_helprep [name]}. */
  record RsHelpRep(Optional<String> name) implements RclCommand {
    public RsHelpRep {
      Objects.requireNonNull(name, "name");
    }

    @Override
    public Kind kind() {
      return Kind.RS_HELPREP;
    }

    @Override
    public String toString() {
      return "rs_helprep" + name.map(n -> " " + ident(n)).orElse("");
    }
  }

  // -------------------------------------------------------------- subscriptions

  /**
   * {@code create subscription <name> for [database replication definition] <repdef> with replicate
   * at ds.db [where <clause>] [without materialization | with materialization]}.
   *
   * @param databaseLevel {@code for database replication definition}
   * @param where the where clause as text, parsed later by the server
   * @param materialization {@link Materialization#WITHOUT} when not written
   */
  record CreateSubscription(
      String name,
      String repDefName,
      boolean databaseLevel,
      String dataserver,
      String database,
      Optional<WhereClauseText> where,
      Materialization materialization)
      implements RclCommand {
    public CreateSubscription {
      requireName(name, "name");
      requireName(repDefName, "repDefName");
      requireName(dataserver, "dataserver");
      requireName(database, "database");
      Objects.requireNonNull(where, "where");
      Objects.requireNonNull(materialization, "materialization");
    }

    @Override
    public Kind kind() {
      return Kind.CREATE_SUBSCRIPTION;
    }

    @Override
    public String toString() {
      return "create subscription "
          + subscriptionTarget(name, repDefName, databaseLevel, dataserver, database)
          + where.map(w -> " where " + w.text()).orElse("")
          + " "
          + materialization.rcl();
    }
  }

  /**
   * {@code drop subscription <name> for [database replication definition] <repdef> with replicate
   * at ds.db}.
   */
  record DropSubscription(
      String name, String repDefName, boolean databaseLevel, String dataserver, String database)
      implements RclCommand {
    public DropSubscription {
      requireName(name, "name");
      requireName(repDefName, "repDefName");
      requireName(dataserver, "dataserver");
      requireName(database, "database");
    }

    @Override
    public Kind kind() {
      return Kind.DROP_SUBSCRIPTION;
    }

    @Override
    public String toString() {
      return "drop subscription "
          + subscriptionTarget(name, repDefName, databaseLevel, dataserver, database);
    }
  }

  /**
   * {@code check subscription <name> for [database replication definition] <repdef> with replicate
   * at ds.db}.
   */
  record CheckSubscription(
      String name, String repDefName, boolean databaseLevel, String dataserver, String database)
      implements RclCommand {
    public CheckSubscription {
      requireName(name, "name");
      requireName(repDefName, "repDefName");
      requireName(dataserver, "dataserver");
      requireName(database, "database");
    }

    @Override
    public Kind kind() {
      return Kind.CHECK_SUBSCRIPTION;
    }

    @Override
    public String toString() {
      return "check subscription "
          + subscriptionTarget(name, repDefName, databaseLevel, dataserver, database);
    }
  }

  /** {@code rs_helpsub [name]}. */
  record RsHelpSub(Optional<String> name) implements RclCommand {
    public RsHelpSub {
      Objects.requireNonNull(name, "name");
    }

    @Override
    public Kind kind() {
      return Kind.RS_HELPSUB;
    }

    @Override
    public String toString() {
      return "rs_helpsub" + name.map(n -> " " + ident(n)).orElse("");
    }
  }

  // ------------------------------------------------------------- configuration

  /** {@code configure replication server set <parameter> to '<value>'}. */
  record ConfigureServer(Setting setting) implements RclCommand {
    public ConfigureServer {
      Objects.requireNonNull(setting, "setting");
    }

    /** The parameter name. */
    public String parameter() {
      return setting.name();
    }

    /** The value as written. */
    public String value() {
      return setting.value();
    }

    @Override
    public Kind kind() {
      return Kind.CONFIGURE_SERVER;
    }

    @Override
    public String toString() {
      return "configure replication server " + setting;
    }
  }

  /** {@code admin config [, <parameter>]}: value, default, range and when a change takes effect. */
  record AdminConfig(Optional<String> parameter) implements RclCommand {
    public AdminConfig {
      Objects.requireNonNull(parameter, "parameter");
    }

    @Override
    public Kind kind() {
      return Kind.ADMIN_CONFIG;
    }

    @Override
    public String toString() {
      return "admin config" + parameter.map(p -> ", " + ident(p)).orElse("");
    }
  }

  // ------------------------------------------------------------------- status

  /**
   * {@code admin who [, <module>]}.
   *
   * @param module lower case, as written: {@code sqm}, {@code sqt}, {@code dist}, {@code dsi}, ...;
   *     the executor checks it
   */
  record AdminWho(Optional<String> module) implements RclCommand {
    public AdminWho {
      Objects.requireNonNull(module, "module");
    }

    @Override
    public Kind kind() {
      return Kind.ADMIN_WHO;
    }

    @Override
    public String toString() {
      return "admin who" + module.map(m -> ", " + ident(m)).orElse("");
    }
  }

  /** {@code admin who_is_down}. */
  record AdminWhoIsDown() implements RclCommand {
    @Override
    public Kind kind() {
      return Kind.ADMIN_WHO_IS_DOWN;
    }

    @Override
    public String toString() {
      return "admin who_is_down";
    }
  }

  /** {@code admin disk_space}. */
  record AdminDiskSpace() implements RclCommand {
    @Override
    public Kind kind() {
      return Kind.ADMIN_DISK_SPACE;
    }

    @Override
    public String toString() {
      return "admin disk_space";
    }
  }

  /** {@code admin version}. */
  record AdminVersion() implements RclCommand {
    @Override
    public Kind kind() {
      return Kind.ADMIN_VERSION;
    }

    @Override
    public String toString() {
      return "admin version";
    }
  }

  /** {@code admin health}. */
  record AdminHealth() implements RclCommand {
    @Override
    public Kind kind() {
      return Kind.ADMIN_HEALTH;
    }

    @Override
    public String toString() {
      return "admin health";
    }
  }

  /**
   * {@code admin echo [[,] '<text>']}.
   *
   * @param text the text to send back; empty when none was written
   */
  record AdminEcho(String text) implements RclCommand {
    public AdminEcho {
      Objects.requireNonNull(text, "text");
    }

    @Override
    public Kind kind() {
      return Kind.ADMIN_ECHO;
    }

    @Override
    public String toString() {
      return text.isEmpty() ? "admin echo" : "admin echo, " + literal(text);
    }
  }

  /**
   * {@code admin stats} in its forms:
   *
   * <ul>
   *   <li>{@code admin stats[, "all" | <module> [, inbound | outbound] [, <instance>]]} → {@link
   *       StatsAction#SHOW}; no module means the curated (sysmon) set;
   *   <li>{@code ..., display[, <obs seconds>]} → {@link StatsAction#SHOW} with {@code
   *       observationSeconds};
   *   <li>{@code ..., save[, <obs seconds>[, <seconds> | "hh:mm[:ss]"]]} → {@link
   *       StatsAction#SAVE};
   *   <li>{@code admin stats, backlog | tps | cps | bps | reset | status} → that action, nothing
   *       else set.
   * </ul>
   *
   * {@code admin statistics} is the same command.
   *
   * @param module lower case: {@code all}, {@code sysmon}, {@code sqm}, {@code dsi}, ...
   * @param queueType {@code inbound} / {@code outbound}, for queue modules
   * @param instance instance id as written: a number ({@code 101}), {@code ds.db}, or a string
   * @param observationSeconds observation interval, {@code >= 1}
   * @param periodSeconds sample period of {@code save}, {@code >= 1}
   */
  record AdminStats(
      StatsAction action,
      Optional<String> module,
      Optional<QueueType> queueType,
      Optional<String> instance,
      OptionalInt observationSeconds,
      OptionalInt periodSeconds)
      implements RclCommand {
    public AdminStats {
      Objects.requireNonNull(action, "action");
      Objects.requireNonNull(module, "module");
      Objects.requireNonNull(queueType, "queueType");
      Objects.requireNonNull(instance, "instance");
      Objects.requireNonNull(observationSeconds, "observationSeconds");
      Objects.requireNonNull(periodSeconds, "periodSeconds");
      if (action.standalone()
          && (module.isPresent()
              || queueType.isPresent()
              || instance.isPresent()
              || observationSeconds.isPresent()
              || periodSeconds.isPresent())) {
        throw new IllegalArgumentException(
            "admin stats, " + action.keyword() + " takes no options");
      }
      if (module.isEmpty() && (queueType.isPresent() || instance.isPresent())) {
        throw new IllegalArgumentException("queue type and instance need a module");
      }
      if (periodSeconds.isPresent()
          && (action != StatsAction.SAVE || observationSeconds.isEmpty())) {
        throw new IllegalArgumentException(
            "a sample period needs save and an observation interval");
      }
    }

    /** A plain {@code admin stats, <action>} for the standalone actions. */
    public static AdminStats of(StatsAction action) {
      return new AdminStats(
          action,
          Optional.empty(),
          Optional.empty(),
          Optional.empty(),
          OptionalInt.empty(),
          OptionalInt.empty());
    }

    /** {@code reset} and {@code save} change state; the reports do not. */
    @Override
    public boolean changesState() {
      return action == StatsAction.RESET || action == StatsAction.SAVE;
    }

    @Override
    public Kind kind() {
      return Kind.ADMIN_STATS;
    }

    @Override
    public String toString() {
      StringBuilder b = new StringBuilder("admin stats");
      if (action.standalone()) {
        return b.append(", ").append(action.keyword()).toString();
      }
      module.ifPresent(m -> b.append(", ").append(readsAsKeyword(m) ? '"' + m + '"' : ident(m)));
      queueType.ifPresent(q -> b.append(q == QueueType.INBOUND ? ", inbound" : ", outbound"));
      instance.ifPresent(i -> b.append(", ").append(i.matches("-?[0-9]+") ? i : literal(i)));
      if (action == StatsAction.SAVE) {
        b.append(", save");
      } else if (observationSeconds.isPresent()) {
        b.append(", display");
      }
      observationSeconds.ifPresent(s -> b.append(", ").append(s));
      periodSeconds.ifPresent(s -> b.append(", ").append(s));
      return b.toString();
    }

    /**
     * Whether a module name, written bare right after {@code admin stats,}, would read as a keyword
     * there ({@code all}, {@code display}, {@code save} or an action such as {@code reset}), so
     * that it must be printed double-quoted to parse back as a module name.
     */
    private static boolean readsAsKeyword(String module) {
      return module.equals("all")
          || module.equals("display")
          || Arrays.stream(StatsAction.values()).anyMatch(a -> a.keyword().equals(module));
    }
  }

  /** {@code rs_dump_stats}: the samples saved by {@code admin stats, ..., save}, as CSV. */
  record RsDumpStats() implements RclCommand {
    @Override
    public Kind kind() {
      return Kind.RS_DUMP_STATS;
    }

    @Override
    public String toString() {
      return "rs_dump_stats";
    }
  }

  /** {@code rs_helpcounter [<module> | <counter name>]}. */
  record RsHelpCounter(Optional<String> moduleOrName) implements RclCommand {
    public RsHelpCounter {
      Objects.requireNonNull(moduleOrName, "moduleOrName");
    }

    @Override
    public Kind kind() {
      return Kind.RS_HELPCOUNTER;
    }

    @Override
    public String toString() {
      return "rs_helpcounter" + moduleOrName.map(n -> " " + ident(n)).orElse("");
    }
  }

  // -------------------------------------------------------------------- queues

  /**
   * {@code sysadmin dump_queue, <q_number>, <q_type>[, <first>[, <count>]]}: queued commands as LTL
   * text.
   *
   * @param first where to start, written {@code seg}, {@code seg.blk} or {@code seg.blk.row}
   *     (missing parts are 0); empty means the oldest message held
   * @param count how many messages, {@code >= 1}; empty means the executor's default
   */
  record SysadminDumpQueue(QueueId queue, Optional<QueuePosition> first, OptionalInt count)
      implements RclCommand {
    public SysadminDumpQueue {
      Objects.requireNonNull(queue, "queue");
      Objects.requireNonNull(first, "first");
      Objects.requireNonNull(count, "count");
      if (count.isPresent() && (count.getAsInt() < 1 || first.isEmpty())) {
        throw new IllegalArgumentException("count must be >= 1 and needs a first position");
      }
    }

    @Override
    public Kind kind() {
      return Kind.SYSADMIN_DUMP_QUEUE;
    }

    @Override
    public String toString() {
      return "sysadmin dump_queue, "
          + queue.number()
          + ", "
          + queue.type().code()
          + first.map(f -> ", " + f).orElse("")
          + (count.isPresent() ? ", " + count.getAsInt() : "");
    }
  }

  /**
   * {@code sysadmin sqm_purge_queue, <q_number>, <q_type>}: delete every message of a queue whose
   * readers are suspended.
   */
  record SysadminPurgeQueue(QueueId queue) implements RclCommand {
    public SysadminPurgeQueue {
      Objects.requireNonNull(queue, "queue");
    }

    @Override
    public Kind kind() {
      return Kind.SYSADMIN_PURGE_QUEUE;
    }

    @Override
    public String toString() {
      return "sysadmin sqm_purge_queue, " + queue.number() + ", " + queue.type().code();
    }
  }

  // ------------------------------------------------------------------ rs_ticket

  /**
   * {@code rs_ticket ['h1'[, 'h2'[, 'h3'[, 'h4']]]]}: a latency probe through the pipeline.
   *
   * @param headers up to 4; h1 to h3 at most 10 characters, h4 at most 50
   */
  record RsTicket(List<String> headers) implements RclCommand {
    /** How many headers a ticket has at most. */
    public static final int MAX_HEADERS = 4;

    public RsTicket {
      headers = List.copyOf(headers);
      if (headers.size() > MAX_HEADERS) {
        throw new IllegalArgumentException("at most 4 headers, got " + headers.size());
      }
      for (int i = 0; i < headers.size(); i++) {
        if (headers.get(i).length() > maxHeaderLength(i + 1)) {
          throw new IllegalArgumentException(
              "header " + (i + 1) + " longer than " + maxHeaderLength(i + 1) + " characters");
        }
      }
    }

    /** The longest header {@code h<n>} may be: 10 characters for h1 to h3, 50 for h4. */
    public static int maxHeaderLength(int n) {
      return n == MAX_HEADERS ? 50 : 10;
    }

    @Override
    public Kind kind() {
      return Kind.RS_TICKET;
    }

    @Override
    public String toString() {
      StringBuilder b = new StringBuilder("rs_ticket");
      for (int i = 0; i < headers.size(); i++) {
        b.append(i == 0 ? " " : ", ").append(literal(headers.get(i)));
      }
      return b.toString();
    }
  }

  /** {@code admin ticket_history [, <limit>]}: the latest tickets, each module's time stamp. */
  record AdminTicketHistory(OptionalInt limit) implements RclCommand {
    public AdminTicketHistory {
      Objects.requireNonNull(limit, "limit");
      if (limit.isPresent() && limit.getAsInt() < 1) {
        throw new IllegalArgumentException("limit must be >= 1, got " + limit.getAsInt());
      }
    }

    @Override
    public Kind kind() {
      return Kind.ADMIN_TICKET_HISTORY;
    }

    @Override
    public String toString() {
      return "admin ticket_history" + (limit.isPresent() ? ", " + limit.getAsInt() : "");
    }
  }

  // ------------------------------------------------- error classes, exceptions log

  /** {@code create error class <name> [set template to <template>]}. */
  record CreateErrorClass(String name, Optional<String> template) implements RclCommand {
    public CreateErrorClass {
      requireName(name, "name");
      Objects.requireNonNull(template, "template");
    }

    @Override
    public Kind kind() {
      return Kind.CREATE_ERROR_CLASS;
    }

    @Override
    public String toString() {
      return "create error class "
          + ident(name)
          + template.map(t -> " set template to " + ident(t)).orElse("");
    }
  }

  /**
   * {@code alter error class <name> set template to <template>}: copies the template's actions over
   * the class's.
   */
  record AlterErrorClass(String name, String template) implements RclCommand {
    public AlterErrorClass {
      requireName(name, "name");
      requireName(template, "template");
    }

    @Override
    public Kind kind() {
      return Kind.ALTER_ERROR_CLASS;
    }

    @Override
    public String toString() {
      return "alter error class " + ident(name) + " set template to " + ident(template);
    }
  }

  /** {@code drop error class <name>}. */
  record DropErrorClass(String name) implements RclCommand {
    public DropErrorClass {
      requireName(name, "name");
    }

    @Override
    public Kind kind() {
      return Kind.DROP_ERROR_CLASS;
    }

    @Override
    public String toString() {
      return "drop error class " + ident(name);
    }
  }

  /**
   * {@code assign action <action> for <class> to <code> [, <code> ...]}.
   *
   * @param codes error codes as the database reports them, checked for shape by the parser and
   *     upper-cased: a vendor error number ({@code 1062}), a SQLSTATE ({@code 23505}) or a SQLSTATE
   *     class ({@code 23}); each at most once
   */
  record AssignAction(RclErrorAction action, String errorClass, List<String> codes)
      implements RclCommand {
    public AssignAction {
      Objects.requireNonNull(action, "action");
      requireName(errorClass, "errorClass");
      codes = RclText.nonEmptyCopy(codes, "codes");
    }

    @Override
    public Kind kind() {
      return Kind.ASSIGN_ACTION;
    }

    @Override
    public String toString() {
      return "assign action "
          + action.rcl()
          + " for "
          + ident(errorClass)
          + " to "
          + RclText.join(codes.stream().map(RclText::literal).toList());
    }
  }

  /** {@code admin show_error_class [[,] <class>]}: the classes' error actions. */
  record AdminShowErrorClass(Optional<String> name) implements RclCommand {
    public AdminShowErrorClass {
      Objects.requireNonNull(name, "name");
    }

    @Override
    public Kind kind() {
      return Kind.ADMIN_SHOW_ERROR_CLASS;
    }

    @Override
    public String toString() {
      return "admin show_error_class" + name.map(n -> ", " + ident(n)).orElse("");
    }
  }

  /**
   * {@code rs_helperror <code> [, <ds>.<db>]}: which action an error code gets, in every class or
   * at one connection.
   *
   * @param code as in {@link AssignAction#codes()}
   * @param dataserver with {@code database}: the connection, both or neither
   */
  record RsHelpError(String code, Optional<String> dataserver, Optional<String> database)
      implements RclCommand {
    public RsHelpError {
      requireName(code, "code");
      Objects.requireNonNull(dataserver, "dataserver");
      Objects.requireNonNull(database, "database");
      if (dataserver.isPresent() != database.isPresent()) {
        throw new IllegalArgumentException("a connection needs a dataserver and a database");
      }
    }

    @Override
    public Kind kind() {
      return Kind.RS_HELPERROR;
    }

    @Override
    public String toString() {
      return "rs_helperror "
          + literal(code)
          + (dataserver.isPresent() ? ", " + dbRef(dataserver.get(), database.get()) : "");
    }
  }

  /**
   * {@code rs_helpexception [<id> [, v]]}: the exceptions log, or one logged transaction ({@code
   * v}: with its commands).
   */
  record RsHelpException(OptionalLong id, boolean verbose) implements RclCommand {
    public RsHelpException {
      Objects.requireNonNull(id, "id");
      if (verbose && id.isEmpty()) {
        throw new IllegalArgumentException("v needs an id");
      }
    }

    @Override
    public Kind kind() {
      return Kind.RS_HELPEXCEPTION;
    }

    @Override
    public String toString() {
      return "rs_helpexception"
          + (id.isPresent() ? " " + id.getAsLong() : "")
          + (verbose ? ", v" : "");
    }
  }

  /**
   * {@code rs_delexception <id>} or {@code rs_delexception_id <first> [, <last>]}: delete logged
   * transactions by id.
   */
  record RsDelException(long first, long last) implements RclCommand {
    public RsDelException {
      if (first < 1 || last < first) {
        throw new IllegalArgumentException(
            "ids must be >= 1 and first <= last, got " + first + ", " + last);
      }
    }

    @Override
    public Kind kind() {
      return Kind.RS_DELEXCEPTION;
    }

    @Override
    public String toString() {
      return first == last
          ? "rs_delexception " + first
          : "rs_delexception_id " + first + ", " + last;
    }
  }

  // -------------------------------------------------------------------- users

  /**
   * {@code create user <name> set password [to] '<password>' [with role {sa | monitor}]}.
   *
   * @param password in clear, as typed; {@code toString()} masks it
   * @param role a role to grant at once
   */
  record CreateUser(String name, String password, Optional<RclRole> role) implements RclCommand {
    public CreateUser {
      requireName(name, "name");
      Objects.requireNonNull(password, "password");
      Objects.requireNonNull(role, "role");
    }

    @Override
    public Kind kind() {
      return Kind.CREATE_USER;
    }

    @Override
    public String toString() {
      return "create user "
          + ident(name)
          + " set password "
          + literal(Setting.MASK)
          + role.map(r -> " with role " + r.rcl()).orElse("");
    }
  }

  /** {@code alter user <name> set password [to] '<password>'}; {@code toString()} masks it. */
  record AlterUserPassword(String name, String password) implements RclCommand {
    public AlterUserPassword {
      requireName(name, "name");
      Objects.requireNonNull(password, "password");
    }

    @Override
    public Kind kind() {
      return Kind.ALTER_USER_PASSWORD;
    }

    @Override
    public String toString() {
      return "alter user " + ident(name) + " set password " + literal(Setting.MASK);
    }
  }

  /** {@code drop user <name>}. */
  record DropUser(String name) implements RclCommand {
    public DropUser {
      requireName(name, "name");
    }

    @Override
    public Kind kind() {
      return Kind.DROP_USER;
    }

    @Override
    public String toString() {
      return "drop user " + ident(name);
    }
  }

  /** {@code grant [role] {sa | admin | monitor} to [user] <user>}. */
  record Grant(RclRole role, String user) implements RclCommand {
    public Grant {
      Objects.requireNonNull(role, "role");
      requireName(user, "user");
    }

    @Override
    public Kind kind() {
      return Kind.GRANT;
    }

    @Override
    public String toString() {
      return "grant " + role.rcl() + " to " + ident(user);
    }
  }

  /** {@code revoke [role] {sa | admin | monitor} from [user] <user>}. */
  record Revoke(RclRole role, String user) implements RclCommand {
    public Revoke {
      Objects.requireNonNull(role, "role");
      requireName(user, "user");
    }

    @Override
    public Kind kind() {
      return Kind.REVOKE;
    }

    @Override
    public String toString() {
      return "revoke " + role.rcl() + " from " + ident(user);
    }
  }

  /** {@code shutdown}. */
  record Shutdown() implements RclCommand {
    @Override
    public Kind kind() {
      return Kind.SHUTDOWN;
    }

    @Override
    public String toString() {
      return "shutdown";
    }
  }

  private static String subscriptionTarget(
      String name, String repDefName, boolean databaseLevel, String dataserver, String database) {
    return ident(name)
        + " for "
        + (databaseLevel ? "database replication definition " : "")
        + ident(repDefName)
        + " with replicate at "
        + dbRef(dataserver, database);
  }
}
