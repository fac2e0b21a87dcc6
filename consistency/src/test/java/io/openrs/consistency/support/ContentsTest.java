package io.openrs.consistency.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The comparison finds every kind of difference and reports the first rows that differ. */
class ContentsTest {

  private static List<String> row(String... cells) {
    return new ArrayList<>(Arrays.asList(cells));
  }

  @Test
  void equalContentsAreEqual() {
    List<List<String>> rows = List.of(row("1", "a"), row("2", null));
    Contents.Difference d = Contents.compare(Schema.SYNC, rows, rows);
    assertThat(d.equal()).isTrue();
    assertThat(d.toString()).isEqualTo("cs_sync: equal, 2 rows");
  }

  @Test
  void missingExtraAndChangedRowsAreCountedAndShown() {
    List<List<String>> primary = List.of(row("1", "a"), row("2", "b"), row("3", "c"));
    List<List<String>> replicate = List.of(row("1", "a"), row("3", "x"), row("4", "d"));
    Contents.Difference d = Contents.compare(Schema.SYNC, primary, replicate);
    assertThat(d.equal()).isFalse();
    assertThat(d.toString())
        .contains("primary 3 rows, replicate 3")
        .contains("1 missing, 1 extra, 1 differing")
        .contains("missing at the replicate: (id='2', note='b')")
        .contains("extra at the replicate:   (id='4', note='d')")
        .contains("primary   (id='3', *note='c')")
        .contains("replicate (id='3', *note='x')");
  }

  @Test
  void aNullDiffersFromAnEmptyStringAndFromTheTextNull() {
    Contents.Difference d =
        Contents.compare(
            Schema.SYNC,
            List.of(row("1", null), row("2", "")),
            List.of(row("1", "NULL"), row("2", null)));
    assertThat(d.toString()).contains("2 differing");
  }

  @Test
  void aSecondCopyOfARowWithoutKeyIsExtra() {
    // evt has no key: rows are compared whole, so a row applied twice shows as extra.
    List<String> r = row("7", "1", "m", "2020-01-01T00:00:00.000000", "1.00", "true");
    Contents.Difference d = Contents.compare(Schema.EVT, List.of(r), List.of(r, r));
    assertThat(d.toString()).contains("0 missing, 1 extra, 0 differing");
  }

  @Test
  void longValuesAreShownByLengthAndDigest() {
    String big = "x".repeat(70_000);
    assertThat(Contents.cell(big)).startsWith("'xxxx").contains("(70000 chars, sha256 ");
    assertThat(Contents.cell("a\nb")).isEqualTo("'a\\nb'");
    assertThat(Contents.cell(null)).isEqualTo("NULL");
  }
}
