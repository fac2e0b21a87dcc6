package io.openrs.repserver.admin.rcl;

import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Writes AST parts back as RCL text for the commands' {@code toString()}. What it writes parses
 * back to the same command (secrets aside, which are written masked): names are quoted when they
 * would not survive case folding, values are always single-quoted.
 */
final class RclText {

  private static final Pattern BARE_NAME = Pattern.compile("[a-z_][a-z0-9_$]*");
  private static final String WORD = "[a-z_][a-z0-9_$]*";
  private static final String ARG = "[a-z0-9_$.\\-]+";
  private static final Pattern BARE_TYPE =
      Pattern.compile(WORD + "( " + WORD + ")*(\\(" + ARG + "(," + ARG + ")*\\))?( " + WORD + ")*");

  /** Words that end a datatype in a column definition, so a type containing them is quoted. */
  static final Set<String> TYPE_STOP_WORDS = Set.of("map", "null", "not", "as");

  private RclText() {}

  /** A name: bare when it is a lower-case identifier, else {@code "double-quoted"}. */
  static String ident(String name) {
    if (BARE_NAME.matcher(name).matches()) {
      return name;
    }
    return '"' + name.replace("\"", "\"\"") + '"';
  }

  /** A value as a single-quoted string literal. */
  static String literal(String value) {
    return '\'' + value.replace("'", "''") + '\'';
  }

  /** {@code ds.db}. */
  static String dbRef(String dataserver, String database) {
    return ident(dataserver) + "." + ident(database);
  }

  /** {@code (a, b, c)}. */
  static String names(List<String> names) {
    return names.stream().map(RclText::ident).collect(Collectors.joining(", ", "(", ")"));
  }

  /** {@code ('a', 'b')}. */
  static String literals(List<String> values) {
    return values.stream().map(RclText::literal).collect(Collectors.joining(", ", "(", ")"));
  }

  /** The {@code toString()} of each item, separated by {@code ", "}. */
  static String join(List<?> items) {
    return items.stream().map(Object::toString).collect(Collectors.joining(", "));
  }

  /** A datatype: bare when it would be parsed back to the same text, else {@code "quoted"}. */
  static String type(String type) {
    if (BARE_TYPE.matcher(type).matches()
        && Pattern.compile("[ (),]").splitAsStream(type).noneMatch(TYPE_STOP_WORDS::contains)) {
      return type;
    }
    return ident(type);
  }

  /** Checks a name field of a record: not null, not empty. */
  static String requireName(String name, String what) {
    Objects.requireNonNull(name, what);
    if (name.isEmpty()) {
      throw new IllegalArgumentException(what + " must not be empty");
    }
    return name;
  }

  /** An immutable copy of a list that must hold at least one element. */
  static <T> List<T> nonEmptyCopy(List<T> list, String what) {
    List<T> copy = List.copyOf(Objects.requireNonNull(list, what));
    if (copy.isEmpty()) {
      throw new IllegalArgumentException(what + " must not be empty");
    }
    return copy;
  }
}
