package io.openrs.repserver.admin;

import io.openrs.config.rssd.ConnectionDef;
import io.openrs.config.rssd.ExceptionEntry;
import io.openrs.config.rssd.ExceptionHeader;
import io.openrs.config.rssd.ExceptionsLog;
import io.openrs.pgwire.PgException;
import io.openrs.pgwire.PgResult;
import io.openrs.repserver.admin.rcl.RclCommand;
import io.openrs.repserver.catalog.Catalog;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;

/**
 * The exceptions log ({@code rs_exceptshdr}, {@code rs_exceptscmd}): {@code rs_helpexception} lists
 * it or shows one logged transaction, {@code rs_delexception} and {@code rs_delexception_id} delete
 * entries. The DSI writes the entries (error action {@code log} or {@code retry_log}, {@code resume
 * connection ... skip transaction}).
 */
final class ExceptionLogCommands {

  /** {@code rs_helpexception} without an id lists at most this many entries, the oldest first. */
  static final int LIST_LIMIT = 1000;

  private static final HexFormat HEX = HexFormat.of();

  private final Catalog catalog;

  ExceptionLogCommands(Catalog catalog) {
    this.catalog = catalog;
  }

  PgResult execute(RclCommand c) throws PgException {
    if (c instanceof RclCommand.RsHelpException h) {
      return h.id().isPresent() ? detail(h.id().getAsLong(), h.verbose()) : list();
    } else if (c instanceof RclCommand.RsDelException d) {
      if (d.first() == d.last()) {
        catalog.deleteException(d.first());
        return PgResult.command(c.commandTag())
            .withNotice("logged transaction " + d.first() + " deleted");
      }
      int n = catalog.deleteExceptions(d.first(), d.last());
      return PgResult.command(c.commandTag())
          .withNotice(
              n + " logged transactions deleted (ids " + d.first() + " to " + d.last() + ")");
    }
    throw new IllegalStateException("not an exceptions log command: " + c.kind());
  }

  private static Table header() {
    return new Table()
        .int8("id")
        .text("origin")
        .text("replicate")
        .text("origin_qid")
        .text("tran_id")
        .text("error")
        .timestamptz("logged")
        .int4("commands");
  }

  private PgResult list() {
    Map<Integer, String> names = connectionNames();
    Table t = header();
    for (ExceptionHeader h : catalog.view().exceptionHeaders(LIST_LIMIT)) {
      t.row(
          h.id(),
          name(names, h.originConnectionId()),
          name(names, h.replicateConnectionId()),
          oqid(h.originOqid()),
          h.tranId().isEmpty() ? null : h.tranId(),
          h.error(),
          h.logged(),
          h.commandCount().isPresent() ? h.commandCount().getAsInt() : null);
    }
    long total = catalog.view().exceptionCount();
    if (total > LIST_LIMIT) {
      t.notice(
          "showing the oldest "
              + LIST_LIMIT
              + " of "
              + total
              + " logged transactions; rs_delexception_id <first>, <last> deletes handled ones");
    }
    return t.result(RclCommand.Kind.RS_HELPEXCEPTION.tag());
  }

  private PgResult detail(long id, boolean verbose) throws PgException {
    ExceptionEntry e =
        catalog
            .view()
            .exception(id)
            .orElseThrow(
                () ->
                    new PgException(
                        AdminErrors.UNDEFINED_OBJECT, "no logged transaction with id " + id));
    ExceptionHeader h = e.header();
    Map<Integer, String> names = connectionNames();
    Table t = header();
    if (verbose) {
      t.text("command_text");
    }
    Object[] row = {
      e.id(),
      name(names, h.originConnectionId()),
      name(names, h.replicateConnectionId()),
      oqid(h.originOqid()),
      h.tranId().isEmpty() ? null : h.tranId(),
      h.error(),
      h.logged(),
      ExceptionsLog.countCommands(e.commandText()),
      e.commandText()
    };
    t.row(verbose ? row : java.util.Arrays.copyOf(row, row.length - 1));
    return t.result(RclCommand.Kind.RS_HELPEXCEPTION.tag());
  }

  private Map<Integer, String> connectionNames() {
    Map<Integer, String> names = new HashMap<>();
    for (ConnectionDef c : catalog.view().connections()) {
      names.put(c.id(), c.name());
    }
    return names;
  }

  /** {@code ds.db}, or the id and {@code (dropped)}: the log outlives its connections. */
  private static String name(Map<Integer, String> names, int id) {
    String n = names.get(id);
    return n != null ? n : id + " (dropped)";
  }

  private static String oqid(byte[] oqid) {
    return oqid.length == 0 ? null : "0x" + HEX.formatHex(oqid);
  }
}
