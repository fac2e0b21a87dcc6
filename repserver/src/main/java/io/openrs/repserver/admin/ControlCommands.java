package io.openrs.repserver.admin;

import io.openrs.config.param.Parameter;
import io.openrs.config.param.ParameterCatalog;
import io.openrs.config.param.Scope;
import io.openrs.config.param.TakesEffect;
import io.openrs.config.rssd.ConnectionDef;
import io.openrs.config.rssd.ConnectionState;
import io.openrs.dsi.RsTicketCall;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.packed.OriginEnvelope;
import io.openrs.ltl.packed.PackedDecoder;
import io.openrs.ltl.packed.PackedFormatException;
import io.openrs.ltl.text.LtlWriter;
import io.openrs.pgwire.PgException;
import io.openrs.pgwire.PgResult;
import io.openrs.pgwire.PgSession;
import io.openrs.queue.QueueMessage;
import io.openrs.queue.QueueType;
import io.openrs.queue.StableQueue;
import io.openrs.repserver.admin.rcl.RclCommand;
import io.openrs.repserver.admin.rcl.ResumeOption;
import io.openrs.repserver.catalog.Catalog;
import io.openrs.repserver.origin.OriginPipeline;
import io.openrs.runtime.ThreadNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Log transfer, connections, the distributor, configuration, queues, tickets and shutdown. */
final class ControlCommands {

  private final Catalog catalog;
  private final ServerControl server;
  private final Runnable onShutdown;
  private final ParameterCatalog parameterCatalog = ParameterCatalog.standard();

  ControlCommands(Catalog catalog, ServerControl server, Runnable onShutdown) {
    this.catalog = catalog;
    this.server = server;
    this.onShutdown = onShutdown;
  }

  PgResult execute(RclCommand c, PgSession session) throws PgException, InterruptedException {
    if (c instanceof RclCommand.SuspendLogTransfer s) {
      server.suspendLogTransfer(s.dataserver(), s.database());
    } else if (c instanceof RclCommand.ResumeLogTransfer s) {
      server.resumeLogTransfer(s.dataserver(), s.database());
    } else if (c instanceof RclCommand.SuspendConnection s) {
      server.suspendConnection(s.dataserver(), s.database());
    } else if (c instanceof RclCommand.ResumeConnection s) {
      boolean skip = false;
      if (s.option().isPresent()) {
        if (!(s.option().get() instanceof ResumeOption.SkipTransactions skips)) {
          throw new UnsupportedOperationException(
              "resume connection ... execute transaction: this server applies no system"
                  + " transactions (DDL comes as ordinary commands), so there is nothing to"
                  + " execute; use resume connection or resume connection ... skip transaction");
        }
        if (skips.count() != 1) {
          throw new UnsupportedOperationException(
              "resume connection ... skip "
                  + skips.count()
                  + " transaction: skip one transaction at a time (each goes to the exceptions"
                  + " log; rs_helpexception lists them)");
        }
        skip = true;
      }
      server.resumeConnection(s.dataserver(), s.database(), skip);
      if (skip) {
        return PgResult.command(c.commandTag())
            .withNotice(
                "the DSI of "
                    + s.dataserver()
                    + "."
                    + s.database()
                    + " resumes by writing the first transaction not yet applied to the exceptions"
                    + " log instead of applying it (rs_helpexception lists it)");
      }
    } else if (c instanceof RclCommand.ResumeDistributor s) {
      server.resumeDistributor(s.dataserver(), s.database());
    } else if (c instanceof RclCommand.ConfigureServer s) {
      Parameter p;
      String value;
      try {
        p = parameterCatalog.requireForCommand(s.setting().name(), Scope.SERVER);
        value = p.normalize(s.setting().value());
      } catch (RuntimeException e) {
        throw new PgException(
            AdminErrors.of(e, 0).sqlState(), e.getMessage(), s.setting().position());
      }
      catalog.setServerValue(p.name(), value);
      return PgResult.command(c.commandTag())
          .withNotice(
              p.name()
                  + " set to '"
                  + value
                  + "' and saved in the RSSD; "
                  + (p.takesEffect() == TakesEffect.IMMEDIATELY
                      ? "it takes effect when the module next reads it"
                      : "it takes effect " + p.takesEffect().wording()));
    } else if (c instanceof RclCommand.AdminConfig a) {
      return config(a);
    } else if (c instanceof RclCommand.SysadminDumpQueue d) {
      return dump(d);
    } else if (c instanceof RclCommand.SysadminPurgeQueue d) {
      purge(d);
    } else if (c instanceof RclCommand.RsTicket t) {
      return ticket(t);
    } else if (c instanceof RclCommand.Shutdown) {
      // Stop once the answer is on the wire, on a thread of its own: closing the server closes
      // the admin port this session runs on.
      session.afterReadyForQuery(
          () -> {
            Thread t = ThreadNames.factory("repserver", "admin", "shutdown").newThread(onShutdown);
            t.setDaemon(false); // as before: the exit runs to its end
            t.start();
          });
      return PgResult.command(c.commandTag()).withNotice("the server is shutting down");
    } else {
      throw new IllegalStateException("not a control command: " + c.kind());
    }
    return PgResult.command(c.commandTag());
  }

  /**
   * {@code rs_ticket}: issued in every primary database the server has login settings for, through
   * the routine its agent created there; the ticket then travels with that primary's log.
   */
  private PgResult ticket(RclCommand.RsTicket t) throws PgException {
    List<String> issued = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    for (ConnectionDef c : catalog.view().connections()) {
      if (!c.logTransfer()) {
        continue;
      }
      try {
        RsTicketCall.issue(catalog.view().targetOf(c), t.headers());
        issued.add(c.name());
      } catch (Exception e) {
        problems.add(c.name() + ": " + e.getMessage());
      }
    }
    if (issued.isEmpty()) {
      throw new PgException(
          AdminErrors.NOT_IN_PREREQUISITE_STATE,
          "rs_ticket was issued at no primary"
              + (problems.isEmpty() ? " (there is no connection with log transfer)" : ": ")
              + String.join("; ", problems)
              + ". It can also be called in the primary database: on PostgreSQL SELECT"
              + " rs_ticket('h1' [, 'h2' [, 'h3' [, 'h4']]]), on MariaDB/MySQL CALL"
              + " rs_ticket('h1', 'h2', NULL, NULL); the agent creates the routine (see"
              + " docs/repagent.md#rs_ticket)");
    }
    PgResult r =
        PgResult.command(t.commandTag())
            .withNotice(
                "rs_ticket issued at "
                    + String.join(", ", issued)
                    + "; admin ticket_history shows it once a replicate with"
                    + " dsi_rs_ticket_report on has applied it");
    if (!problems.isEmpty()) {
      r = r.withNotice("not issued at " + String.join("; ", problems));
    }
    return r;
  }

  private PgResult config(RclCommand.AdminConfig a) throws PgException {
    Table t =
        new Table()
            .text("parameter")
            .text("value")
            .text("default")
            .text("range")
            .text("scope")
            .text("takes_effect")
            .text("source");
    List<Parameter> params;
    if (a.parameter().isPresent()) {
      try {
        params = List.of(parameterCatalog.require(a.parameter().get()));
      } catch (RuntimeException e) {
        throw AdminErrors.of(e, 0);
      }
    } else {
      params = parameterCatalog.inScope(Scope.SERVER);
    }
    for (Parameter p : params) {
      boolean saved = catalog.view().savedServerValues().containsKey(p.name());
      boolean fromFile = server.fileParameters().explicitValue(p.name()).isPresent();
      String value =
          p.settableAt(Scope.SERVER) ? server.parameters().get(p.name()) : p.defaultValue();
      t.row(
          p.name(),
          value,
          p.defaultLabel(),
          p.rangeLabel(),
          p.scopeLabel(),
          p.takesEffect().label(),
          saved ? "rssd" : fromFile ? "file" : "default");
    }
    return t.result("ADMIN CONFIG");
  }

  private StableQueue queue(io.openrs.queue.QueueId id) throws PgException {
    return server
        .queue(id)
        .orElseThrow(
            () -> new PgException(AdminErrors.UNDEFINED_OBJECT, "no queue " + id + " is open"));
  }

  private PgResult dump(RclCommand.SysadminDumpQueue d) throws PgException {
    StableQueue q = queue(d.queue());
    int count = d.count().orElse(100);
    List<QueueMessage> messages =
        d.first().isPresent() ? q.dump(d.first().get(), count) : q.dumpFromStart(count);
    PackedDecoder decoder = new PackedDecoder();
    LtlWriter writer = new LtlWriter();
    Table t = new Table().text("position").int4("origin").text("command");
    for (QueueMessage m : messages) {
      Integer origin = null;
      Optional<LtlCommand> cmd;
      try {
        if (d.queue().type() == QueueType.OUTBOUND) {
          origin = OriginEnvelope.originOf(m.payload());
          cmd = OriginEnvelope.commandOf(m.payload(), decoder);
        } else {
          origin = d.queue().number();
          cmd = decoder.decode(m.payload());
        }
      } catch (PackedFormatException e) {
        t.row(m.position().toString(), origin, "(undecodable: " + e.getMessage() + ")");
        continue;
      }
      t.row(
          m.position().toString(),
          origin,
          cmd.map(writer::toText).orElse("(a command kind this version does not know)"));
    }
    return t.result("SYSADMIN DUMP_QUEUE");
  }

  private void purge(RclCommand.SysadminPurgeQueue d) throws PgException {
    StableQueue q = queue(d.queue());
    ConnectionDef c =
        catalog
            .view()
            .connection(d.queue().number())
            .orElseThrow(
                () ->
                    new PgException(
                        AdminErrors.UNDEFINED_OBJECT, "no connection " + d.queue().number()));
    if (d.queue().type() == QueueType.INBOUND) {
      OriginPipeline p = server.origins().get(c.id());
      if (p != null && p.state().logTransfer().running()) {
        throw new PgException(
            AdminErrors.NOT_IN_PREREQUISITE_STATE,
            "inbound queue "
                + d.queue()
                + " of "
                + c.name()
                + " is in use: suspend log transfer from "
                + c.name()
                + " first (the purge loses every command in it)");
      }
    } else if (c.state() != ConnectionState.SUSPENDED) {
      throw new PgException(
          AdminErrors.NOT_IN_PREREQUISITE_STATE,
          "outbound queue "
              + d.queue()
              + " of "
              + c.name()
              + " is in use: suspend connection to "
              + c.name()
              + " first (the purge loses every command in it)");
    }
    q.purge().join();
  }
}
