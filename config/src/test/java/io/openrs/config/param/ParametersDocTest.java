package io.openrs.config.param;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/parameters.md} and the catalog agree both ways: every parameter has one row in its
 * area's table, with the catalog's scope, type, default, range, takes-effect, RS-or-ours and
 * description; every row names a catalog parameter. To change a row, change the declaration in
 * {@code StandardParameters} and copy its labels ({@link #row(Parameter)}).
 */
class ParametersDocTest {
  private static final Path DOC = Path.of("..", "docs", "parameters.md");
  private static final Pattern ROW = Pattern.compile("^\\| `([^`]+)` \\|(.*)\\|\\s*$");

  /** The documented row of one parameter, cells after the name. */
  private record Documented(String section, List<String> cells) {}

  @Test
  void docsAndCatalogAgree() throws Exception {
    assertThat(DOC).exists();
    Map<String, Documented> documented = new LinkedHashMap<>();
    List<String> problems = new ArrayList<>();
    String section = "";
    for (String line : Files.readAllLines(DOC)) {
      if (line.startsWith("## ")) {
        section = line.substring(3).trim();
        continue;
      }
      Matcher m = ROW.matcher(line);
      if (!m.matches()) {
        continue;
      }
      List<String> cells = new ArrayList<>();
      for (String cell : m.group(2).split("\\|", -1)) {
        cells.add(cell.trim());
      }
      if (documented.put(m.group(1), new Documented(section, cells)) != null) {
        problems.add(m.group(1) + ": documented twice");
      }
    }

    ParameterCatalog catalog = ParameterCatalog.standard();
    for (String name : documented.keySet()) {
      if (catalog.find(name).isEmpty() || !catalog.require(name).name().equals(name)) {
        problems.add(name + ": documented but not in the catalog");
      }
    }
    for (Parameter p : catalog.all()) {
      Documented d = documented.get(p.name());
      if (d == null) {
        problems.add(p.name() + ": in the catalog but not documented");
        continue;
      }
      if (!d.section().equals(p.area().title())) {
        problems.add(
            p.name() + ": documented under '" + d.section() + "', not '" + p.area().title() + "'");
      }
      if (!d.cells().equals(row(p))) {
        problems.add(p.name() + ": documented as " + d.cells() + "\n    catalog says " + row(p));
      }
    }
    assertThat(problems).as("docs/parameters.md vs the catalog").isEmpty();
  }

  /** The cells after the name, as the docs show them. */
  static List<String> row(Parameter p) {
    return List.of(
        p.scopeLabel(),
        p.typeLabel(),
        p.defaultLabel(),
        p.rangeLabel(),
        p.takesEffect().label(),
        p.replicationServerName() ? "RS" : "ours",
        p.description());
  }
}
