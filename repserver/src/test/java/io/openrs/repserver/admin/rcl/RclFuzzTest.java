package io.openrs.repserver.admin.rcl;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Random inputs never make the parser throw anything but {@link RclSyntaxException}, whose position
 * lies within the text; whatever parses has a canonical text that parses to itself. Seeded: the
 * seed and the input are in every failure message; rerun one with {@code -Drcl.fuzz.seed=<seed>}.
 */
class RclFuzzTest {

  private static final long SEED = Long.getLong("rcl.fuzz.seed", 0x5EEDL);
  private static final int ROUNDS = 20_000;

  private static final String ALPHABET =
      "abcdefghijklmnopqrstuvwxyzABCXYZ0123456789_$ \t\n\r'\"-/*(),.;=<>!%@:é\u00a0\ud83d\ude00";

  private static final List<String> WORDS =
      List.of(
          "admin",
          "alter",
          "check",
          "configure",
          "create",
          "drop",
          "grant",
          "resume",
          "revoke",
          "rs_dump_stats",
          "rs_helpcounter",
          "rs_helprep",
          "rs_helpsub",
          "rs_ticket",
          "shutdown",
          "suspend",
          "sysadmin",
          "assign",
          "rs_delexception",
          "rs_delexception_id",
          "rs_helperror",
          "rs_helpexception",
          "connection",
          "to",
          "from",
          "using",
          "profile",
          "set",
          "with",
          "log",
          "transfer",
          "on",
          "off",
          "replication",
          "definition",
          "database",
          "primary",
          "replicate",
          "at",
          "all",
          "tables",
          "table",
          "named",
          "key",
          "searchable",
          "columns",
          "subscription",
          "for",
          "where",
          "without",
          "materialization",
          "server",
          "who",
          "stats",
          "display",
          "save",
          "inbound",
          "outbound",
          "dump_queue",
          "sqm_purge_queue",
          "user",
          "password",
          "role",
          "sa",
          "monitor",
          "skip",
          "execute",
          "transaction",
          "distributor",
          "map",
          "as",
          "not",
          "in",
          "add",
          "action",
          "error",
          "class",
          "template",
          "ignore",
          "retry_log",
          "show_error_class",
          "v",
          "23505",
          "40P01",
          "ds.db",
          "'v'",
          "\"Q\"",
          "1",
          "-1",
          "12.3.4",
          ",",
          "(",
          ")",
          ".",
          ";",
          "--c\n",
          "/*c*/",
          "''",
          "'it''s'",
          "\"a\"\"b\"");

  /** The first words of {@link #WORDS} are the words a command starts with. */
  private static final int COMMAND_WORDS = 22;

  private final Random random = new Random(SEED);

  @Test
  void randomCharacters() {
    run(
        "random characters",
        false,
        r -> {
          StringBuilder b = new StringBuilder();
          int n = r.nextInt(40);
          for (int i = 0; i < n; i++) {
            b.append(ALPHABET.charAt(r.nextInt(ALPHABET.length())));
          }
          return b.toString();
        });
  }

  @Test
  void randomWords() {
    run(
        "random words",
        true,
        r -> {
          StringBuilder b = new StringBuilder(WORDS.get(r.nextInt(COMMAND_WORDS)));
          int n = r.nextInt(16);
          for (int i = 0; i < n; i++) {
            b.append(r.nextInt(4) == 0 ? "" : " ").append(WORDS.get(r.nextInt(WORDS.size())));
          }
          return b.toString();
        });
  }

  @Test
  void mutatedValidCommands() {
    List<String> corpus = RclParserTest.commands().map(a -> (String) a.get()[0]).toList();
    run(
        "mutated commands",
        true,
        r -> {
          String text = corpus.get(r.nextInt(corpus.size()));
          int mutations = 1 + r.nextInt(3);
          for (int m = 0; m < mutations; m++) {
            text = mutate(r, text);
          }
          return text;
        });
  }

  private static String mutate(Random r, String text) {
    int at = text.isEmpty() ? 0 : r.nextInt(text.length() + 1);
    return switch (r.nextInt(6)) {
      case 0 -> text.substring(0, at); // truncate
      case 1 -> { // delete a range
        int end = Math.min(text.length(), at + 1 + r.nextInt(8));
        yield text.substring(0, Math.min(at, end)) + text.substring(end);
      }
      case 2 -> // insert a character
          text.substring(0, at)
              + ALPHABET.charAt(r.nextInt(ALPHABET.length()))
              + text.substring(at);
      case 3 -> // insert a word
          text.substring(0, at)
              + " "
              + WORDS.get(r.nextInt(WORDS.size()))
              + " "
              + text.substring(at);
      case 4 -> { // swap two characters
        if (text.length() < 2) {
          yield text;
        }
        int i = r.nextInt(text.length() - 1);
        yield text.substring(0, i) + text.charAt(i + 1) + text.charAt(i) + text.substring(i + 2);
      }
      default -> text.substring(0, at).toUpperCase(Locale.ROOT) + text.substring(at);
    };
  }

  private void run(String what, boolean someParse, Function<Random, String> generator) {
    int parsed = 0;
    for (int round = 0; round < ROUNDS; round++) {
      String text = generator.apply(random);
      String where = what + ", seed " + SEED + ", round " + round + ", input <" + text + ">";
      try {
        RclCommand command = RclParser.parse(text);
        parsed++;
        String canonical = command.toString();
        RclCommand again = RclParser.parse(canonical);
        assertThat(again.toString()).as(where).isEqualTo(canonical);
        assertThat(again.kind()).as(where).isEqualTo(command.kind());
      } catch (RclSyntaxException e) {
        assertThat(e.position()).as(where).isBetween(1, text.length() + 1);
        assertThat(e.getMessage())
            .as(where)
            .startsWith("syntax error at position " + e.position() + ": ");
        assertThat(e.found()).as(where).isNotEmpty();
        assertThat(e.expected()).as(where).isNotEmpty();
      } catch (RuntimeException | Error e) {
        throw new AssertionError(where + " threw " + e, e);
      }
    }
    if (someParse) {
      assertThat(parsed).as(what + ": some inputs should parse").isPositive();
    }
  }
}
