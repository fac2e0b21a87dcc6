package io.openrs.repserver.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.openrs.dsi.ErrorAction;
import io.openrs.dsi.ErrorClass;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** rs_helperror reads a code the way the DSI looks an error up: vendor number, SQLSTATE, class. */
class ErrorClassLookupTest {

  private final ErrorClass ec =
      new ErrorClass(
          "ec",
          Map.of(
              "1062", ErrorAction.IGNORE,
              "23505", ErrorAction.LOG,
              "23", ErrorAction.WARN,
              "40P01", ErrorAction.RETRY_STOP));

  @Test
  void vendorNumberFirstThenSqlStateThenItsClass() {
    assertThat(ErrorClassCommands.matched(ec, "1062")).contains("1062");
    assertThat(ErrorClassCommands.lookup(ec, "1062")).isEqualTo(ErrorAction.IGNORE);
    assertThat(ErrorClassCommands.matched(ec, "23505")).contains("23505");
    assertThat(ErrorClassCommands.lookup(ec, "23505")).isEqualTo(ErrorAction.LOG);
    assertThat(ErrorClassCommands.matched(ec, "23503")).contains("23");
    assertThat(ErrorClassCommands.lookup(ec, "23503")).isEqualTo(ErrorAction.WARN);
    assertThat(ErrorClassCommands.matched(ec, "40P01")).contains("40P01");
    assertThat(ErrorClassCommands.lookup(ec, "40P01")).isEqualTo(ErrorAction.RETRY_STOP);
    assertThat(ErrorClassCommands.matched(ec, "23")).contains("23");
    assertThat(ErrorClassCommands.lookup(ec, "23")).isEqualTo(ErrorAction.WARN);
  }

  @Test
  void anUnmappedCodeStopsReplication() {
    assertThat(ErrorClassCommands.matched(ec, "42P01")).isEqualTo(Optional.empty());
    assertThat(ErrorClassCommands.lookup(ec, "42P01")).isEqualTo(ErrorAction.STOP_REPLICATION);
    assertThat(ErrorClassCommands.matched(ec, "1213")).isEmpty();
    assertThat(ErrorClassCommands.lookup(ec, "1213")).isEqualTo(ErrorAction.STOP_REPLICATION);
    assertThat(ErrorClassCommands.matched(ec, "40")).isEmpty();
  }

  @Test
  void whatMatchedAgreesWithTheDsisOwnLookup() {
    for (String code : new String[] {"1062", "23505", "23503", "40P01", "42P01", "1213"}) {
      int vendor = code.matches("[0-9]+") ? Integer.parseInt(code) : 0;
      assertThat(ErrorClassCommands.matched(ec, code).map(ec.actions()::get))
          .as(code)
          .isEqualTo(ec.lookup(vendor, code.length() == 5 ? code : null));
    }
  }
}
