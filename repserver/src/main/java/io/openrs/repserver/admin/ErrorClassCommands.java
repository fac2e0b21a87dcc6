package io.openrs.repserver.admin;

import io.openrs.config.rssd.ConnectionDef;
import io.openrs.config.rssd.ErrorClassAssignment;
import io.openrs.config.rssd.ErrorClassDef;
import io.openrs.config.rssd.Profile;
import io.openrs.dsi.ErrorAction;
import io.openrs.dsi.ErrorClass;
import io.openrs.dsi.dialect.Dialect;
import io.openrs.pgwire.PgException;
import io.openrs.pgwire.PgResult;
import io.openrs.repserver.admin.rcl.RclCommand;
import io.openrs.repserver.admin.rcl.Setting;
import io.openrs.repserver.catalog.Catalog;
import io.openrs.repserver.dsi.StoredErrorClasses;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Error classes: {@code create/alter/drop error class}, {@code assign action}, {@code admin
 * show_error_class}, {@code rs_helperror}; and the check that an {@code error_class} a command sets
 * names a class that exists. The classes live in the RSSD ({@code rs_classes}, {@code
 * rs_erroractions}); the DSI reads a connection's class when the connection starts or resumes.
 */
public final class ErrorClassCommands {

  /** The connection parameter (and setting) that names a connection's error class. */
  static final String ERROR_CLASS = Setting.ERROR_CLASS;

  private final Catalog catalog;
  private final ServerControl server;

  ErrorClassCommands(Catalog catalog, ServerControl server) {
    this.catalog = catalog;
    this.server = server;
  }

  PgResult execute(RclCommand c) throws PgException {
    if (c instanceof RclCommand.CreateErrorClass cc) {
      ErrorClassDef d = catalog.createErrorClass(cc.name(), cc.template());
      return PgResult.command(c.commandTag())
          .withNotice(
              "error class "
                  + d.name()
                  + " created"
                  + cc.template()
                      .map(t -> " with " + d.actions().size() + " actions copied from " + t)
                      .orElse(" without actions"));
    } else if (c instanceof RclCommand.AlterErrorClass ac) {
      int copied = template(ac.template()).actions().size();
      catalog.alterErrorClass(ac.name(), ac.template());
      return PgResult.command(c.commandTag())
          .withNotice(
              copied
                  + " actions copied from "
                  + ac.template()
                  + " into "
                  + ac.name()
                  + takesEffect(ac.name()));
    } else if (c instanceof RclCommand.DropErrorClass dc) {
      String serverValue = server.parameters().getString(ERROR_CLASS);
      if (dc.name().equals(serverValue)) {
        throw new PgException(
            AdminErrors.DEPENDENT_OBJECTS,
            "error class "
                + dc.name()
                + " is the server's error_class; set another one first (configure replication"
                + " server set error_class to '<class>')");
      }
      catalog.dropErrorClass(dc.name());
      return PgResult.command(c.commandTag());
    } else if (c instanceof RclCommand.AssignAction aa) {
      catalog.assignErrorAction(aa.errorClass(), aa.action().rcl(), aa.codes());
      return PgResult.command(c.commandTag())
          .withNotice(
              aa.action().rcl()
                  + " assigned to "
                  + String.join(", ", aa.codes())
                  + " in "
                  + aa.errorClass()
                  + takesEffect(aa.errorClass()));
    } else if (c instanceof RclCommand.AdminShowErrorClass s) {
      return show(s);
    } else if (c instanceof RclCommand.RsHelpError h) {
      return helpError(h);
    }
    throw new IllegalStateException("not an error class command: " + c.kind());
  }

  /** When a change to a class reaches the DSIs, and which connections use it. */
  private String takesEffect(String name) {
    List<String> users = catalog.view().errorClassUsedBy(name);
    if (users.isEmpty()) {
      return "; no connection uses it yet (create/alter connection ... set error class to "
          + name
          + ")";
    }
    return "; " + String.join(", ", users) + " use it from the next resume of their connection";
  }

  private ErrorClassDef template(String name) throws PgException {
    return catalog
        .view()
        .errorClass(name)
        .orElseThrow(() -> new PgException(AdminErrors.UNDEFINED_OBJECT, "no error class " + name));
  }

  // ------------------------------------------------------------------------ show

  private PgResult show(RclCommand.AdminShowErrorClass s) throws PgException {
    List<ErrorClassDef> defs;
    if (s.name().isPresent()) {
      defs = List.of(template(s.name().get()));
    } else {
      defs = new ArrayList<>();
      List<ErrorClassDef> all = catalog.view().errorClasses();
      all.stream().filter(ErrorClassDef::builtin).forEach(defs::add);
      all.stream().filter(d -> !d.builtin()).forEach(defs::add);
    }
    Table t = new Table().text("class").text("code").text("action").text("source").text("template");
    for (ErrorClassDef d : defs) {
      List<ErrorClassAssignment> rows = catalog.view().errorActions(d.name());
      if (rows.isEmpty()) {
        t.row(d.name(), null, null, null, d.template().orElse(null));
      }
      for (ErrorClassAssignment a : rows) {
        t.row(d.name(), a.code(), a.action(), a.source().label(), d.template().orElse(null));
      }
    }
    return t.result(RclCommand.Kind.ADMIN_SHOW_ERROR_CLASS.tag());
  }

  // ------------------------------------------------------------------ rs_helperror

  private PgResult helpError(RclCommand.RsHelpError h) {
    String code = h.code();
    Table t =
        new Table().text("connection").text("class").text("code").text("matched").text("action");
    if (h.dataserver().isPresent()) {
      ConnectionDef conn = catalog.requireConnection(h.dataserver().get(), h.database().get());
      List<ErrorClass> chain = new ArrayList<>();
      Optional<String> named = connectionClass(conn);
      String note = null;
      if (named.isPresent()) {
        Optional<ErrorClassDef> def = catalog.view().errorClass(named.get());
        if (def.isPresent()) {
          chain.add(StoredErrorClasses.toDsi(def.get()));
        } else {
          note =
              "connection "
                  + conn.name()
                  + " names error class "
                  + named.get()
                  + ", which does not exist";
        }
      }
      chain.add(dialectDefaults(conn.profile()));
      for (ErrorClass ec : chain) {
        Optional<String> matched = matched(ec, code);
        if (matched.isPresent()) {
          t.row(conn.name(), ec.name(), code, matched.get(), lookup(ec, code).label());
          return withNote(t, note);
        }
      }
      t.row(conn.name(), null, code, null, ErrorAction.STOP_REPLICATION.label());
      return withNote(t, note);
    }
    boolean any = false;
    List<ErrorClassDef> all = new ArrayList<>(catalog.view().errorClasses());
    all.sort((a, b) -> Boolean.compare(b.builtin(), a.builtin()));
    for (ErrorClassDef d : all) {
      ErrorClass ec = StoredErrorClasses.toDsi(d);
      Optional<String> matched = matched(ec, code);
      if (matched.isPresent()) {
        t.row(null, d.name(), code, matched.get(), lookup(ec, code).label());
        any = true;
      }
    }
    if (!any) {
      t.row(null, null, code, null, ErrorAction.STOP_REPLICATION.label());
      t.notice("no error class maps " + code + ": the DSI stops replication on it");
    }
    return t.result(RclCommand.Kind.RS_HELPERROR.tag());
  }

  private static PgResult withNote(Table t, String note) {
    if (note != null) {
      t.notice(note);
    }
    return t.result(RclCommand.Kind.RS_HELPERROR.tag());
  }

  /** The connection's {@code error_class}, else the server's; empty when neither names one. */
  private Optional<String> connectionClass(ConnectionDef conn) {
    String own = conn.properties().getOrDefault(ERROR_CLASS, "").trim();
    if (!own.isEmpty()) {
      return Optional.of(own);
    }
    String serverValue = server.parameters().getString(ERROR_CLASS).trim();
    return serverValue.isEmpty() ? Optional.empty() : Optional.of(serverValue);
  }

  /** The DSI's defaults for a profile: what applies after the connection's class. */
  static ErrorClass dialectDefaults(Profile profile) {
    return Dialect.forName(profile.name()).defaultErrorClass();
  }

  /**
   * The action the DSI gives an error reporting {@code code}: read as a vendor number when it is
   * one and as a SQLSTATE when it has five characters, as {@link ErrorClass#lookup} does; a
   * two-character class only matches itself.
   */
  static ErrorAction lookup(ErrorClass ec, String code) {
    if (code.length() == 2) {
      return Optional.ofNullable(ec.actions().get(code)).orElse(ErrorAction.STOP_REPLICATION);
    }
    int vendor = code.matches("[0-9]{1,9}") ? Integer.parseInt(code) : 0;
    return ec.lookup(vendor, code.length() == 5 ? code : null).orElse(ErrorAction.STOP_REPLICATION);
  }

  /** Which of the class's codes decides {@code code} (vendor number, SQLSTATE, class), if any. */
  static Optional<String> matched(ErrorClass ec, String code) {
    List<String> candidates = new ArrayList<>();
    if (code.length() == 2) {
      candidates.add(code);
    } else {
      if (code.matches("[0-9]{1,9}")) {
        candidates.add(Integer.toString(Integer.parseInt(code)));
      }
      if (code.length() == 5) {
        candidates.add(code);
        candidates.add(code.substring(0, 2));
      }
    }
    return candidates.stream().filter(ec.actions()::containsKey).findFirst();
  }

  // ------------------------------------------------------------------ references

  /**
   * Refuses a command that sets {@code error_class} (create/alter connection, configure replication
   * server) to a class that does not exist. Empty clears it and is always accepted.
   */
  void checkReferences(RclCommand c) throws PgException {
    List<Setting> settings = List.of();
    if (c instanceof RclCommand.CreateConnection cc) {
      settings = cc.settings();
    } else if (c instanceof RclCommand.AlterConnection ac) {
      settings = ac.settings();
    } else if (c instanceof RclCommand.ConfigureServer cs) {
      settings = List.of(cs.setting());
    }
    for (Setting s : settings) {
      if (!s.name().equalsIgnoreCase(ERROR_CLASS) || s.value().isBlank()) {
        continue;
      }
      String name = s.value();
      if (catalog.view().errorClass(name).isEmpty()) {
        List<String> known =
            catalog.view().errorClasses().stream().map(ErrorClassDef::name).toList();
        throw new PgException(
            AdminErrors.UNDEFINED_OBJECT,
            "no error class "
                + name
                + " (known: "
                + String.join(", ", known)
                + "); create error class "
                + name
                + " first",
            s.position());
      }
    }
  }
}
