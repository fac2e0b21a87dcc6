package io.openrs.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;

class TableCompareTest {

  private static TableCompare.Row row(long key, String... values) {
    return new TableCompare.Row(key, Arrays.asList(values));
  }

  private static TableCompare.RowSource source(TableCompare.Row... rows) {
    Iterator<TableCompare.Row> it = List.of(rows).iterator();
    return () -> it.hasNext() ? it.next() : null;
  }

  @Test
  void identicalTablesHaveNoDifference() throws Exception {
    TableCompare.Result r =
        TableCompare.compare(
            "t",
            "id",
            source(row(1, "1", "'a'"), row(2, "2", null)),
            source(row(1, "1", "'a'"), row(2, "2", null)),
            5);
    assertThat(r.identical()).isTrue();
    assertThat(r.primaryRows()).isEqualTo(2);
    assertThat(r.replicateRows()).isEqualTo(2);
    assertThat(r.examples()).isEmpty();
  }

  @Test
  void missingExtraAndChangedRowsAreEachNamedByKey() throws Exception {
    TableCompare.Result r =
        TableCompare.compare(
            "accounts",
            "account_id",
            source(row(1, "1", "'a'"), row(2, "2", "'b'"), row(4, "4", "'d'")),
            source(row(1, "1", "'a'"), row(3, "3", "'c'"), row(4, "4", null)),
            5);
    assertThat(r.identical()).isFalse();
    assertThat(r.differences()).isEqualTo(3);
    assertThat(r.primaryRows()).isEqualTo(3);
    assertThat(r.replicateRows()).isEqualTo(3);
    assertThat(r.examples())
        .containsExactly(
            "account_id=2: missing at the replicate; primary (2, 'b')",
            "account_id=3: only at the replicate (3, 'c')",
            "account_id=4: differs; primary (4, 'd'), replicate (4, NULL)");
  }

  @Test
  void aShorterSideOnEitherEndIsADifferencePerRow() throws Exception {
    TableCompare.Result empty =
        TableCompare.compare("t", "id", source(row(1, "1"), row(2, "2")), source(), 5);
    assertThat(empty.differences()).isEqualTo(2);
    assertThat(empty.replicateRows()).isZero();
    TableCompare.Result extra = TableCompare.compare("t", "id", source(), source(row(9, "9")), 5);
    assertThat(extra.differences()).isEqualTo(1);
    assertThat(extra.examples()).containsExactly("id=9: only at the replicate (9)");
  }

  @Test
  void examplesAreBoundedButEveryDifferenceIsCounted() throws Exception {
    TableCompare.Row[] rows = new TableCompare.Row[50];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = row(i, String.valueOf(i));
    }
    TableCompare.Result r = TableCompare.compare("t", "id", source(rows), source(), 3);
    assertThat(r.differences()).isEqualTo(50);
    assertThat(r.examples()).hasSize(3);
  }

  @Test
  void lineEndsAndBackslashesAreShownEscaped() {
    assertThat(TableCompare.render(row(1, "1", "'a\nb\\c'"))).isEqualTo("(1, 'a\\nb\\\\c')");
  }
}
