package io.openrs.repagent;

import static org.assertj.core.api.Assertions.assertThat;

import io.openrs.ltl.Oqid;
import org.junit.jupiter.api.Test;

/** What the agent says when the server holds changes but no position to resume from. */
class MissingResumePositionTest {

  @Test
  void aBinlogOqidNamesFilePositionAndCommand() {
    Oqid oqid = TransactionAssembler.oqid(MariaDbDialect.prefix("mariadb-bin.000042", 1234), 3);
    assertThat(MariaDbDialect.describe(oqid))
        .isEqualTo("binlog file number 42 (*.000042), transaction at position 1234, command 3");
    assertThat(MariaDbDialect.describe(Oqid.parse("0x0102")))
        .isEqualTo("not a binlog OQID: 2 bytes");
  }

  @Test
  void theMessageNamesOriginPointAndRemedy() {
    Oqid oqid = TransactionAssembler.oqid(MariaDbDialect.prefix("mariadb-bin.000007", 350), 2);
    String m =
        AgentSession.missingPositionMessage("my1.shop", oqid, new MariaDbDialectStub().dialect());
    assertThat(m)
        .contains("origin my1.shop")
        .contains(oqid.toString())
        .contains("binlog file number 7 (*.000007), transaction at position 350, command 2")
        .contains("no resume position")
        .contains("retries by itself")
        .contains("snapshot = on");
  }

  /** A MariaDB dialect for messages only (no database is contacted). */
  private static final class MariaDbDialectStub {
    SourceDialect dialect() {
      return new MariaDbDialect(
          AgentConfigFile.fromMap(
              "test",
              java.util.Map.of(
                  "agent_name", "a1",
                  "origin", "my1.shop",
                  "source_profile", "mariadb",
                  "source_user", "ra",
                  "source_password_env", "PW",
                  "rs_password_env", "PW"),
              name -> "secret",
              java.nio.file.Path.of(".")));
    }
  }
}
