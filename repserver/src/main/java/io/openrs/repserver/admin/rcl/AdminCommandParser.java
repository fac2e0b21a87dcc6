package io.openrs.repserver.admin.rcl;

import io.openrs.queue.QueueId;
import io.openrs.queue.QueuePosition;
import io.openrs.queue.QueueType;
import io.openrs.repserver.admin.rcl.RclCommand.AdminConfig;
import io.openrs.repserver.admin.rcl.RclCommand.AdminDiskSpace;
import io.openrs.repserver.admin.rcl.RclCommand.AdminEcho;
import io.openrs.repserver.admin.rcl.RclCommand.AdminHealth;
import io.openrs.repserver.admin.rcl.RclCommand.AdminShowConnections;
import io.openrs.repserver.admin.rcl.RclCommand.AdminStats;
import io.openrs.repserver.admin.rcl.RclCommand.AdminTicketHistory;
import io.openrs.repserver.admin.rcl.RclCommand.AdminVersion;
import io.openrs.repserver.admin.rcl.RclCommand.AdminWho;
import io.openrs.repserver.admin.rcl.RclCommand.AdminWhoIsDown;
import io.openrs.repserver.admin.rcl.RclCommand.RsTicket;
import io.openrs.repserver.admin.rcl.RclCommand.SysadminDumpQueue;
import io.openrs.repserver.admin.rcl.RclCommand.SysadminPurgeQueue;
import io.openrs.repserver.admin.rcl.RclLexer.Kind;
import io.openrs.repserver.admin.rcl.RclLexer.Token;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The status and maintenance commands of the grammar in {@link RclParser}: {@code admin ...}
 * (including {@code admin stats} in all its forms), {@code sysadmin ...} and {@code rs_ticket}.
 */
final class AdminCommandParser {

  static final List<String> ADMIN_WORDS =
      List.of(
          "config",
          "disk_space",
          "echo",
          "health",
          "show_connections",
          "show_error_class",
          "statistics",
          "stats",
          "ticket_history",
          "version",
          "who",
          "who_is_down");

  private static final List<String> STATS_ACTIONS =
      List.of("backlog", "tps", "cps", "bps", "reset", "status", "cancel");

  private AdminCommandParser() {}

  private static RclCommand noArguments(RclCursor in, RclCommand command) {
    in.next();
    return command;
  }

  static RclCommand admin(RclCursor in) throws RclSyntaxException {
    in.next();
    Token word = in.peek();
    String w = word.kind() == Kind.IDENT ? word.text() : "";
    switch (w) {
      case "who":
        in.next();
        return new AdminWho(
            in.acceptSymbol(',')
                ? Optional.of(in.lowerWord("a module name (dist, dsi, rep, sqm, sqt)", 0))
                : Optional.empty());
      case "who_is_down":
        return noArguments(in, new AdminWhoIsDown());
      case "disk_space":
        return noArguments(in, new AdminDiskSpace());
      case "version":
        return noArguments(in, new AdminVersion());
      case "health":
        return noArguments(in, new AdminHealth());
      case "show_connections":
        return noArguments(in, new AdminShowConnections());
      case "show_error_class":
        in.next();
        return ErrorClassParser.adminShowErrorClass(in);
      case "echo":
        in.next();
        return new AdminEcho(in.acceptSymbol(',') || in.atValue() ? in.value("a text", 0) : "");
      case "config":
        in.next();
        return new AdminConfig(
            in.acceptSymbol(',') ? Optional.of(in.name("a parameter name", 0)) : Optional.empty());
      case "stats":
      case "statistics":
        in.next();
        return adminStats(in);
      case "ticket_history":
        in.next();
        return new AdminTicketHistory(
            in.acceptSymbol(',')
                ? OptionalInt.of(in.integer("a number of tickets", 1, Integer.MAX_VALUE, 0))
                : OptionalInt.empty());
      default:
        throw in.expectedKeywords(ADMIN_WORDS, 0);
    }
  }

  private static AdminStats adminStats(RclCursor in) throws RclSyntaxException {
    if (!in.acceptSymbol(',')) {
      return new AdminStats(
          StatsAction.SHOW,
          Optional.empty(),
          Optional.empty(),
          Optional.empty(),
          OptionalInt.empty(),
          OptionalInt.empty());
    }
    for (String action : STATS_ACTIONS) {
      if (in.acceptKeyword(action)) {
        return AdminStats.of(StatsAction.valueOf(action.toUpperCase(Locale.ROOT)));
      }
    }
    Optional<String> module = Optional.empty();
    Optional<QueueType> queueType = Optional.empty();
    Optional<String> instance = Optional.empty();
    boolean more = true;
    if (!in.atKeyword("display") && !in.atKeyword("save")) {
      module =
          Optional.of(
              in.lowerWord(
                  "\"all\", a module name, or one of " + String.join(", ", STATS_ACTIONS), 0));
      more = in.acceptSymbol(',');
      if (more && (in.atKeyword("inbound") || in.atKeyword("outbound"))) {
        queueType =
            Optional.of(
                in.next().text().equals("inbound") ? QueueType.INBOUND : QueueType.OUTBOUND);
        more = in.acceptSymbol(',');
      }
      if (more && !in.atKeyword("display") && !in.atKeyword("save")) {
        instance = Optional.of(statsInstance(in));
        more = in.acceptSymbol(',');
      }
    }
    StatsAction action = StatsAction.SHOW;
    OptionalInt observation = OptionalInt.empty();
    OptionalInt period = OptionalInt.empty();
    if (more) {
      if (in.acceptKeyword("display")) {
        if (in.acceptSymbol(',')) {
          observation = OptionalInt.of(seconds(in, "an observation interval in seconds"));
        }
      } else if (in.acceptKeyword("save")) {
        action = StatsAction.SAVE;
        if (in.acceptSymbol(',')) {
          observation = OptionalInt.of(seconds(in, "an observation interval in seconds"));
          if (in.acceptSymbol(',')) {
            period = OptionalInt.of(period(in));
          }
        }
      } else {
        throw in.expectedKeywords(List.of("display", "save"), 0);
      }
    }
    return new AdminStats(action, module, queueType, instance, observation, period);
  }

  private static String statsInstance(RclCursor in) throws RclSyntaxException {
    Token t = in.peek();
    if (t.kind() == Kind.NUMBER || t.kind() == Kind.STRING) {
      in.next();
      return t.text();
    }
    if (t.kind() == Kind.IDENT || t.kind() == Kind.QUOTED_IDENT) {
      String first = in.name("an instance", 0);
      return in.acceptSymbol('.') ? first + "." + in.name("a database name", 0) : first;
    }
    throw in.error("an instance id, 'inbound', 'outbound', 'display' or 'save'", 0, List.of());
  }

  private static int seconds(RclCursor in, String what) throws RclSyntaxException {
    return in.integer(what, 1, Integer.MAX_VALUE, 0);
  }

  /** A sample period: seconds, or {@code 'hh:mm[:ss]'} / {@code "hh:mm[:ss]"}. */
  private static int period(RclCursor in) throws RclSyntaxException {
    Token t = in.peek();
    if (t.kind() == Kind.NUMBER) {
      return seconds(in, "a sample period in seconds or as \"hh:mm[:ss]\"");
    }
    if ((t.kind() == Kind.STRING || t.kind() == Kind.QUOTED_IDENT)
        && t.text().matches("[0-9]{1,4}:[0-5][0-9](:[0-5][0-9])?")) {
      String[] parts = t.text().split(":");
      int seconds =
          Integer.parseInt(parts[0]) * 3600
              + Integer.parseInt(parts[1]) * 60
              + (parts.length == 3 ? Integer.parseInt(parts[2]) : 0);
      if (seconds > 0) {
        in.next();
        return seconds;
      }
    }
    throw in.error("a sample period in seconds or as \"hh:mm[:ss]\"", 0, List.of());
  }

  // ------------------------------------------------------------------- sysadmin

  static RclCommand sysadmin(RclCursor in) throws RclSyntaxException {
    in.next();
    if (in.acceptKeyword("dump_queue")) {
      in.expectSymbol(',', "','", 0);
      QueueId queue = queueId(in);
      Optional<QueuePosition> first = Optional.empty();
      OptionalInt count = OptionalInt.empty();
      if (in.acceptSymbol(',')) {
        first = Optional.of(queuePosition(in));
        if (in.acceptSymbol(',')) {
          count = OptionalInt.of(in.integer("a number of messages", 1, Integer.MAX_VALUE, 0));
        }
      }
      return new SysadminDumpQueue(queue, first, count);
    }
    if (in.acceptKeyword("sqm_purge_queue")) {
      in.expectSymbol(',', "','", 0);
      return new SysadminPurgeQueue(queueId(in));
    }
    throw in.expectedKeywords(List.of("dump_queue", "sqm_purge_queue"), 0);
  }

  private static QueueId queueId(RclCursor in) throws RclSyntaxException {
    int number = in.integer("a queue number", 0, Integer.MAX_VALUE, 0);
    in.expectSymbol(',', "',' and the queue type", 0);
    int type = in.integer("a queue type, 0 (outbound) or 1 (inbound)", 0, 1, 0);
    return new QueueId(number, QueueType.ofCode(type));
  }

  private static QueuePosition queuePosition(RclCursor in) throws RclSyntaxException {
    Token t = in.peek();
    String what = "a queue position <segment>[.<block>[.<row>]]";
    if ((t.kind() == Kind.NUMBER || t.kind() == Kind.STRING)
        && t.text().matches("[0-9]{1,18}(\\.[0-9]{1,9}){0,2}")) {
      String[] parts = t.text().split("\\.");
      long segment = Long.parseLong(parts[0]);
      long block = parts.length > 1 ? Long.parseLong(parts[1]) : 0;
      long row = parts.length > 2 ? Long.parseLong(parts[2]) : 0;
      if (block <= Integer.MAX_VALUE && row <= Integer.MAX_VALUE) {
        in.next();
        return new QueuePosition(segment, (int) block, (int) row);
      }
    }
    throw in.error(what, 0, List.of());
  }

  // ------------------------------------------------------------------ rs_ticket

  static RsTicket rsTicket(RclCursor in) throws RclSyntaxException {
    in.next();
    List<String> headers = new ArrayList<>();
    if (in.atValue()) {
      do {
        int n = headers.size() + 1;
        if (n > RsTicket.MAX_HEADERS) {
          throw in.error("end of command (rs_ticket takes at most 4 headers)", 0, List.of());
        }
        Token t = in.peek();
        String header = in.value("a header", 0);
        if (header.length() > RsTicket.maxHeaderLength(n)) {
          String expected =
              "header h" + n + " of at most " + RsTicket.maxHeaderLength(n) + " characters";
          throw new RclSyntaxException(
              t.position(),
              expected,
              t.raw(),
              "expected "
                  + expected
                  + ", found "
                  + RclCursor.quoteFound(t)
                  + " ("
                  + header.length()
                  + " characters)");
        }
        headers.add(header);
      } while (in.acceptSymbol(','));
    }
    return new RsTicket(headers);
  }
}
