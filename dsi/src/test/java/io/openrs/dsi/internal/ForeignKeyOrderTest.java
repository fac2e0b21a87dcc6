package io.openrs.dsi.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.openrs.ltl.TableName;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Parents before children, only references inside the group, cycles in group order. */
class ForeignKeyOrderTest {
  private static TableName t(String n) {
    return new TableName("s", n);
  }

  @Test
  void parentsComeFirstWhateverOrderTheGroupTouchedThem() {
    assertThat(
            ForeignKeyOrder.parentsFirst(
                List.of(t("line"), t("order"), t("customer")),
                Map.of(
                    t("line"), List.of(t("order")),
                    t("order"), List.of(t("customer")))))
        .containsExactly(t("customer"), t("order"), t("line"));
  }

  @Test
  void referencesToTablesOutsideTheGroupAndSelfReferencesDoNotCount() {
    assertThat(
            ForeignKeyOrder.parentsFirst(
                List.of(t("b"), t("a")),
                Map.of(t("b"), List.of(t("b"), t("elsewhere")), t("a"), List.of())))
        .containsExactly(t("b"), t("a"));
  }

  @Test
  void catalogNamesMatchIgnoringCase() {
    assertThat(
            ForeignKeyOrder.parentsFirst(
                List.of(t("Child"), t("Parent")), Map.of(t("Child"), List.of(t("parent")))))
        .containsExactly(t("Parent"), t("Child"));
  }

  @Test
  void aCycleKeepsTheGroupsOrderAfterEverythingThatCanBeOrdered() {
    assertThat(
            ForeignKeyOrder.parentsFirst(
                List.of(t("x"), t("y"), t("z"), t("root")),
                Map.of(
                    t("x"), List.of(t("y")),
                    t("y"), List.of(t("x")),
                    t("z"), List.of(t("root")))))
        .containsExactly(t("root"), t("z"), t("x"), t("y"));
  }
}
