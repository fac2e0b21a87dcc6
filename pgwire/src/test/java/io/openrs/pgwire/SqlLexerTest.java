package io.openrs.pgwire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.openrs.pgwire.SqlLexer.Kind;
import io.openrs.pgwire.SqlLexer.Statement;
import io.openrs.pgwire.SqlLexer.Token;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Splitting query strings and finding tokens, one shape per test. */
class SqlLexerTest {
  private static List<String> texts(String sql) throws PgException {
    return SqlLexer.split(sql).stream().map(Statement::text).collect(Collectors.toList());
  }

  @Test
  void splitsAtSemicolonsAndDropsEmptyStatements() throws Exception {
    assertThat(texts("admin who; admin who, sqm ;;  "))
        .containsExactly("admin who", "admin who, sqm");
    assertThat(texts("")).isEmpty();
    assertThat(texts(" ; -- only a comment\n ; /* and another */")).isEmpty();
    List<Statement> parts = SqlLexer.split("a;  b");
    assertThat(parts.get(1).offset()).isEqualTo(4);
  }

  @Test
  void semicolonsInsideQuotesAndCommentsDoNotSplit() throws Exception {
    assertThat(texts("rs_ticket 'a;b'; x")).containsExactly("rs_ticket 'a;b'", "x");
    assertThat(texts("rs_ticket 'it''s;'; x")).containsExactly("rs_ticket 'it''s;'", "x");
    assertThat(texts("create \"odd;name\" x; y")).containsExactly("create \"odd;name\" x", "y");
    assertThat(texts("a -- c;mment\n b; c")).containsExactly("a -- c;mment\n b", "c");
    assertThat(texts("a /* x; /* nested; */ y; */ b; c"))
        .containsExactly("a /* x; /* nested; */ y; */ b", "c");
    assertThat(texts("a $$x;y$$; b $t$;$$;$t$; c"))
        .containsExactly("a $$x;y$$", "b $t$;$$;$t$", "c");
    assertThat(texts("a E'\\';'; b")).containsExactly("a E'\\';'", "b");
    // standard_conforming_strings: a backslash in '...' is just a backslash
    assertThat(texts("a '\\'; b")).containsExactly("a '\\'", "b");
  }

  @Test
  void unterminatedQuotesAndCommentsAreSyntaxErrorsWithPosition() {
    assertThatThrownBy(() -> SqlLexer.split("echo 'abc"))
        .isInstanceOfSatisfying(
            PgException.class,
            e -> {
              assertThat(e.sqlState()).isEqualTo("42601");
              assertThat(e.position()).isEqualTo(6);
              assertThat(e.getMessage()).startsWith("unterminated quoted string");
            });
    assertThatThrownBy(() -> SqlLexer.split("x \"abc"))
        .isInstanceOfSatisfying(PgException.class, e -> assertThat(e.position()).isEqualTo(3));
    assertThatThrownBy(() -> SqlLexer.split("x /* abc"))
        .isInstanceOfSatisfying(
            PgException.class,
            e -> assertThat(e.getMessage()).isEqualTo("unterminated /* comment"));
    assertThatThrownBy(() -> SqlLexer.split("x $a$ abc")).isInstanceOf(PgException.class);
  }

  /**
   * Found by PgProtocolFuzzTest (seed crash-95a9ddef...): {@code \U20000020} threw
   * IllegalArgumentException, {@code \UFFFFFFFF} NumberFormatException, out of the lexer.
   */
  @Test
  void aUnicodeEscapeBeyondU10ffffIsRefusedWithItsPosition() throws Exception {
    for (String escape : List.of("\\U20000020", "\\UFFFFFFFF", "\\U00110000")) {
      assertThatThrownBy(() -> SqlLexer.split("echo E'a" + escape + "'"))
          .as(escape)
          .isInstanceOfSatisfying(
              PgException.class,
              e -> {
                assertThat(e.sqlState()).isEqualTo("22025");
                assertThat(e.position()).isEqualTo(9);
                assertThat(e.getMessage())
                    .isEqualTo("invalid Unicode escape value at or near \"" + escape + "\"");
              });
    }
    assertThat(SqlLexer.tokenize("E'\\U0010FFFF\\u00e9'").get(0).value())
        .isEqualTo("\udbff\udfff\u00e9");
  }

  @Test
  void tokensCarryKindValueAndPosition() throws Exception {
    List<Token> tokens =
        SqlLexer.tokenize("SET Application_Name TO 'x''y'; \"Quoted\" $2 -1.5e3 :: a$b E'\\n'");
    assertThat(tokens)
        .extracting(Token::kind)
        .containsExactly(
            Kind.IDENT,
            Kind.IDENT,
            Kind.IDENT,
            Kind.STRING,
            Kind.SEMICOLON,
            Kind.QUOTED_IDENT,
            Kind.PARAM,
            Kind.OPERATOR,
            Kind.NUMBER,
            Kind.OPERATOR,
            Kind.IDENT,
            Kind.STRING);
    assertThat(tokens)
        .extracting(Token::value)
        .containsExactly(
            "set",
            "application_name",
            "to",
            "x'y",
            ";",
            "Quoted",
            "2",
            "-",
            "1.5e3",
            "::",
            "a$b",
            "\n");
    assertThat(tokens.get(3).start()).isEqualTo(24);
  }

  @Test
  void parametersAreCountedAndSubstitutedWithPositionsMappedBack() throws Exception {
    String sql = "alter connection to $1 set x to $2 -- $3 in a comment\n, '$4'";
    List<Token> tokens = SqlLexer.tokenize(sql);
    assertThat(ParameterSubstitution.parameterCount(tokens)).isEqualTo(2);
    ParameterSubstitution s =
        ParameterSubstitution.substitute(sql, tokens, Arrays.asList("ds.db", null));
    assertThat(s.text()).startsWith("alter connection to 'ds.db' set x to NULL -- $3");
    int quoteOfLiteral = s.text().indexOf("'ds.db'");
    assertThat(s.originalIndex(quoteOfLiteral + 3)).isEqualTo(sql.indexOf("$1"));
    int set = s.text().indexOf(" set");
    assertThat(s.originalIndex(set)).isEqualTo(sql.indexOf(" set"));
    assertThat(s.originalIndex(s.text().length() - 1)).isEqualTo(sql.length() - 1);
    assertThat(ParameterSubstitution.literal("it's")).isEqualTo("'it''s'");
  }

  @Test
  void parameterZeroDoesNotExist() throws Exception {
    assertThatThrownBy(() -> ParameterSubstitution.parameterCount(SqlLexer.tokenize("echo $0")))
        .isInstanceOfSatisfying(
            PgException.class,
            e -> {
              assertThat(e.sqlState()).isEqualTo("42P02");
              assertThat(e.position()).isEqualTo(6);
            });
  }
}
