package io.openrs.ltl;

import static org.assertj.core.api.Assertions.assertThat;

import io.openrs.ltl.text.LtlParser;
import io.openrs.ltl.text.LtlWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Every {@code ltl} example in docs/ltl.md parses, and the examples cover every command kind. */
class LtlDocExamplesTest {
  private static final Path DOC = Path.of("..", "docs", "ltl.md");
  private static final Pattern BLOCK = Pattern.compile("```ltl\\n(.*?)```", Pattern.DOTALL);

  @Test
  void everyExampleParsesAndRoundTrips() throws Exception {
    String doc = Files.readString(DOC, StandardCharsets.UTF_8);
    Matcher m = BLOCK.matcher(doc);
    LtlParser parser = new LtlParser();
    LtlWriter writer = new LtlWriter();
    List<LtlCommand> all = new ArrayList<>();
    int blocks = 0;
    while (m.find()) {
      blocks++;
      String block = m.group(1);
      long lines = block.lines().filter(l -> !l.isBlank() && !l.strip().startsWith("--")).count();
      List<LtlCommand> parsed = parser.parseAll(block);
      assertThat(parsed).as("commands in block %d:%n%s", blocks, block).hasSize((int) lines);
      for (LtlCommand c : parsed) {
        assertThat(parser.parseOne(writer.toText(c))).isEqualTo(c);
      }
      all.addAll(parsed);
    }
    assertThat(blocks).isGreaterThanOrEqualTo(8);
    Set<Class<?>> kinds = new HashSet<>();
    all.forEach(c -> kinds.add(c.getClass()));
    assertThat(kinds)
        .containsAll(
            List.of(LtlCommand.class.getPermittedSubclasses()).stream()
                .flatMap(k -> k.isInterface() ? allLeaves(k).stream() : List.of(k).stream())
                .toList());
  }

  private static List<Class<?>> allLeaves(Class<?> sealed) {
    List<Class<?>> out = new ArrayList<>();
    for (Class<?> k : sealed.getPermittedSubclasses()) {
      if (k.isInterface()) {
        out.addAll(allLeaves(k));
      } else {
        out.add(k);
      }
    }
    return out;
  }

  @Test
  void theAllTypesExampleHoldsEveryValueType() throws Exception {
    String doc = Files.readString(DOC, StandardCharsets.UTF_8);
    String line =
        doc.lines()
            .filter(l -> l.startsWith("insert tran 0x04 oqid 0x0401"))
            .findFirst()
            .orElseThrow();
    LtlCommand.Insert insert = (LtlCommand.Insert) new LtlParser().parseOne(line);
    Set<Class<?>> types = new HashSet<>();
    insert.after().forEach(c -> types.add(c.value().getClass()));
    assertThat(types).containsExactlyInAnyOrder(Value.class.getPermittedSubclasses());
  }
}
