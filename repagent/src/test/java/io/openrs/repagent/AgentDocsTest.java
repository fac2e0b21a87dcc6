package io.openrs.repagent;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/repagent.md} lists every parameter and counter the code declares, and nothing the
 * code does not declare; {@code etc/repagent.cfg} parses.
 */
class AgentDocsTest {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  private static Set<String> firstColumn(String doc, String heading) {
    int start = doc.indexOf("\n## " + heading + "\n");
    assertThat(start).as("section %s", heading).isNotNegative();
    int end = doc.indexOf("\n## ", start + 4);
    String section = doc.substring(start, end < 0 ? doc.length() : end);
    Set<String> out = new HashSet<>();
    Matcher m = Pattern.compile("(?m)^\\| `([a-z_]+)` \\|").matcher(section);
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }

  @Test
  void everyParameterIsDocumentedAndNoOther() throws Exception {
    String doc = Files.readString(ROOT.resolve("docs/repagent.md"), StandardCharsets.UTF_8);
    Set<String> declared = new HashSet<>();
    for (AgentParameter p : AgentParameter.values()) {
      declared.add(p.key());
    }
    assertThat(firstColumn(doc, "Configuration")).isEqualTo(declared);
  }

  @Test
  void everyCounterIsDocumentedAndNoOther() throws Exception {
    String doc = Files.readString(ROOT.resolve("docs/repagent.md"), StandardCharsets.UTF_8);
    Set<String> declared = new HashSet<>();
    for (AgentCounter c : AgentCounter.values()) {
      declared.add(c.counterName());
    }
    assertThat(firstColumn(doc, "Counters")).isEqualTo(declared);
  }

  @Test
  void theRsTicketStatementsInTheDocsAreTheOnesTheAgentRuns() throws Exception {
    String doc = Files.readString(ROOT.resolve("docs/repagent.md"), StandardCharsets.UTF_8);
    assertThat(doc)
        .contains(RsTicket.postgresFunction("public") + ";\n" + RsTicket.postgresComment("public"))
        .contains(RsTicket.mariaDbTable("sales") + ";\n" + RsTicket.mariaDbProcedure("sales"));
  }

  @Test
  void theExampleConfigurationParses() throws Exception {
    Path cfg = ROOT.resolve("etc/repagent.cfg");
    AgentSettings s =
        AgentConfigFile.parse(
            cfg, Files.readAllLines(cfg, StandardCharsets.UTF_8), name -> "example-secret");
    assertThat(s.origin()).isEqualTo("pg1.sales");
  }
}
