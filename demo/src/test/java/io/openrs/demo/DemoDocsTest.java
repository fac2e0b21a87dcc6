package io.openrs.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** docs/demo.md lists every option of the command line with its default. */
class DemoDocsTest {
  private static final Path DOC = Path.of("..", "docs", "demo.md");
  private static final Pattern ROW =
      Pattern.compile("^\\| `(--[a-z-]+)` \\| ([^|]+) \\|", Pattern.MULTILINE);

  @Test
  void theOptionTableMatchesTheCommandLine() throws Exception {
    Map<String, String> documented = new LinkedHashMap<>();
    Matcher m = ROW.matcher(Files.readString(DOC));
    while (m.find()) {
      documented.put(m.group(1), m.group(2).trim());
    }
    CommandLine cl =
        new CommandLine(new QuickstartDemo(System.out, System.err, n -> Optional.empty()));
    Map<String, String> actual = new LinkedHashMap<>();
    for (OptionSpec o : cl.getCommandSpec().options()) {
      if (o.usageHelp() || o.versionHelp()) {
        continue;
      }
      actual.put(o.longestName(), o.defaultValue());
    }
    assertThat(documented.keySet()).containsExactlyElementsOf(actual.keySet());
    actual.forEach(
        (name, def) -> {
          String doc = documented.get(name);
          if (def == null) {
            assertThat(doc).as(name).isEqualTo("off");
          } else if (def.startsWith("${env:")) {
            String fallback = def.substring(def.indexOf(":-") + 2, def.length() - 1);
            assertThat(doc).as(name).isEqualTo("`" + fallback + "`");
          } else {
            assertThat(doc).as(name).isEqualTo("`" + def + "`");
          }
        });
  }

  @Test
  void theExitCodesAreDocumented() throws Exception {
    String doc = Files.readString(DOC);
    assertThat(doc)
        .contains("**" + QuickstartDemo.EXIT_IDENTICAL + "** the replicate is identical")
        .contains("**" + QuickstartDemo.EXIT_DIFFERENT + "** it differs")
        .contains("**" + QuickstartDemo.EXIT_PROBLEM + "** the demo could not run");
  }
}
