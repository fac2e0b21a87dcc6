package io.openrs.repserver.admin;

import io.openrs.config.param.Parameter;
import io.openrs.config.param.ParameterCatalog;
import io.openrs.config.param.Scope;
import io.openrs.config.rssd.ConnectionDef;
import io.openrs.config.rssd.DatabaseRepDef;
import io.openrs.config.rssd.Profile;
import io.openrs.config.rssd.RepDef;
import io.openrs.config.rssd.RepDefColumn;
import io.openrs.config.rssd.Subscription;
import io.openrs.pgwire.PgException;
import io.openrs.pgwire.PgResult;
import io.openrs.repserver.admin.rcl.ColumnDef;
import io.openrs.repserver.admin.rcl.Materialization;
import io.openrs.repserver.admin.rcl.RclCommand;
import io.openrs.repserver.admin.rcl.RepDefChange;
import io.openrs.repserver.admin.rcl.Setting;
import io.openrs.repserver.admin.rcl.TableRef;
import io.openrs.repserver.catalog.Catalog;
import io.openrs.repserver.dsi.TableParameters;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Connections, replication definitions and subscriptions. */
final class DefinitionCommands {

  /** Connection settings that are not catalogue parameters: where and how to log in. */
  static final Set<String> CONNECTION_KEYS =
      Set.of("server", "port", "user", "password", "database");

  private final Catalog catalog;
  private final ServerControl server;
  private final ParameterCatalog parameterCatalog = ParameterCatalog.standard();

  DefinitionCommands(Catalog catalog, ServerControl server) {
    this.catalog = catalog;
    this.server = server;
  }

  PgResult execute(RclCommand c) throws PgException, IOException {
    if (c instanceof RclCommand.CreateConnection cc) {
      Profile profile = profile(cc.profile());
      Map<String, String> props = properties(cc.settings());
      for (String required : List.of("server", "port", "user")) {
        if (!props.containsKey(required)) {
          throw new PgException(
              AdminErrors.SYNTAX_ERROR,
              "create connection to "
                  + cc.dataserver()
                  + "."
                  + cc.database()
                  + ": set "
                  + required
                  + " to '...' is required");
        }
      }
      ConnectionDef d =
          server.createConnection(cc.dataserver(), cc.database(), profile, cc.logTransfer(), props);
      return PgResult.command(c.commandTag())
          .withNotice(
              "connection "
                  + d.name()
                  + " created with id "
                  + d.id()
                  + (d.logTransfer() ? "; its agent may connect (log transfer on)" : ""));
    } else if (c instanceof RclCommand.AlterConnection ac && ac.replicateTable().isPresent()) {
      ConnectionDef replicate = catalog.requireConnection(ac.dataserver(), ac.database());
      TableRef t = ac.replicateTable().get();
      String table = t.schema().orElse(defaultSchema(replicate)) + "." + t.table();
      for (Map.Entry<String, String> e : tableProperties(ac.settings()).entrySet()) {
        catalog.setConnectionProperty(
            ac.dataserver(), ac.database(), TableParameters.key(e.getKey(), table), e.getValue());
      }
      return PgResult.command(c.commandTag())
          .withNotice(
              "saved for replicate table "
                  + table
                  + "; DSI parameters take effect when the connection resumes");
    } else if (c instanceof RclCommand.AlterConnection ac) {
      catalog.requireConnection(ac.dataserver(), ac.database());
      for (Setting s : ac.settings()) {
        if (s.name().equals(Setting.LOG_TRANSFER)) {
          throw new UnsupportedOperationException(
              "alter connection ... set log transfer is not supported yet: drop and create the"
                  + " connection with or without log transfer");
        }
      }
      Map<String, String> props = properties(ac.settings());
      for (Map.Entry<String, String> e : props.entrySet()) {
        catalog.setConnectionProperty(ac.dataserver(), ac.database(), e.getKey(), e.getValue());
      }
      return PgResult.command(c.commandTag())
          .withNotice("saved; DSI parameters take effect when the connection resumes");
    } else if (c instanceof RclCommand.DropConnection dc) {
      server.dropConnection(dc.dataserver(), dc.database());
      return PgResult.command(c.commandTag());
    } else if (c instanceof RclCommand.CreateRepDef rd) {
      ConnectionDef primary =
          catalog.requireConnection(rd.primaryDataserver(), rd.primaryDatabase());
      TableRef p = rd.primaryTable();
      TableRef r = rd.replicateTable().orElse(p);
      List<RepDefColumn> columns = new ArrayList<>();
      for (ColumnDef cd : rd.columns()) {
        columns.add(new RepDefColumn(cd.name(), cd.type(), cd.replicateName().orElse(cd.name())));
      }
      catalog.createRepDef(
          new RepDef(
              rd.name(),
              primary.id(),
              p.schema().orElse(defaultSchema(primary)),
              p.table(),
              r.schema().orElse(p.schema().orElse(defaultSchema(primary))),
              r.table(),
              columns,
              rd.primaryKey(),
              rd.searchableColumns()));
      return PgResult.command(c.commandTag());
    } else if (c instanceof RclCommand.CreateDatabaseRepDef dd) {
      ConnectionDef primary =
          catalog.requireConnection(dd.primaryDataserver(), dd.primaryDatabase());
      catalog.createDatabaseRepDef(
          new DatabaseRepDef(dd.name(), primary.id(), dd.includeTables(), dd.excludeTables()));
      return PgResult.command(c.commandTag());
    } else if (c instanceof RclCommand.AlterRepDef a) {
      RepDef before =
          catalog
              .view()
              .repDef(a.name())
              .orElseThrow(
                  () ->
                      new PgException(
                          AdminErrors.UNDEFINED_OBJECT,
                          "no replication definition named " + a.name()));
      catalog.alterRepDef(altered(before, a.change()));
      return PgResult.command(c.commandTag())
          .withNotice(
              "replication definition "
                  + a.name()
                  + " altered; "
                  + (a.change() instanceof RepDefChange.AddColumns
                      ? "the replicate tables of its subscriptions need the new columns before"
                          + " changes carrying them arrive"
                      : "subscriptions may use its searchable columns in where clauses"));
    } else if (c instanceof RclCommand.DropRepDef d) {
      catalog.dropRepDef(d.name());
      return PgResult.command(c.commandTag());
    } else if (c instanceof RclCommand.DropDatabaseRepDef d) {
      catalog.dropDatabaseRepDef(d.name());
      return PgResult.command(c.commandTag());
    } else if (c instanceof RclCommand.RsHelpRep h) {
      return helpRep(h.name());
    } else if (c instanceof RclCommand.CreateSubscription s) {
      List<String> notices =
          catalog
              .subscriptions()
              .create(
                  s.name(),
                  s.repDefName(),
                  s.databaseLevel(),
                  s.dataserver(),
                  s.database(),
                  s.where().map(w -> w.text()),
                  s.materialization() == Materialization.WITH);
      PgResult result = PgResult.command(c.commandTag());
      for (String n : notices) {
        result = result.withNotice(n);
      }
      return result;
    } else if (c instanceof RclCommand.DropSubscription s) {
      catalog.subscriptions().drop(s.name(), s.dataserver(), s.database());
      return PgResult.command(c.commandTag());
    } else if (c instanceof RclCommand.CheckSubscription s) {
      ConnectionDef replicate = catalog.requireConnection(s.dataserver(), s.database());
      Subscription sub =
          catalog
              .view()
              .subscription(s.name(), replicate.id())
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "no subscription " + s.name() + " at " + replicate.name()));
      return new Table()
          .text("subscription")
          .text("replicate")
          .text("state")
          .row(sub.name(), replicate.name(), sub.state().name())
          .result(c.commandTag());
    } else if (c instanceof RclCommand.RsHelpSub h) {
      Table t =
          new Table()
              .text("subscription")
              .text("replication_definition")
              .bool("database_level")
              .text("replicate")
              .text("where_clause")
              .text("state")
              .timestamptz("created");
      for (Subscription s : catalog.view().subscriptions()) {
        if (h.name().isEmpty() || h.name().get().equalsIgnoreCase(s.name())) {
          t.row(
              s.name(),
              s.repDefName(),
              s.databaseLevel(),
              catalog
                  .view()
                  .connection(s.replicateConnectionId())
                  .map(ConnectionDef::name)
                  .orElse("?"),
              s.whereClause().orElse(null),
              s.state().name(),
              s.created());
        }
      }
      return t.result(c.commandTag());
    }
    throw new IllegalStateException("not a definition command: " + c.kind());
  }

  private PgResult helpRep(Optional<String> name) {
    Table t =
        new Table()
            .text("replication_definition")
            .text("kind")
            .text("primary")
            .text("primary_table")
            .text("replicate_table")
            .text("columns")
            .text("primary_key")
            .text("searchable_columns");
    for (ConnectionDef c : catalog.view().connections()) {
      for (RepDef d : catalog.view().repDefsOf(c.id())) {
        if (name.isPresent() && !name.get().equalsIgnoreCase(d.name())) {
          continue;
        }
        List<String> cols = new ArrayList<>();
        for (RepDefColumn col : d.columns()) {
          cols.add(
              col.name()
                  + " "
                  + col.type()
                  + (col.replicateName().equals(col.name()) ? "" : " as " + col.replicateName()));
        }
        t.row(
            d.name(),
            "table",
            c.name(),
            d.primarySchema() + "." + d.primaryTable(),
            d.replicateSchema() + "." + d.replicateTable(),
            String.join(", ", cols),
            String.join(", ", d.primaryKey()),
            String.join(", ", d.searchableColumns()));
      }
      for (DatabaseRepDef d : catalog.view().databaseRepDefsOf(c.id())) {
        if (name.isPresent() && !name.get().equalsIgnoreCase(d.name())) {
          continue;
        }
        t.row(
            d.name(),
            "database",
            c.name(),
            d.includeTables().isEmpty() ? "%" : String.join(", ", d.includeTables()),
            d.excludeTables().isEmpty() ? null : "not " + String.join(", ", d.excludeTables()),
            null,
            null,
            null);
      }
    }
    return t.result("RS_HELPREP");
  }

  private static String defaultSchema(ConnectionDef primary) {
    return primary.profile() == Profile.POSTGRESQL ? "public" : primary.database();
  }

  private static Profile profile(String name) throws PgException {
    try {
      return Profile.valueOf(name.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new PgException(
          AdminErrors.INVALID_PARAMETER_VALUE,
          "unknown profile '" + name + "'; known: postgresql, mariadb");
    }
  }

  /** {@code before} with {@code change} applied; what is wrong is named with its column. */
  private static RepDef altered(RepDef before, RepDefChange change) throws PgException {
    List<RepDefColumn> columns = new ArrayList<>(before.columns());
    List<String> searchable = new ArrayList<>(before.searchableColumns());
    if (change instanceof RepDefChange.AddColumns add) {
      for (ColumnDef cd : add.columns()) {
        if (columns.stream().anyMatch(x -> x.name().equalsIgnoreCase(cd.name()))) {
          throw new PgException(
              AdminErrors.DUPLICATE_OBJECT,
              "replication definition " + before.name() + " already has column " + cd.name());
        }
        columns.add(new RepDefColumn(cd.name(), cd.type(), cd.replicateName().orElse(cd.name())));
      }
    } else if (change instanceof RepDefChange.AddSearchableColumns add) {
      for (String col : add.columns()) {
        if (searchable.contains(col)) {
          throw new PgException(
              AdminErrors.DUPLICATE_OBJECT,
              "column " + col + " of replication definition " + before.name() + " is searchable");
        }
        searchable.add(col);
      }
    } else if (change instanceof RepDefChange.DropSearchableColumns drop) {
      for (String col : drop.columns()) {
        if (!searchable.remove(col)) {
          throw new PgException(
              AdminErrors.UNDEFINED_OBJECT,
              "column "
                  + col
                  + " of replication definition "
                  + before.name()
                  + " is not searchable");
        }
      }
    }
    return new RepDef(
        before.name(),
        before.primaryConnectionId(),
        before.primarySchema(),
        before.primaryTable(),
        before.replicateSchema(),
        before.replicateTable(),
        columns,
        before.primaryKey(),
        searchable);
  }

  /**
   * The settings of {@code alter connection ... for replicate table named}: only the parameters
   * Replication Server sets per table ({@link TableParameters#NAMES}), checked by the catalogue.
   */
  private Map<String, String> tableProperties(List<Setting> settings) throws PgException {
    for (Setting s : settings) {
      if (!TableParameters.NAMES.contains(s.name().toLowerCase(Locale.ROOT))) {
        throw new PgException(
            AdminErrors.FEATURE_NOT_SUPPORTED,
            "'"
                + s.name()
                + "' cannot be set for a replicate table; a table-level value is for one of "
                + String.join(", ", new java.util.TreeSet<>(TableParameters.NAMES))
                + " (set it for the whole connection without 'for replicate table named')",
            s.position());
      }
    }
    return properties(settings);
  }

  /** Connection keys as given; catalogue parameters checked for the connection scope. */
  private Map<String, String> properties(List<Setting> settings) throws PgException {
    Map<String, String> props = new LinkedHashMap<>();
    for (Setting s : settings) {
      String key = s.name().toLowerCase(Locale.ROOT);
      if (CONNECTION_KEYS.contains(key)) {
        props.put(key, s.value());
        continue;
      }
      Parameter p;
      try {
        p = parameterCatalog.requireForCommand(key, Scope.CONNECTION);
      } catch (RuntimeException e) {
        throw new PgException(AdminErrors.of(e, 0).sqlState(), e.getMessage(), s.position());
      }
      try {
        props.put(p.name(), p.normalize(s.value()));
      } catch (RuntimeException e) {
        throw new PgException(AdminErrors.INVALID_PARAMETER_VALUE, e.getMessage(), s.position());
      }
    }
    return props;
  }
}
