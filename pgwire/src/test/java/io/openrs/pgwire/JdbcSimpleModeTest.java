package io.openrs.pgwire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.postgresql.util.PSQLException;

/** The JDBC contract with {@code preferQueryMode=simple}: everything goes as Query messages. */
class JdbcSimpleModeTest extends JdbcContract {
  @Override
  String queryMode() {
    return "simple";
  }

  @Override
  String literal(String quotedText) {
    return "('" + quotedText + "')";
  }

  @Test
  void anErrorPositionCountsFromTheStartOfTheQueryString() throws Exception {
    try (Connection c = connect();
        Statement st = c.createStatement()) {
      assertThatThrownBy(() -> st.execute("echo é; admin frob"))
          .isInstanceOfSatisfying(
              PSQLException.class,
              e -> assertThat(e.getServerErrorMessage().getPosition()).isEqualTo(15));
    }
  }
}
