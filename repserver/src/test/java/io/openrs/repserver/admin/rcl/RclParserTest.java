package io.openrs.repserver.admin.rcl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.openrs.queue.QueueId;
import io.openrs.queue.QueuePosition;
import io.openrs.queue.QueueType;
import io.openrs.repserver.admin.rcl.RclCommand.AdminConfig;
import io.openrs.repserver.admin.rcl.RclCommand.AdminDiskSpace;
import io.openrs.repserver.admin.rcl.RclCommand.AdminEcho;
import io.openrs.repserver.admin.rcl.RclCommand.AdminHealth;
import io.openrs.repserver.admin.rcl.RclCommand.AdminShowConnections;
import io.openrs.repserver.admin.rcl.RclCommand.AdminShowErrorClass;
import io.openrs.repserver.admin.rcl.RclCommand.AdminStats;
import io.openrs.repserver.admin.rcl.RclCommand.AdminTicketHistory;
import io.openrs.repserver.admin.rcl.RclCommand.AdminVersion;
import io.openrs.repserver.admin.rcl.RclCommand.AdminWho;
import io.openrs.repserver.admin.rcl.RclCommand.AdminWhoIsDown;
import io.openrs.repserver.admin.rcl.RclCommand.AlterConnection;
import io.openrs.repserver.admin.rcl.RclCommand.AlterErrorClass;
import io.openrs.repserver.admin.rcl.RclCommand.AlterRepDef;
import io.openrs.repserver.admin.rcl.RclCommand.AlterUserPassword;
import io.openrs.repserver.admin.rcl.RclCommand.AssignAction;
import io.openrs.repserver.admin.rcl.RclCommand.CheckSubscription;
import io.openrs.repserver.admin.rcl.RclCommand.ConfigureServer;
import io.openrs.repserver.admin.rcl.RclCommand.CreateConnection;
import io.openrs.repserver.admin.rcl.RclCommand.CreateDatabaseRepDef;
import io.openrs.repserver.admin.rcl.RclCommand.CreateErrorClass;
import io.openrs.repserver.admin.rcl.RclCommand.CreateRepDef;
import io.openrs.repserver.admin.rcl.RclCommand.CreateSubscription;
import io.openrs.repserver.admin.rcl.RclCommand.CreateUser;
import io.openrs.repserver.admin.rcl.RclCommand.DropConnection;
import io.openrs.repserver.admin.rcl.RclCommand.DropDatabaseRepDef;
import io.openrs.repserver.admin.rcl.RclCommand.DropErrorClass;
import io.openrs.repserver.admin.rcl.RclCommand.DropRepDef;
import io.openrs.repserver.admin.rcl.RclCommand.DropSubscription;
import io.openrs.repserver.admin.rcl.RclCommand.DropUser;
import io.openrs.repserver.admin.rcl.RclCommand.Grant;
import io.openrs.repserver.admin.rcl.RclCommand.ResumeConnection;
import io.openrs.repserver.admin.rcl.RclCommand.ResumeDistributor;
import io.openrs.repserver.admin.rcl.RclCommand.ResumeLogTransfer;
import io.openrs.repserver.admin.rcl.RclCommand.Revoke;
import io.openrs.repserver.admin.rcl.RclCommand.RsDelException;
import io.openrs.repserver.admin.rcl.RclCommand.RsDumpStats;
import io.openrs.repserver.admin.rcl.RclCommand.RsHelpCounter;
import io.openrs.repserver.admin.rcl.RclCommand.RsHelpError;
import io.openrs.repserver.admin.rcl.RclCommand.RsHelpException;
import io.openrs.repserver.admin.rcl.RclCommand.RsHelpRep;
import io.openrs.repserver.admin.rcl.RclCommand.RsHelpSub;
import io.openrs.repserver.admin.rcl.RclCommand.RsTicket;
import io.openrs.repserver.admin.rcl.RclCommand.Shutdown;
import io.openrs.repserver.admin.rcl.RclCommand.SuspendConnection;
import io.openrs.repserver.admin.rcl.RclCommand.SuspendLogTransfer;
import io.openrs.repserver.admin.rcl.RclCommand.SysadminDumpQueue;
import io.openrs.repserver.admin.rcl.RclCommand.SysadminPurgeQueue;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every command form parses to the expected record, and its canonical text parses back to it. */
class RclParserTest {

  private static final Optional<String> NONE = Optional.empty();

  /** A setting whose name is the first occurrence of {@code "set " + name} in {@code text}. */
  private static Setting set(String text, String name, String value) {
    int at = text.indexOf("set " + name);
    assertThat(at).as("'set %s' in %s", name, text).isNotNegative();
    return new Setting(name, value, at + 5);
  }

  private static AdminStats stats(
      StatsAction action,
      String module,
      QueueType queueType,
      String instance,
      Integer obs,
      Integer period) {
    return new AdminStats(
        action,
        Optional.ofNullable(module),
        Optional.ofNullable(queueType),
        Optional.ofNullable(instance),
        obs == null ? OptionalInt.empty() : OptionalInt.of(obs),
        period == null ? OptionalInt.empty() : OptionalInt.of(period));
  }

  static Stream<Arguments> commands() {
    String cc =
        "create connection to pg1.sales using profile postgresql set server to '127.0.0.1',"
            + " set port to '5432', set user to 'rs_maint', set password to 's3cr''et',"
            + " set dsi_num_threads to 4 with log transfer on";
    String ccRs =
        "CREATE CONNECTION TO Pg1.Sales USING PROFILE MariaDB set server to host1"
            + " set user to Maint set password to Secret1;";
    String ac =
        "alter connection to pg1.sales set dsi_num_threads to '8', set log transfer off"
            + " set batch to on";
    String ccEc =
        "create connection to r.db using profile mariadb set server to 'h', set error class to"
            + " My_EC";
    String acEc = "alter connection to r.db set error class \"My EC\", set log transfer on";
    String acEc2 = "alter connection to r.db set ERROR CLASS TO 'ec2'";
    String acTable =
        "alter connection to r.db for replicate table named Shop.\"Big Tab\" set"
            + " dsi_compile_enable to 'off', set dsi_command_convert to 'i2di'";
    String cs =
        "create subscription sub1 for orders_rd with replicate at pg2.sales"
            + " where region = 'EU''s' and amount > 10 with materialization";
    return Stream.of(
        // connections
        Arguments.of(
            cc,
            new CreateConnection(
                "pg1",
                "sales",
                "postgresql",
                List.of(
                    set(cc, "server", "127.0.0.1"),
                    set(cc, "port", "5432"),
                    set(cc, "user", "rs_maint"),
                    set(cc, "password", "s3cr'et"),
                    set(cc, "dsi_num_threads", "4")),
                true)),
        Arguments.of(
            ccRs,
            new CreateConnection(
                "pg1",
                "sales",
                "mariadb",
                List.of(
                    set(ccRs, "server", "host1"),
                    set(ccRs, "user", "Maint"),
                    set(ccRs, "password", "Secret1")),
                false)),
        Arguments.of(
            ac,
            new AlterConnection(
                "pg1",
                "sales",
                List.of(
                    set(ac, "dsi_num_threads", "8"),
                    new Setting(Setting.LOG_TRANSFER, "off", ac.indexOf("log transfer") + 1),
                    set(ac, "batch", "on")))),
        Arguments.of("drop connection to pg1.sales", new DropConnection("pg1", "sales")),
        Arguments.of("admin show_connections", new AdminShowConnections()),
        // log transfer, DSI, distributor
        Arguments.of("suspend log transfer from pg1.sales", new SuspendLogTransfer("pg1", "sales")),
        Arguments.of("resume log transfer from pg1.sales", new ResumeLogTransfer("pg1", "sales")),
        Arguments.of("suspend connection to pg2.sales", new SuspendConnection("pg2", "sales")),
        Arguments.of(
            "resume connection to pg2.sales",
            new ResumeConnection("pg2", "sales", Optional.empty())),
        Arguments.of(
            "resume connection to pg2.sales skip transaction",
            new ResumeConnection(
                "pg2", "sales", Optional.of(new ResumeOption.SkipTransactions(1)))),
        Arguments.of(
            "resume connection to pg2.sales skip 3 transactions",
            new ResumeConnection(
                "pg2", "sales", Optional.of(new ResumeOption.SkipTransactions(3)))),
        Arguments.of(
            "resume connection to pg2.sales execute transaction",
            new ResumeConnection(
                "pg2", "sales", Optional.of(new ResumeOption.ExecuteTransaction()))),
        Arguments.of("resume distributor pg1.sales", new ResumeDistributor("pg1", "sales")),
        // replication definitions
        Arguments.of(
            "create replication definition orders_rd with primary at pg1.sales"
                + " with all tables named public.orders"
                + " (id int, customer varchar(40), amount numeric(12, 2), ratio \"double precision\","
                + " created timestamp(3) with time zone, note text)"
                + " primary key (id) searchable columns (customer, amount)",
            new CreateRepDef(
                "orders_rd",
                "pg1",
                "sales",
                TableRef.of("public", "orders"),
                Optional.empty(),
                List.of(
                    ColumnDef.of("id", "int"),
                    ColumnDef.of("customer", "varchar(40)"),
                    ColumnDef.of("amount", "numeric(12,2)"),
                    ColumnDef.of("ratio", "double precision"),
                    ColumnDef.of("created", "timestamp(3) with time zone"),
                    ColumnDef.of("note", "text")),
                List.of("id"),
                List.of("customer", "amount"))),
        Arguments.of(
            "create replication definition rd2 with primary at pg1.sales"
                + " with primary table named 'Orders' with replicate table named archive.\"Orders2\""
                + " (\"Id\" as id2 integer map to bigint, qty double precision)"
                + " primary key (\"Id\", qty)",
            new CreateRepDef(
                "rd2",
                "pg1",
                "sales",
                TableRef.of("Orders"),
                Optional.of(TableRef.of("archive", "Orders2")),
                List.of(
                    new ColumnDef("Id", "integer", Optional.of("id2"), Optional.of("bigint")),
                    ColumnDef.of("qty", "double precision")),
                List.of("Id", "qty"),
                List.of())),
        Arguments.of(
            "create replication definition items with primary at pg1.sales"
                + " with all tables named items with replicate table named items_copy"
                + " (id int) primary key (id)",
            new CreateRepDef(
                "items",
                "pg1",
                "sales",
                TableRef.of("items"),
                Optional.of(TableRef.of("items_copy")),
                List.of(ColumnDef.of("id", "int")),
                List.of("id"),
                List.of())),
        Arguments.of(
            "create replication definition items with primary at pg1.sales (id int) primary key"
                + " (id)",
            new CreateRepDef(
                "items",
                "pg1",
                "sales",
                TableRef.of("items"),
                Optional.empty(),
                List.of(ColumnDef.of("id", "int")),
                List.of("id"),
                List.of())),
        Arguments.of(
            "alter replication definition orders_rd add searchable columns (region, amount)",
            new AlterRepDef(
                "orders_rd", new RepDefChange.AddSearchableColumns(List.of("region", "amount")))),
        Arguments.of(
            "alter replication definition orders_rd drop searchable columns region",
            new AlterRepDef(
                "orders_rd", new RepDefChange.DropSearchableColumns(List.of("region")))),
        Arguments.of(
            "alter replication definition orders_rd add region char(2), flag boolean",
            new AlterRepDef(
                "orders_rd",
                new RepDefChange.AddColumns(
                    List.of(ColumnDef.of("region", "char(2)"), ColumnDef.of("flag", "boolean"))))),
        Arguments.of("drop replication definition orders_rd", new DropRepDef("orders_rd")),
        Arguments.of(
            "create database replication definition all_sales with primary at pg1.sales"
                + " replicate tables in ('public.%', audit.log)"
                + " not replicate tables in ('public.tmp_%')",
            new CreateDatabaseRepDef(
                "all_sales",
                "pg1",
                "sales",
                List.of("public.%", "audit.log"),
                List.of("public.tmp_%"))),
        Arguments.of(
            "create database replication definition all_sales with primary at pg1.sales",
            new CreateDatabaseRepDef("all_sales", "pg1", "sales", List.of(), List.of())),
        Arguments.of(
            "drop database replication definition all_sales", new DropDatabaseRepDef("all_sales")),
        Arguments.of("rs_helprep", new RsHelpRep(NONE)),
        Arguments.of("rs_helprep orders_rd", new RsHelpRep(Optional.of("orders_rd"))),
        Arguments.of("rs_helprep 'Orders_RD'", new RsHelpRep(Optional.of("Orders_RD"))),
        // subscriptions
        Arguments.of(
            cs,
            new CreateSubscription(
                "sub1",
                "orders_rd",
                false,
                "pg2",
                "sales",
                Optional.of(
                    new WhereClauseText(
                        "region = 'EU''s' and amount > 10", cs.indexOf("region") + 1)),
                Materialization.WITH)),
        Arguments.of(
            "create subscription sub2 for database replication definition all_sales"
                + " with replicate at pg2.sales without materialization",
            new CreateSubscription(
                "sub2",
                "all_sales",
                true,
                "pg2",
                "sales",
                Optional.empty(),
                Materialization.WITHOUT)),
        Arguments.of(
            "create subscription sub3 for orders_rd with replicate at pg2.sales",
            new CreateSubscription(
                "sub3",
                "orders_rd",
                false,
                "pg2",
                "sales",
                Optional.empty(),
                Materialization.WITHOUT)),
        Arguments.of(
            "drop subscription sub1 for orders_rd with replicate at pg2.sales",
            new DropSubscription("sub1", "orders_rd", false, "pg2", "sales")),
        Arguments.of(
            "check subscription sub2 for database replication definition all_sales"
                + " with replicate at pg2.sales",
            new CheckSubscription("sub2", "all_sales", true, "pg2", "sales")),
        Arguments.of("rs_helpsub", new RsHelpSub(NONE)),
        Arguments.of("rs_helpsub sub1", new RsHelpSub(Optional.of("sub1"))),
        // configuration
        Arguments.of(
            "configure replication server set sqt_max_cache_size to '20971520'",
            new ConfigureServer(new Setting("sqt_max_cache_size", "20971520", 34))),
        Arguments.of("admin config", new AdminConfig(NONE)),
        Arguments.of(
            "admin config, sqt_max_cache_size", new AdminConfig(Optional.of("sqt_max_cache_size"))),
        // status
        Arguments.of("admin who", new AdminWho(NONE)),
        Arguments.of("admin who, sqm", new AdminWho(Optional.of("sqm"))),
        Arguments.of("ADMIN WHO, SQT", new AdminWho(Optional.of("sqt"))),
        Arguments.of("admin who, dist", new AdminWho(Optional.of("dist"))),
        Arguments.of("admin who_is_down", new AdminWhoIsDown()),
        Arguments.of("admin disk_space", new AdminDiskSpace()),
        Arguments.of("admin version", new AdminVersion()),
        Arguments.of("admin health", new AdminHealth()),
        Arguments.of("admin echo", new AdminEcho("")),
        Arguments.of("admin echo, 'Hello there'", new AdminEcho("Hello there")),
        Arguments.of("admin echo Hello", new AdminEcho("Hello")),
        Arguments.of("admin stats", stats(StatsAction.SHOW, null, null, null, null, null)),
        Arguments.of(
            "admin stats, \"all\"", stats(StatsAction.SHOW, "all", null, null, null, null)),
        Arguments.of("admin stats, sqm", stats(StatsAction.SHOW, "sqm", null, null, null, null)),
        Arguments.of(
            "admin stats, sqm, 101", stats(StatsAction.SHOW, "sqm", null, "101", null, null)),
        Arguments.of(
            "admin statistics, sqt, outbound, 108, display, 30",
            stats(StatsAction.SHOW, "sqt", QueueType.OUTBOUND, "108", 30, null)),
        Arguments.of(
            "admin stats, dsi, pg2.sales",
            stats(StatsAction.SHOW, "dsi", null, "pg2.sales", null, null)),
        Arguments.of(
            "admin stats, \"all\", save, 20, \"01:30:00\"",
            stats(StatsAction.SAVE, "all", null, null, 20, 5400)),
        Arguments.of(
            "admin stats, sqt, outbound, 108, save, 30, 120",
            stats(StatsAction.SAVE, "sqt", QueueType.OUTBOUND, "108", 30, 120)),
        Arguments.of(
            "admin stats, sqm, inbound, save, 15, '00:10'",
            stats(StatsAction.SAVE, "sqm", QueueType.INBOUND, null, 15, 600)),
        Arguments.of("admin stats, save", stats(StatsAction.SAVE, null, null, null, null, null)),
        Arguments.of("admin stats, backlog", AdminStats.of(StatsAction.BACKLOG)),
        Arguments.of("admin stats, tps", AdminStats.of(StatsAction.TPS)),
        Arguments.of("admin stats, cps", AdminStats.of(StatsAction.CPS)),
        Arguments.of("admin stats, bps", AdminStats.of(StatsAction.BPS)),
        Arguments.of("admin stats, reset", AdminStats.of(StatsAction.RESET)),
        Arguments.of("admin stats, status", AdminStats.of(StatsAction.STATUS)),
        // Found by RclParserFuzzTest: a quoted module named like a keyword printed bare, so its
        // canonical text read as that keyword ("admin stats, reset, 'st'" does not parse).
        Arguments.of(
            "admin stats, \"reset\", st", stats(StatsAction.SHOW, "reset", null, "st", null, null)),
        Arguments.of(
            "admin stats, \"display\"", stats(StatsAction.SHOW, "display", null, null, null, null)),
        Arguments.of(
            "admin stats, \"save\", save, 5", stats(StatsAction.SAVE, "save", null, null, 5, null)),
        Arguments.of("rs_dump_stats", new RsDumpStats()),
        Arguments.of("rs_helpcounter", new RsHelpCounter(NONE)),
        Arguments.of("rs_helpcounter sqm", new RsHelpCounter(Optional.of("sqm"))),
        Arguments.of(
            "rs_helpcounter \"SQMWriteTime\"", new RsHelpCounter(Optional.of("SQMWriteTime"))),
        // queues
        Arguments.of(
            "sysadmin dump_queue, 101, 1",
            new SysadminDumpQueue(QueueId.inbound(101), Optional.empty(), OptionalInt.empty())),
        Arguments.of(
            "sysadmin dump_queue, 101, 0, 12.3.7, 10",
            new SysadminDumpQueue(
                QueueId.outbound(101),
                Optional.of(new QueuePosition(12, 3, 7)),
                OptionalInt.of(10))),
        Arguments.of(
            "sysadmin dump_queue, 101, 1, 5",
            new SysadminDumpQueue(
                QueueId.inbound(101),
                Optional.of(new QueuePosition(5, 0, 0)),
                OptionalInt.empty())),
        Arguments.of(
            "sysadmin dump_queue, 101, 1, '5.2'",
            new SysadminDumpQueue(
                QueueId.inbound(101),
                Optional.of(new QueuePosition(5, 2, 0)),
                OptionalInt.empty())),
        Arguments.of(
            "sysadmin sqm_purge_queue, 102, 0", new SysadminPurgeQueue(QueueId.outbound(102))),
        // rs_ticket
        Arguments.of("rs_ticket", new RsTicket(List.of())),
        Arguments.of("rs_ticket 'load1'", new RsTicket(List.of("load1"))),
        Arguments.of(
            "rs_ticket 'a', 'b', 'c', 'a header up to fifty characters long'",
            new RsTicket(List.of("a", "b", "c", "a header up to fifty characters long"))),
        Arguments.of("admin ticket_history", new AdminTicketHistory(OptionalInt.empty())),
        Arguments.of("admin ticket_history, 20", new AdminTicketHistory(OptionalInt.of(20))),
        // users
        Arguments.of(
            "create user ops set password 'Pa''ss'",
            new CreateUser("ops", "Pa'ss", Optional.empty())),
        Arguments.of(
            "create user \"Ops\" set password to Secret with role monitor",
            new CreateUser("Ops", "Secret", Optional.of(RclRole.MONITOR))),
        Arguments.of("alter user ops set password 'n3w'", new AlterUserPassword("ops", "n3w")),
        Arguments.of("alter user ops set password to to", new AlterUserPassword("ops", "to")),
        Arguments.of("drop user ops", new DropUser("ops")),
        Arguments.of("grant sa to ops", new Grant(RclRole.SA, "ops")),
        Arguments.of("grant role admin to user ops", new Grant(RclRole.SA, "ops")),
        Arguments.of("grant monitor to user", new Grant(RclRole.MONITOR, "user")),
        Arguments.of("revoke role monitor from ops", new Revoke(RclRole.MONITOR, "ops")),
        Arguments.of("revoke sa from user ops", new Revoke(RclRole.SA, "ops")),
        // error classes, exceptions log
        Arguments.of("create error class ec", new CreateErrorClass("ec", NONE)),
        Arguments.of(
            "CREATE ERROR CLASS \"Sales EC\" SET TEMPLATE TO rs_postgresql_error_class",
            new CreateErrorClass("Sales EC", Optional.of("rs_postgresql_error_class"))),
        Arguments.of(
            "alter error class ec set template to rs_mariadb_error_class",
            new AlterErrorClass("ec", "rs_mariadb_error_class")),
        Arguments.of("drop error class ec", new DropErrorClass("ec")),
        Arguments.of(
            "assign action ignore for ec to 23505",
            new AssignAction(RclErrorAction.IGNORE, "ec", List.of("23505"))),
        Arguments.of(
            "assign action retry_log for ec to '40001', 40p01, 1062, 23, HY000, 'hy001'",
            new AssignAction(
                RclErrorAction.RETRY_LOG,
                "ec",
                List.of("40001", "40P01", "1062", "23", "HY000", "HY001"))),
        Arguments.of(
            "assign action stop_replication for \"EC\" to 5185",
            new AssignAction(RclErrorAction.STOP_REPLICATION, "EC", List.of("5185"))),
        Arguments.of("admin show_error_class", new AdminShowErrorClass(NONE)),
        Arguments.of("admin show_error_class ec", new AdminShowErrorClass(Optional.of("ec"))),
        Arguments.of("admin show_error_class, \"EC\"", new AdminShowErrorClass(Optional.of("EC"))),
        Arguments.of("rs_helperror 23505", new RsHelpError("23505", NONE, NONE)),
        Arguments.of(
            "rs_helperror '40p01', rds.rdb",
            new RsHelpError("40P01", Optional.of("rds"), Optional.of("rdb"))),
        Arguments.of("rs_helpexception", new RsHelpException(OptionalLong.empty(), false)),
        Arguments.of("rs_helpexception 12", new RsHelpException(OptionalLong.of(12), false)),
        Arguments.of(
            "rs_helpexception 9000000000, v",
            new RsHelpException(OptionalLong.of(9_000_000_000L), true)),
        Arguments.of("rs_delexception 7", new RsDelException(7, 7)),
        Arguments.of("rs_delexception_id 7", new RsDelException(7, 7)),
        Arguments.of("rs_delexception_id 7, 9", new RsDelException(7, 9)),
        Arguments.of(
            ccEc,
            new CreateConnection(
                "r",
                "db",
                "mariadb",
                List.of(
                    new Setting("server", "h", ccEc.indexOf("server") + 1),
                    new Setting("error_class", "my_ec", ccEc.indexOf("error class") + 1)),
                false)),
        Arguments.of(
            acEc,
            new AlterConnection(
                "r",
                "db",
                List.of(
                    new Setting("error_class", "My EC", acEc.indexOf("error class") + 1),
                    new Setting("log transfer", "on", acEc.indexOf("log transfer") + 1)))),
        Arguments.of(
            acEc2,
            new AlterConnection(
                "r", "db", List.of(new Setting("error_class", "ec2", acEc2.indexOf("ERROR") + 1)))),
        Arguments.of(
            acTable,
            new AlterConnection(
                "r",
                "db",
                Optional.of(TableRef.of("shop", "Big Tab")),
                List.of(
                    set(acTable, "dsi_compile_enable", "off"),
                    set(acTable, "dsi_command_convert", "i2di")))),
        Arguments.of("shutdown", new Shutdown()),
        Arguments.of("  shutdown ;  ", new Shutdown()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("commands")
  void parsesToTheExpectedRecord(String text, RclCommand expected) throws Exception {
    assertThat(RclParser.parse(text)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("commands")
  void canonicalTextParsesBackToTheSameCommand(String text, RclCommand expected) throws Exception {
    String canonical = expected.toString();
    RclCommand again = RclParser.parse(canonical);
    assertThat(again.toString()).isEqualTo(canonical);
    if (!canonical.contains(Setting.MASK)) {
      assertThat(withoutPositions(again)).isEqualTo(withoutPositions(expected));
    }
  }

  @Test
  void everyKindIsCovered() {
    Set<RclCommand.Kind> covered =
        commands()
            .map(a -> ((RclCommand) a.get()[1]).kind())
            .collect(Collectors.toCollection(() -> EnumSet.noneOf(RclCommand.Kind.class)));
    assertThat(covered).containsExactlyInAnyOrder(RclCommand.Kind.values());
  }

  @Test
  void canonicalTextOfACreateConnection() throws Exception {
    RclCommand c =
        RclParser.parse(
            "CREATE CONNECTION TO \"PG 1\".Sales USING PROFILE postgresql"
                + " SET Server TO '127.0.0.1' SET password TO 'x' WITH LOG TRANSFER ON");
    assertThat(c)
        .hasToString(
            "create connection to \"PG 1\".sales using profile postgresql"
                + " set server to '127.0.0.1', set password to '***' with log transfer on");
  }

  @Test
  void keywordsAreCaseInsensitiveAndNamesFolded() throws Exception {
    assertThat(RclParser.parse("Suspend CONNECTION tO PG2.SaLeS"))
        .isEqualTo(new SuspendConnection("pg2", "sales"));
  }

  @Test
  void quotedNamesKeepCaseSpacesAndDoubledQuotes() throws Exception {
    assertThat(RclParser.parse("drop connection to \"My DS\".\"say \"\"hi\"\"\""))
        .isEqualTo(new DropConnection("My DS", "say \"hi\""));
    assertThat(RclParser.parse("drop replication definition \"Select\""))
        .isEqualTo(new DropRepDef("Select"));
  }

  @Test
  void keywordsAreNotReservedWhereANameIsExpected() throws Exception {
    assertThat(RclParser.parse("drop connection to to.connection"))
        .isEqualTo(new DropConnection("to", "connection"));
    assertThat(
            RclParser.parse(
                "create subscription for for database with replicate at with.replicate"))
        .isEqualTo(
            new CreateSubscription(
                "for",
                "database",
                false,
                "with",
                "replicate",
                Optional.empty(),
                Materialization.WITHOUT));
  }

  @Test
  void commentsAndWhitespaceAreIgnored() throws Exception {
    assertThat(
            RclParser.parse(
                "-- suspend first\n admin /* all */ who, /* only */ sqm -- the queues\n ;"))
        .isEqualTo(new AdminWho(Optional.of("sqm")));
    assertThat(RclParser.parse("admin\twho\r\n,\r\nsqt;"))
        .isEqualTo(new AdminWho(Optional.of("sqt")));
  }

  @Test
  void unicodeSpacesPastedFromDocumentsSeparateWords() throws Exception {
    assertThat(RclParser.parse("admin\u00a0who,\u2003sqm"))
        .isEqualTo(new AdminWho(Optional.of("sqm")));
  }

  @Test
  void aCommaPromisesAValue() {
    assertThat(catchThrowableOfType(() -> RclParser.parse("admin echo,"), RclSyntaxException.class))
        .hasMessage(
            "syntax error at position 12: expected a text after 'admin echo,', found end of command");
  }

  @Test
  void whereClauseKeepsItsTextWithCommentsBlankedAndStopsAtMaterialization() throws Exception {
    String text =
        "create subscription s for rd with replicate at ds.db where a = 'with materialization'"
            + " /* note */ and \"b\" <> 2 -- end\n without materialization;";
    CreateSubscription s = (CreateSubscription) RclParser.parse(text);
    WhereClauseText where = s.where().orElseThrow();
    assertThat(where.text()).isEqualTo("a = 'with materialization'            and \"b\" <> 2");
    assertThat(where.position()).isEqualTo(text.indexOf("a = ") + 1);
    assertThat(text.substring(where.position() - 1).startsWith("a = 'with")).isTrue();
    assertThat(text.substring(where.position() - 1 + where.text().indexOf("<>")))
        .startsWith("<> 2");
    assertThat(s.materialization()).isEqualTo(Materialization.WITHOUT);
  }

  @Test
  void passwordsAreMaskedInEveryToString() throws Exception {
    List<String> texts =
        List.of(
            "create connection to a.b using profile postgresql set password to 'Hunter2'",
            "alter connection to a.b set password to Hunter2",
            "alter connection to a.b set rssd_password to 'Hunter2'",
            "configure replication server set id_pwd to 'Hunter2'",
            "create user u set password 'Hunter2'",
            "alter user u set password to Hunter2");
    for (String text : texts) {
      RclCommand c = RclParser.parse(text);
      assertThat(c.toString()).as(text).doesNotContain("Hunter2").contains("'***'");
    }
    CreateConnection c =
        (CreateConnection)
            RclParser.parse(
                "create connection to a.b using profile postgresql set password to 'Hunter2'");
    assertThat(c.settings().get(0).toString()).isEqualTo("set password to '***'");
    assertThat(c.setting("password")).contains("Hunter2");
    assertThat(new CreateUser("u", "Hunter2", Optional.empty()).toString())
        .doesNotContain("Hunter2");
  }

  @Test
  void tagsAndStateChanges() throws Exception {
    assertThat(RclParser.parse("create connection to a.b using profile x").commandTag())
        .isEqualTo("CREATE CONNECTION");
    assertThat(RclParser.parse("admin who, sqm").commandTag()).isEqualTo("ADMIN WHO");
    assertThat(RclParser.parse("admin who").changesState()).isFalse();
    assertThat(RclParser.parse("admin stats, \"all\"").changesState()).isFalse();
    assertThat(RclParser.parse("admin stats, reset").changesState()).isTrue();
    assertThat(RclParser.parse("admin stats, save, 20, 60").changesState()).isTrue();
    assertThat(RclParser.parse("shutdown").changesState()).isTrue();
    assertThat(RclParser.parse("grant monitor to u").changesState()).isTrue();
    assertThat(RclParser.parse("admin show_error_class").changesState()).isFalse();
    assertThat(RclParser.parse("rs_helperror 1062").changesState()).isFalse();
    assertThat(RclParser.parse("rs_helpexception 1, v").changesState()).isFalse();
    assertThat(RclParser.parse("rs_delexception 1").changesState()).isTrue();
    assertThat(RclParser.parse("assign action log for ec to 1").changesState()).isTrue();
    assertThat(RclParser.parse("create error class ec").commandTag())
        .isEqualTo("CREATE ERROR CLASS");
  }

  /** Settings carry positions, which differ between a command and its canonical text. */
  private static RclCommand withoutPositions(RclCommand c) {
    if (c instanceof CreateConnection cc) {
      return new CreateConnection(
          cc.dataserver(), cc.database(), cc.profile(), zero(cc.settings()), cc.logTransfer());
    }
    if (c instanceof AlterConnection ac) {
      return new AlterConnection(
          ac.dataserver(), ac.database(), ac.replicateTable(), zero(ac.settings()));
    }
    if (c instanceof ConfigureServer cs) {
      return new ConfigureServer(zero(List.of(cs.setting())).get(0));
    }
    if (c instanceof CreateSubscription s && s.where().isPresent()) {
      return new CreateSubscription(
          s.name(),
          s.repDefName(),
          s.databaseLevel(),
          s.dataserver(),
          s.database(),
          Optional.of(new WhereClauseText(s.where().get().text(), 1)),
          s.materialization());
    }
    return c;
  }

  private static List<Setting> zero(List<Setting> settings) {
    return settings.stream().map(s -> new Setting(s.name(), s.value(), 1)).toList();
  }
}
