package io.openrs.pgwire;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Coverage-guided fuzzing (Jazzer) of what the admin port reads before and after login: the frame
 * decoder ({@link PgFrameDecoder}: SSLRequest, GSSENCRequest, CancelRequest, StartupMessage, then
 * every {@link FrontendMessage}), the statement splitter and tokenizer ({@link SqlLexer}) that
 * every Query and Parse goes through, and the SCRAM-SHA-256 exchange ({@link ScramServer}).
 *
 * <p>The promise: the decoder never throws; a byte stream it cannot read gives exactly one {@link
 * FrontendMessage.Violation} naming what was wrong, after which nothing more is read; it never
 * hands on more bytes than it got. The lexer either splits and tokenizes, with every statement and
 * token a faithful span of the text, or refuses with a {@link PgException} carrying a SQLSTATE and
 * a position inside the text. SCRAM refuses every malformed or forged message with a {@link
 * PgException}, and no input logs in without the password. Limits are set low (messages 2 KiB,
 * statements 1 KiB) so that inputs longer than them (the long pass allows 16 KiB) exercise the
 * checks; the startup packet limit (10000) is fixed.
 *
 * <p>Seeds and the crashing inputs found so far are in {@code
 * src/test/resources/io/openrs/pgwire/PgProtocolFuzzTestInputs/}; {@code mvn test} runs them,
 * {@code scripts/fuzz.sh pg-decoder}, {@code pg-lexer} and {@code pg-scram} fuzz
 * (docs/testing.md#fuzzing).
 */
class PgProtocolFuzzTest {
  private static final int MAX_MESSAGE_BYTES = 2048;
  private static final int MAX_STATEMENT_BYTES = 1024;
  private static final String SERVER_NONCE = "3rfcNHYJY1ZVvWVs7j";

  /**
   * Input: the byte stream a client sends, then (last byte, taken first by the data provider) the
   * size of the chunks it arrives in, 1..64.
   */
  @FuzzTest
  void frameDecoderEmitsMessagesOrOneViolationAndNeverThrows(FuzzedDataProvider data) {
    int chunk = data.consumeInt(1, 64);
    byte[] stream = data.consumeRemainingAsBytes();
    EmbeddedChannel channel =
        new EmbeddedChannel(new PgFrameDecoder(null, MAX_MESSAGE_BYTES, MAX_STATEMENT_BYTES));
    long wireBytes = 0;
    boolean ended = false;
    try {
      for (int at = 0; at < stream.length; at += chunk) {
        channel.writeInbound(
            Unpooled.wrappedBuffer(stream, at, Math.min(chunk, stream.length - at)));
        for (FrontendMessage.Inbound in; (in = channel.readInbound()) != null; ) {
          assertThat(ended).as("a message after %s", in.message()).isFalse();
          wireBytes += in.wireBytes();
          ended = check(in.message());
        }
      }
      channel.finishAndReleaseAll();
    } catch (RuntimeException | Error e) {
      if (e instanceof AssertionError) {
        throw e;
      }
      throw new AssertionError("the decoder threw " + e, e);
    }
    assertThat(wireBytes).as("bytes handed on").isLessThanOrEqualTo(stream.length);
  }

  /** Checks one decoded message; true when it is the last the decoder may emit. */
  private static boolean check(FrontendMessage m) {
    if (m instanceof FrontendMessage.Violation v) {
      assertThat(v.sqlState()).hasSize(5);
      assertThat(v.message()).isNotBlank();
      return true;
    }
    if (m instanceof FrontendMessage.Query q) {
      split(q.sql());
    } else if (m instanceof FrontendMessage.Parse p) {
      split(p.sql());
    } else if (m instanceof FrontendMessage.TooLong t) {
      assertThat(t.bodyBytes()).isGreaterThan(t.limitBytes());
    }
    return m instanceof FrontendMessage.Cancel || m instanceof FrontendMessage.Terminate;
  }

  @FuzzTest
  void lexerSplitsIntoFaithfulSpansOrRefusesWithAPosition(byte[] input) {
    split(new String(input, StandardCharsets.UTF_8));
  }

  private static void split(String sql) {
    List<SqlLexer.Statement> statements;
    try {
      statements = SqlLexer.split(sql);
    } catch (PgException e) {
      checkRefusal(e, sql);
      return;
    } catch (RuntimeException | Error e) {
      throw new AssertionError("SqlLexer.split threw " + e + " instead of PgException", e);
    }
    assertThat(statements.size()).isLessThanOrEqualTo(SqlLexer.MAX_STATEMENTS);
    int after = 0;
    for (SqlLexer.Statement s : statements) {
      assertThat(s.offset()).as("statements in order").isGreaterThanOrEqualTo(after);
      assertThat(s.text()).isNotEmpty();
      assertThat(sql.substring(s.offset(), s.offset() + s.text().length())).isEqualTo(s.text());
      after = s.offset() + s.text().length();
      tokenize(s.text());
    }
  }

  private static void tokenize(String text) {
    List<SqlLexer.Token> tokens;
    try {
      tokens = SqlLexer.tokenize(text);
    } catch (PgException e) {
      checkRefusal(e, text);
      return;
    } catch (RuntimeException | Error e) {
      throw new AssertionError("SqlLexer.tokenize threw " + e + " instead of PgException", e);
    }
    assertThat(tokens.size()).isLessThanOrEqualTo(SqlLexer.MAX_TOKENS);
    int after = 0;
    for (SqlLexer.Token t : tokens) {
      assertThat(t.start()).as("%s after the token before", t).isGreaterThanOrEqualTo(after);
      assertThat(t.end()).as("%s", t).isGreaterThan(t.start()).isLessThanOrEqualTo(text.length());
      assertThat(t.value()).isNotNull();
      after = t.end();
    }
  }

  private static void checkRefusal(PgException e, String text) {
    assertThat(e.sqlState()).hasSize(5);
    assertThat(e.getMessage()).isNotBlank();
    assertThat(e.position()).as("position of %s", e.getMessage()).isBetween(0, text.length() + 1);
  }

  /**
   * Input: {@code [+]client-first-message NUL client-final-message}; a leading {@code +} selects
   * SCRAM-SHA-256-PLUS. The server nonce is fixed so that the fuzzer can learn it.
   */
  @FuzzTest
  void scramRefusesMalformedAndForgedMessagesAndNeverLogsInWithoutThePassword(byte[] input) {
    boolean plus = input.length > 0 && input[0] == '+';
    int from = plus ? 1 : 0;
    int nul = from;
    while (nul < input.length && input[nul] != 0) {
      nul++;
    }
    byte[] first = Arrays.copyOfRange(input, from, nul);
    byte[] last = nul < input.length ? Arrays.copyOfRange(input, nul + 1, input.length) : null;
    ScramServer scram =
        new ScramServer(
            "sa",
            Optional.of(PgScram.Verifier.parse(VERIFIER).orElseThrow()),
            new byte[16],
            new byte[32],
            SERVER_NONCE);
    try {
      String serverFirst =
          new String(
              scram.clientFirst(plus ? ScramServer.PLUS : PgScram.MECHANISM, first),
              StandardCharsets.UTF_8);
      assertThat(serverFirst).startsWith("r=").contains(SERVER_NONCE + ",s=");
      if (last != null) {
        scram.clientFinal(last);
      }
    } catch (PgException e) {
      assertThat(e.sqlState()).isIn("08P01", "28P01", "28000", "0A000");
      assertThat(e.getMessage()).isNotBlank();
    } catch (RuntimeException | Error e) {
      throw new AssertionError("ScramServer threw " + e + " instead of PgException", e);
    }
    assertThat(scram.done()).as("logged in without the password").isFalse();
  }

  /** A verifier of a password nobody types: 64 random bytes, Base64. */
  private static final String VERIFIER =
      PgScram.verifier("Yr3N2Vf8mJ4c9kZq7Lw5sT1xB6hD0gPeUaQoRiKjHnMbCvXz", new byte[16], 4096);
}
