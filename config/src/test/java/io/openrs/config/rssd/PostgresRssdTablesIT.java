package io.openrs.config.rssd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

/** The RSSD tables on PostgreSQL, in a fresh schema dropped afterwards. */
class PostgresRssdTablesIT extends RssdTablesContract {
  private final RssdSettings settings = TestDatabases.freshPostgresSchema();

  @Override
  RssdSettings settings() {
    return settings;
  }

  @Override
  void dropDatabase() throws Exception {
    TestDatabases.dropPostgresSchema(settings);
  }

  @Test
  void systemTablesLiveInTheConfiguredSchema() throws Exception {
    try (Connection c =
            DriverManager.getConnection(
                TestDatabases.PG_URL, TestDatabases.PG_USER, TestDatabases.PG_PASSWORD);
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "select count(*) from information_schema.tables where table_schema = '"
                    + settings.schema().orElseThrow()
                    + "' and table_name like 'rs\\_%'")) {
      rs.next();
      // 13 system tables + rs_schema_history
      assertThat(rs.getInt(1)).isEqualTo(SystemTable.values().length + 1);
    }
  }

  @Test
  void unknownRoleFailsClearlyWithoutShowingThePassword() {
    RssdSettings wrong =
        new RssdSettings(
            TestDatabases.PG_URL, "no_such_role_rssd", "pw-not-shown", settings.schema());
    assertThatThrownBy(() -> Rssd.open(wrong))
        .isInstanceOfSatisfying(
            RssdException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(RssdException.Reason.DATABASE);
              assertThat(e.getMessage())
                  .contains(
                      "cannot open the RSSD at jdbc:postgresql:",
                      "as no_such_role_rssd",
                      "SQLSTATE")
                  .doesNotContain("pw-not-shown");
            });
  }

  /** Our verifier check accepts what PostgreSQL itself derives for a password. */
  @Test
  void matchesAVerifierPostgresqlDerived() throws Exception {
    String role =
        "rssd_scram_" + Long.toHexString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE);
    String verifier;
    try (Connection c =
            DriverManager.getConnection(
                TestDatabases.PG_URL, TestDatabases.PG_USER, TestDatabases.PG_PASSWORD);
        Statement st = c.createStatement()) {
      st.execute("set password_encryption = 'scram-sha-256'");
      st.execute("create role " + role + " password 'pencil'");
      try (ResultSet rs =
          st.executeQuery("select rolpassword from pg_authid where rolname = '" + role + "'")) {
        rs.next();
        verifier = rs.getString(1);
      } finally {
        st.execute("drop role " + role);
      }
    }
    assertThat(verifier).startsWith("SCRAM-SHA-256$4096:");
    assertThat(ScramVerifier.matches(verifier, "pencil".toCharArray())).isTrue();
    assertThat(ScramVerifier.matches(verifier, "pencil2".toCharArray())).isFalse();
    ScramVerifier.Parts parts = ScramVerifier.parse(verifier);
    assertThat(ScramVerifier.derive("pencil".toCharArray(), parts.salt(), parts.iterations()))
        .isEqualTo(verifier);
  }
}
