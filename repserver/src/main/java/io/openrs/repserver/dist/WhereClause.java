package io.openrs.repserver.dist;

import io.openrs.ltl.Value;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * A subscription's where clause over a row's columns, parsed once by a recursive-descent parser and
 * evaluated against row images with SQL's three-valued logic (a comparison with null is unknown; a
 * row belongs to the subscription only when the clause is true).
 *
 * <pre>
 * clause     := or
 * or         := and ( OR and )*
 * and        := not ( AND not )*
 * not        := NOT not | '(' or ')' | predicate
 * predicate  := column ( op literal
 *                      | [NOT] IN '(' literal ( ',' literal )* ')'
 *                      | [NOT] BETWEEN literal AND literal
 *                      | IS [NOT] NULL )
 * op         := '=' | '<>' | '!=' | '<' | '>' | '<=' | '>='
 * literal    := number | 'string' | TRUE | FALSE
 * column     := identifier | "quoted identifier"
 * </pre>
 *
 * Keywords are case-insensitive; unquoted column names are folded to lower case. Typed comparison:
 * numbers with every numeric column type; strings with text, and with date, time, timestamp, uuid
 * columns (the string is parsed as that type); true/false with boolean columns.
 */
public final class WhereClause {

  /** A where clause that could not be parsed; names the offending word and its position. */
  public static final class WhereClauseException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final int position;

    WhereClauseException(String message, int position) {
      super(message);
      this.position = position;
    }

    /** 1-based character position in the clause. */
    public int position() {
      return position;
    }
  }

  /** A row value could not be compared with the clause (its type does not fit, or it is absent). */
  public static final class EvaluationException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    EvaluationException(String message) {
      super(message);
    }
  }

  private enum Truth {
    TRUE,
    FALSE,
    UNKNOWN;

    Truth not() {
      return this == TRUE ? FALSE : this == FALSE ? TRUE : UNKNOWN;
    }

    static Truth of(boolean b) {
      return b ? TRUE : FALSE;
    }
  }

  private sealed interface Node permits Or, And, Not, Compare, In, Between, IsNull {
    Truth eval(Function<String, Optional<Value>> row);
  }

  private record Or(List<Node> parts) implements Node {
    public Truth eval(Function<String, Optional<Value>> row) {
      Truth result = Truth.FALSE;
      for (Node n : parts) {
        Truth t = n.eval(row);
        if (t == Truth.TRUE) {
          return Truth.TRUE;
        }
        if (t == Truth.UNKNOWN) {
          result = Truth.UNKNOWN;
        }
      }
      return result;
    }
  }

  private record And(List<Node> parts) implements Node {
    public Truth eval(Function<String, Optional<Value>> row) {
      Truth result = Truth.TRUE;
      for (Node n : parts) {
        Truth t = n.eval(row);
        if (t == Truth.FALSE) {
          return Truth.FALSE;
        }
        if (t == Truth.UNKNOWN) {
          result = Truth.UNKNOWN;
        }
      }
      return result;
    }
  }

  private record Not(Node inner) implements Node {
    public Truth eval(Function<String, Optional<Value>> row) {
      return inner.eval(row).not();
    }
  }

  private record Literal(Object value, String text) {}

  private record Compare(String column, String op, Literal literal) implements Node {
    public Truth eval(Function<String, Optional<Value>> row) {
      Value v = lookup(row, column);
      if (v instanceof Value.Null) {
        return Truth.UNKNOWN;
      }
      int c = compare(column, v, literal);
      switch (op) {
        case "=":
          return Truth.of(c == 0);
        case "<>":
          return Truth.of(c != 0);
        case "<":
          return Truth.of(c < 0);
        case ">":
          return Truth.of(c > 0);
        case "<=":
          return Truth.of(c <= 0);
        default:
          return Truth.of(c >= 0);
      }
    }
  }

  private record In(String column, List<Literal> values, boolean negated) implements Node {
    public Truth eval(Function<String, Optional<Value>> row) {
      Value v = lookup(row, column);
      if (v instanceof Value.Null) {
        return Truth.UNKNOWN;
      }
      boolean found = false;
      for (Literal l : values) {
        if (compare(column, v, l) == 0) {
          found = true;
          break;
        }
      }
      return Truth.of(found != negated);
    }
  }

  private record Between(String column, Literal low, Literal high, boolean negated)
      implements Node {
    public Truth eval(Function<String, Optional<Value>> row) {
      Value v = lookup(row, column);
      if (v instanceof Value.Null) {
        return Truth.UNKNOWN;
      }
      boolean in = compare(column, v, low) >= 0 && compare(column, v, high) <= 0;
      return Truth.of(in != negated);
    }
  }

  private record IsNull(String column, boolean negated) implements Node {
    public Truth eval(Function<String, Optional<Value>> row) {
      boolean isNull = lookup(row, column) instanceof Value.Null;
      return Truth.of(isNull != negated);
    }
  }

  private final String text;
  private final Node root;
  private final Set<String> columns;

  private WhereClause(String text, Node root, Set<String> columns) {
    this.text = text;
    this.root = root;
    this.columns = java.util.Collections.unmodifiableSet(new LinkedHashSet<>(columns));
  }

  /**
   * Parses a where clause.
   *
   * @throws WhereClauseException naming the offending word and its position
   */
  public static WhereClause parse(String text) {
    Parser p = new Parser(text);
    Node root = p.or();
    if (p.peek().kind != TokenKind.END) {
      Token t = p.peek();
      throw new WhereClauseException(
          "where clause: unexpected '" + t.text + "' at position " + t.position, t.position);
    }
    return new WhereClause(text, root, p.columns);
  }

  /** The columns the clause reads. */
  public Set<String> columns() {
    return columns;
  }

  /**
   * Whether the row satisfies the clause.
   *
   * @param row the row's values by column name (as named in the clause, lower case unless quoted)
   * @throws EvaluationException when a column is absent from the row or its value cannot be
   *     compared with the clause's literal
   */
  public boolean matches(Function<String, Optional<Value>> row) {
    return root.eval(row) == Truth.TRUE;
  }

  @Override
  public String toString() {
    return text;
  }

  // ---- evaluation ------------------------------------------------------------------------

  private static Value lookup(Function<String, Optional<Value>> row, String column) {
    Optional<Value> v = row.apply(column);
    if (v.isEmpty() || v.get() instanceof Value.Unchanged) {
      throw new EvaluationException(
          "the row image does not carry column "
              + column
              + " that the where clause reads"
              + (v.isPresent() ? " (its value was not provided by the source)" : ""));
    }
    return v.get();
  }

  private static int compare(String column, Value v, Literal l) {
    Object lit = l.value();
    if (lit instanceof BigDecimal n) {
      Optional<BigDecimal> value = numeric(v);
      if (value.isPresent()) {
        return value.get().compareTo(n);
      }
    } else if (lit instanceof Boolean b) {
      if (v instanceof Value.Bool vb) {
        return Boolean.compare(vb.value(), b);
      }
    } else if (lit instanceof String s) {
      try {
        if (v instanceof Value.Text t) {
          return t.value().compareTo(s);
        } else if (v instanceof Value.Date d) {
          return d.value().compareTo(LocalDate.parse(s));
        } else if (v instanceof Value.Time t) {
          return t.value().compareTo(LocalTime.parse(s));
        } else if (v instanceof Value.Timestamp t) {
          return t.value().compareTo(LocalDateTime.parse(s.replace(' ', 'T')));
        } else if (v instanceof Value.TimestampTz t) {
          return t.value()
              .toInstant()
              .compareTo(OffsetDateTime.parse(s.replace(' ', 'T')).toInstant());
        } else if (v instanceof Value.Uuid u) {
          return u.value().compareTo(UUID.fromString(s));
        }
      } catch (RuntimeException e) {
        throw new EvaluationException(
            "where clause literal "
                + l.text()
                + " is not a valid value for column "
                + column
                + " of type "
                + typeName(v)
                + ": "
                + e.getMessage());
      }
    }
    throw new EvaluationException(
        "where clause compares column "
            + column
            + " of type "
            + typeName(v)
            + " with "
            + l.text()
            + ", which is not of a comparable type");
  }

  private static Optional<BigDecimal> numeric(Value v) {
    if (v instanceof Value.Int16 i) {
      return Optional.of(BigDecimal.valueOf(i.value()));
    } else if (v instanceof Value.Int32 i) {
      return Optional.of(BigDecimal.valueOf(i.value()));
    } else if (v instanceof Value.Int64 i) {
      return Optional.of(BigDecimal.valueOf(i.value()));
    } else if (v instanceof Value.Decimal d) {
      return Optional.of(d.value());
    } else if (v instanceof Value.Float32 f && Float.isFinite(f.value())) {
      return Optional.of(new BigDecimal(Float.toString(f.value())));
    } else if (v instanceof Value.Float64 f && Double.isFinite(f.value())) {
      return Optional.of(BigDecimal.valueOf(f.value()));
    }
    return Optional.empty();
  }

  private static String typeName(Value v) {
    return v.getClass().getSimpleName().toLowerCase(Locale.ROOT);
  }

  // ---- parsing ---------------------------------------------------------------------------

  private enum TokenKind {
    WORD,
    QUOTED_NAME,
    STRING,
    NUMBER,
    SYMBOL,
    END
  }

  private record Token(TokenKind kind, String text, int position) {
    boolean isKeyword(String k) {
      return kind == TokenKind.WORD && text.equalsIgnoreCase(k);
    }

    boolean isSymbol(String s) {
      return kind == TokenKind.SYMBOL && text.equals(s);
    }
  }

  /**
   * Most NOTs and parentheses one inside another: the parser recurses once per level, so a deeper
   * clause (a 1 MiB statement of {@code (((...} would otherwise overflow the stack) is refused.
   */
  public static final int MAX_NESTING = 100;

  private static final class Parser {
    private final List<Token> tokens;
    private int index;
    private int depth;
    final Set<String> columns = new LinkedHashSet<>();

    Parser(String text) {
      this.tokens = tokenize(text);
    }

    Token peek() {
      return tokens.get(index);
    }

    Token take() {
      return tokens.get(index++);
    }

    WhereClauseException error(Token t, String expected) {
      String found = t.kind == TokenKind.END ? "end of clause" : "'" + t.text + "'";
      return new WhereClauseException(
          "where clause: expected " + expected + " at position " + t.position + ", found " + found,
          t.position);
    }

    Node or() {
      List<Node> parts = new ArrayList<>();
      parts.add(and());
      while (peek().isKeyword("or")) {
        take();
        parts.add(and());
      }
      return parts.size() == 1 ? parts.get(0) : new Or(parts);
    }

    Node and() {
      List<Node> parts = new ArrayList<>();
      parts.add(not());
      while (peek().isKeyword("and")) {
        take();
        parts.add(not());
      }
      return parts.size() == 1 ? parts.get(0) : new And(parts);
    }

    Node not() {
      if (!peek().isKeyword("not") && !peek().isSymbol("(")) {
        return predicate();
      }
      Token t = take();
      if (++depth > MAX_NESTING) {
        throw new WhereClauseException(
            "where clause: NOT and parentheses nest deeper than "
                + MAX_NESTING
                + " levels at position "
                + t.position,
            t.position);
      }
      Node node;
      if (t.isKeyword("not")) {
        node = new Not(not());
      } else {
        node = or();
        expectSymbol(")");
      }
      depth--;
      return node;
    }

    Node predicate() {
      Token c = take();
      String column;
      if (c.kind == TokenKind.QUOTED_NAME) {
        column = c.text;
      } else if (c.kind == TokenKind.WORD && !isReserved(c.text)) {
        column = c.text.toLowerCase(Locale.ROOT);
      } else {
        throw error(c, "a column name");
      }
      columns.add(column);
      Token t = take();
      if (t.kind == TokenKind.SYMBOL && isComparison(t.text)) {
        return new Compare(column, t.text.equals("!=") ? "<>" : t.text, literal());
      }
      boolean negated = false;
      if (t.isKeyword("not")) {
        negated = true;
        t = take();
      }
      if (t.isKeyword("in")) {
        expectSymbol("(");
        List<Literal> values = new ArrayList<>();
        values.add(literal());
        while (peek().isSymbol(",")) {
          take();
          values.add(literal());
        }
        expectSymbol(")");
        return new In(column, values, negated);
      }
      if (t.isKeyword("between")) {
        Literal low = literal();
        Token and = take();
        if (!and.isKeyword("and")) {
          throw error(and, "AND of BETWEEN");
        }
        return new Between(column, low, literal(), negated);
      }
      if (!negated && t.isKeyword("is")) {
        boolean isNot = false;
        if (peek().isKeyword("not")) {
          take();
          isNot = true;
        }
        Token n = take();
        if (!n.isKeyword("null")) {
          throw error(n, "NULL");
        }
        return new IsNull(column, isNot);
      }
      throw error(
          t, negated ? "IN or BETWEEN" : "a comparison (=, <>, <, >, <=, >=, IN, BETWEEN, IS)");
    }

    Literal literal() {
      Token t = take();
      switch (t.kind) {
        case NUMBER:
          return new Literal(new BigDecimal(t.text), t.text);
        case STRING:
          return new Literal(t.text, "'" + t.text.replace("'", "''") + "'");
        case WORD:
          if (t.text.equalsIgnoreCase("true") || t.text.equalsIgnoreCase("false")) {
            return new Literal(Boolean.valueOf(t.text.toLowerCase(Locale.ROOT)), t.text);
          }
          if (t.text.equalsIgnoreCase("null")) {
            throw new WhereClauseException(
                "where clause: comparing with NULL at position "
                    + t.position
                    + " is never true; write IS NULL or IS NOT NULL",
                t.position);
          }
          throw error(t, "a literal (number, 'string', true, false)");
        default:
          throw error(t, "a literal (number, 'string', true, false)");
      }
    }

    void expectSymbol(String s) {
      Token t = take();
      if (!t.isSymbol(s)) {
        throw error(t, "'" + s + "'");
      }
    }

    private static boolean isComparison(String s) {
      return s.equals("=")
          || s.equals("<>")
          || s.equals("!=")
          || s.equals("<")
          || s.equals(">")
          || s.equals("<=")
          || s.equals(">=");
    }

    private static boolean isReserved(String w) {
      String l = w.toLowerCase(Locale.ROOT);
      return l.equals("and")
          || l.equals("or")
          || l.equals("not")
          || l.equals("in")
          || l.equals("between")
          || l.equals("is")
          || l.equals("null")
          || l.equals("true")
          || l.equals("false");
    }

    private static List<Token> tokenize(String s) {
      List<Token> out = new ArrayList<>();
      int i = 0;
      int n = s.length();
      while (i < n) {
        char ch = s.charAt(i);
        int pos = i + 1;
        if (Character.isWhitespace(ch)) {
          i++;
        } else if (ch == '\'' || ch == '"') {
          StringBuilder b = new StringBuilder();
          int j = i + 1;
          while (true) {
            if (j >= n) {
              throw new WhereClauseException(
                  "where clause: unterminated "
                      + (ch == '\'' ? "string" : "quoted name")
                      + " starting at position "
                      + pos,
                  pos);
            }
            char c = s.charAt(j);
            if (c == ch) {
              if (j + 1 < n && s.charAt(j + 1) == ch) {
                b.append(ch);
                j += 2;
                continue;
              }
              break;
            }
            b.append(c);
            j++;
          }
          out.add(
              new Token(ch == '\'' ? TokenKind.STRING : TokenKind.QUOTED_NAME, b.toString(), pos));
          i = j + 1;
        } else if (Character.isDigit(ch)
            || ((ch == '-' || ch == '+' || ch == '.')
                && i + 1 < n
                && (Character.isDigit(s.charAt(i + 1)) || s.charAt(i + 1) == '.'))) {
          int j = i + 1;
          while (j < n
              && (Character.isDigit(s.charAt(j))
                  || s.charAt(j) == '.'
                  || s.charAt(j) == 'e'
                  || s.charAt(j) == 'E'
                  || ((s.charAt(j) == '-' || s.charAt(j) == '+')
                      && (s.charAt(j - 1) == 'e' || s.charAt(j - 1) == 'E')))) {
            j++;
          }
          String num = s.substring(i, j);
          try {
            new BigDecimal(num);
          } catch (NumberFormatException e) {
            throw new WhereClauseException(
                "where clause: '" + num + "' at position " + pos + " is not a number", pos);
          }
          out.add(new Token(TokenKind.NUMBER, num, pos));
          i = j;
        } else if (Character.isLetter(ch) || ch == '_') {
          int j = i + 1;
          while (j < n
              && (Character.isLetterOrDigit(s.charAt(j))
                  || s.charAt(j) == '_'
                  || s.charAt(j) == '$')) {
            j++;
          }
          out.add(new Token(TokenKind.WORD, s.substring(i, j), pos));
          i = j;
        } else if (ch == '<' || ch == '>' || ch == '!') {
          if (i + 1 < n && (s.charAt(i + 1) == '=' || (ch == '<' && s.charAt(i + 1) == '>'))) {
            out.add(new Token(TokenKind.SYMBOL, s.substring(i, i + 2), pos));
            i += 2;
          } else if (ch == '!') {
            throw new WhereClauseException(
                "where clause: unexpected '!' at position " + pos + " (write != or <>)", pos);
          } else {
            out.add(new Token(TokenKind.SYMBOL, String.valueOf(ch), pos));
            i++;
          }
        } else if (ch == '=' || ch == '(' || ch == ')' || ch == ',') {
          out.add(new Token(TokenKind.SYMBOL, String.valueOf(ch), pos));
          i++;
        } else {
          throw new WhereClauseException(
              "where clause: unexpected character '" + ch + "' at position " + pos, pos);
        }
      }
      out.add(new Token(TokenKind.END, "", n + 1));
      return out;
    }
  }
}
