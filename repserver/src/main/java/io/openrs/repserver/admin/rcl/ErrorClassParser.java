package io.openrs.repserver.admin.rcl;

import io.openrs.repserver.admin.rcl.RclCommand.AdminShowErrorClass;
import io.openrs.repserver.admin.rcl.RclCommand.AlterErrorClass;
import io.openrs.repserver.admin.rcl.RclCommand.AssignAction;
import io.openrs.repserver.admin.rcl.RclCommand.CreateErrorClass;
import io.openrs.repserver.admin.rcl.RclCommand.DropErrorClass;
import io.openrs.repserver.admin.rcl.RclCommand.RsDelException;
import io.openrs.repserver.admin.rcl.RclCommand.RsHelpError;
import io.openrs.repserver.admin.rcl.RclCommand.RsHelpException;
import io.openrs.repserver.admin.rcl.RclLexer.Kind;
import io.openrs.repserver.admin.rcl.RclLexer.Token;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * The error-class and exceptions-log commands of the grammar in {@link RclParser}: {@code
 * create/alter/drop error class}, {@code assign action}, {@code admin show_error_class}, {@code
 * rs_helperror}, {@code rs_helpexception}, {@code rs_delexception[_id]}, and the {@code set error
 * class [to] <class>} setting of {@code create/alter connection}.
 */
final class ErrorClassParser {

  /** What an error code looks like, for errors. */
  static final String CODE =
      "an error code (a vendor error number such as 1062, a five-character SQLSTATE such as 23505"
          + " or a two-character SQLSTATE class such as 23)";

  /**
   * A five- or two-character SQLSTATE (digits and upper-case letters) or a vendor number without
   * leading zeros; the same shapes the RSSD accepts ({@code ErrorClassDef.normalizeCode}).
   */
  private static final Pattern CODE_SHAPE =
      Pattern.compile("[0-9A-Z]{5}|[0-9A-Z]{2}|[1-9][0-9]{0,8}");

  private static final List<String> ACTIONS =
      List.of("ignore", "warn", "retry_log", "log", "retry_stop", "stop_replication");

  private ErrorClassParser() {}

  /** After {@code create error class}. */
  static CreateErrorClass create(RclCursor in) throws RclSyntaxException {
    String name = in.name("an error class name", 0);
    Optional<String> template = Optional.empty();
    if (in.atKeyword("set")) {
      template = Optional.of(setTemplate(in));
    }
    return new CreateErrorClass(name, template);
  }

  /** After {@code alter error class}. */
  static AlterErrorClass alter(RclCursor in) throws RclSyntaxException {
    String name = in.name("an error class name", 0);
    return new AlterErrorClass(name, setTemplate(in));
  }

  /** After {@code drop error class}. */
  static DropErrorClass drop(RclCursor in) throws RclSyntaxException {
    return new DropErrorClass(in.name("an error class name", 0));
  }

  /** {@code set template to <name>}. */
  private static String setTemplate(RclCursor in) throws RclSyntaxException {
    int start = in.index();
    in.expectKeyword("set", 0);
    in.expectKeyword("template", start);
    in.expectKeyword("to", start);
    return in.name("a template error class name", start);
  }

  /** {@code assign action <action> for <class> to <code> {, <code>}}. */
  static AssignAction assign(RclCursor in) throws RclSyntaxException {
    in.next();
    in.expectKeyword("action", 0);
    RclErrorAction action = null;
    for (String a : ACTIONS) {
      if (in.acceptKeyword(a)) {
        action = RclErrorAction.valueOf(a.toUpperCase(Locale.ROOT));
        break;
      }
    }
    if (action == null) {
      throw in.expectedKeywords(ACTIONS, 0);
    }
    in.expectKeyword("for", 0);
    String errorClass = in.name("an error class name", 0);
    int to = in.index();
    in.expectKeyword("to", 0);
    Map<String, Token> codes = new LinkedHashMap<>();
    do {
      Token t = in.peek();
      String code = code(in, to);
      Token first = codes.putIfAbsent(code, t);
      if (first != null) {
        throw new RclSyntaxException(
            t.position(),
            "each error code at most once",
            t.raw(),
            "error code " + code + " is listed twice (first at position " + first.position() + ")");
      }
    } while (in.acceptSymbol(','));
    return new AssignAction(action, errorClass, new ArrayList<>(codes.keySet()));
  }

  /**
   * An error code: a number, a {@code 'string'} or a bare word ({@code HY000}), upper-cased and
   * checked for shape; a bad one is named with its position.
   */
  private static String code(RclCursor in, int context) throws RclSyntaxException {
    Token t = in.peek();
    if (t.kind() != Kind.NUMBER && t.kind() != Kind.STRING && t.kind() != Kind.IDENT) {
      throw in.error(CODE, context, List.of());
    }
    String text = (t.kind() == Kind.STRING ? t.text() : t.raw()).trim().toUpperCase(Locale.ROOT);
    if (!CODE_SHAPE.matcher(text).matches()) {
      throw new RclSyntaxException(
          t.position(), CODE, t.raw(), "expected " + CODE + ", found " + RclCursor.quoteFound(t));
    }
    in.next();
    return text;
  }

  /** After {@code admin show_error_class}: {@code [[,] <class>]}. */
  static AdminShowErrorClass adminShowErrorClass(RclCursor in) throws RclSyntaxException {
    boolean comma = in.acceptSymbol(',');
    Token t = in.peek();
    if (comma || t.kind() == Kind.IDENT || t.kind() == Kind.QUOTED_IDENT) {
      return new AdminShowErrorClass(Optional.of(in.name("an error class name", 0)));
    }
    return new AdminShowErrorClass(Optional.empty());
  }

  /** {@code rs_helperror <code> [, <ds>.<db>]}. */
  static RsHelpError rsHelpError(RclCursor in) throws RclSyntaxException {
    in.next();
    String code = code(in, 0);
    if (in.acceptSymbol(',')) {
      String ds = in.name("a dataserver name (<dataserver>.<database>)", 0);
      in.expectSymbol('.', "'.' and a database name (<dataserver>.<database>)", 0);
      String db = in.name("a database name", 0);
      return new RsHelpError(code, Optional.of(ds), Optional.of(db));
    }
    return new RsHelpError(code, Optional.empty(), Optional.empty());
  }

  /** {@code rs_helpexception [<id> [, v]]}. */
  static RsHelpException rsHelpException(RclCursor in) throws RclSyntaxException {
    in.next();
    if (in.peek().kind() != Kind.NUMBER) {
      return new RsHelpException(OptionalLong.empty(), false);
    }
    long id = in.longInteger("an exceptions-log id", 1, 0);
    boolean verbose = false;
    if (in.acceptSymbol(',')) {
      Token v = in.peek();
      if (!v.isKeyword("v") && !(v.kind() == Kind.STRING && v.text().equalsIgnoreCase("v"))) {
        throw in.error("'v' (show the commands)", 0, List.of());
      }
      in.next();
      verbose = true;
    }
    return new RsHelpException(OptionalLong.of(id), verbose);
  }

  /** {@code rs_delexception <id>} or {@code rs_delexception_id <first> [, <last>]}. */
  static RsDelException rsDelException(RclCursor in) throws RclSyntaxException {
    boolean range = in.next().text().equals("rs_delexception_id");
    long first = in.longInteger(range ? "a first exceptions-log id" : "an exceptions-log id", 1, 0);
    long last = first;
    if (range && in.acceptSymbol(',')) {
      Token t = in.peek();
      last = in.longInteger("a last exceptions-log id", 1, 0);
      if (last < first) {
        String expected = "a last id at or above the first (" + first + ")";
        throw new RclSyntaxException(
            t.position(), expected, t.raw(), "expected " + expected + ", found '" + t.raw() + "'");
      }
    }
    return new RsDelException(first, last);
  }

  /**
   * At {@code error class [to] <class>} after {@code set} of {@code create/alter connection}: the
   * {@code error_class} setting.
   */
  static boolean atErrorClassSetting(RclCursor in) {
    return in.atKeyword("error") && in.peek(1).isKeyword("class");
  }

  /** {@code error class [to] <class>}; see {@link #atErrorClassSetting}. */
  static Setting errorClassSetting(RclCursor in, int start) throws RclSyntaxException {
    Token error = in.next();
    in.next();
    Token t = in.peek(1);
    if (in.atKeyword("to")
        && (t.kind() == Kind.IDENT
            || t.kind() == Kind.QUOTED_IDENT
            || (t.kind() == Kind.STRING && !t.text().isEmpty()))) {
      in.next();
    }
    Token name = in.peek();
    String value;
    if (name.kind() == Kind.STRING && !name.text().isEmpty()) {
      value = in.next().text();
    } else {
      value = in.name("an error class name", start);
    }
    return new Setting(Setting.ERROR_CLASS, value, error.position());
  }
}
