package io.openrs.repagent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.openrs.wire.ClientTls;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentConfigFileTest {

  @TempDir Path dir;

  private static final List<String> MINIMAL =
      List.of(
          "# an agent",
          "agent_name = pg1_agent",
          "origin = pg1.sales",
          "rs_password_env = RS_PW",
          "source_profile = postgresql",
          "source_database = sales",
          "source_user = ra",
          "source_password_env = PG_PW");

  private AgentSettings parse(List<String> lines) {
    return AgentConfigFile.parse(
        dir.resolve("agent.cfg"), lines, name -> name.endsWith("_PW") ? "secret-" + name : null);
  }

  @Test
  void aMinimalFileGetsTheDocumentedDefaults() {
    AgentSettings s = parse(MINIMAL);
    assertThat(s.agentName()).isEqualTo("pg1_agent");
    assertThat(s.origin()).isEqualTo("pg1.sales");
    assertThat(s.serverPort()).isEqualTo(11752);
    assertThat(new String(s.serverPassword())).isEqualTo("secret-RS_PW");
    assertThat(s.ltlBatchSizeBytes()).isEqualTo(65536);
    assertThat(s.scanBatchSize()).isEqualTo(1000);
    assertThat(s.heartbeatInterval()).isEqualTo(Duration.ofSeconds(10));
    assertThat(s.scanSleepMax()).isEqualTo(Duration.ofMillis(10));
    assertThat(s.source().port()).isEqualTo(5432);
    assertThat(s.source().slotName()).isEqualTo("openrs_pg1_agent");
    assertThat(s.source().publicationName()).isEqualTo("openrs_pg1_agent");
    assertThat(s.source().heartbeatSchema()).isEqualTo("public");
    assertThat(s.source().snapshot()).isFalse();
    assertThat(s.toString()).doesNotContain("secret");
  }

  @Test
  void standbyServersFollowTheServerInTheOrderGiven() {
    List<String> lines = new ArrayList<>(MINIMAL);
    lines.add("rs_host = rs1.example");
    lines.add("rs_standby_servers = rs2.example:11753, [::1]:11754");
    AgentSettings s = parse(lines);
    assertThat(s.servers())
        .containsExactly(
            new ServerAddress("rs1.example", 11752),
            new ServerAddress("rs2.example", 11753),
            new ServerAddress("::1", 11754));
    assertThat(parse(MINIMAL).servers()).containsExactly(new ServerAddress("127.0.0.1", 11752));
  }

  @Test
  void aStandbyServerThatIsNotHostAndPortIsNamed() {
    List<String> lines = new ArrayList<>(MINIMAL);
    lines.add("rs_standby_servers = rs2.example:11753, rs3.example");
    assertThatThrownBy(() -> parse(lines))
        .isInstanceOf(AgentException.class)
        .hasMessageContaining("rs_standby_servers: 'rs3.example' is not host:port");
    List<String> badPort = new ArrayList<>(MINIMAL);
    badPort.add("rs_standby_servers = rs2.example:70000");
    assertThatThrownBy(() -> parse(badPort))
        .hasMessageContaining("rs_standby_servers: 'rs2.example:70000': port 70000");
  }

  @Test
  void everyProblemIsReportedAtOnce() {
    assertThatThrownBy(
            () ->
                parse(
                    List.of(
                        "origin = nodot",
                        "ltl_batch_size = 12",
                        "snapshot = maybe",
                        "scan_sleep_max_ms = 0",
                        "bogus = 1",
                        "source_password = plain",
                        "not a line")))
        .isInstanceOf(AgentException.class)
        .hasMessageContaining("RA-1")
        .hasMessageContaining("agent_name is required")
        .hasMessageContaining("origin must be dataserver.database")
        .hasMessageContaining("ltl_batch_size = 12 is outside 1024 .. 16777216")
        .hasMessageContaining("snapshot = 'maybe' must be on or off")
        .hasMessageContaining("scan_sleep_max_ms = 0 is outside 1 .. 60000")
        .hasMessageContaining("unknown parameter bogus")
        .hasMessageContaining("source_password: passwords are not written")
        .hasMessageContaining(":7: expected name = value")
        .hasMessageContaining("rs_password_env or rs_password_file is required")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("plain"));
  }

  @Test
  void passwordsComeFromFilesRelativeToTheConfiguration() throws Exception {
    Files.writeString(dir.resolve("pw.txt"), "from-file\n");
    AgentSettings s =
        parse(
            List.of(
                "agent_name = a",
                "origin = d.b",
                "rs_password_file = pw.txt",
                "source_profile = mariadb",
                "source_user = ra",
                "source_password_env = PG_PW",
                "table_include_list = shop.orders, shop.%",
                "debezium.max.batch.size = 4096"));
    assertThat(new String(s.serverPassword())).isEqualTo("from-file");
    assertThat(s.source().port()).isEqualTo(3306);
    assertThat(s.source().tableIncludeList()).containsExactly("shop.orders", "shop.%");
    assertThat(s.debezium()).isEqualTo(Map.of("max.batch.size", "4096"));
  }

  @Test
  void tlsAndCompressionDefaultToPlaintextAndOfferingBothMethods() {
    AgentSettings s = parse(MINIMAL);
    assertThat(s.tls()).isEqualTo(ClientTls.OFF);
    assertThat(s.compression()).containsExactly("lz4", "zstd");
  }

  @Test
  void tlsFilesAreRelativeToTheConfigurationAndCompressionCanBeOff() throws Exception {
    Files.createDirectories(dir.resolve("tls"));
    for (String f : List.of("ca.crt", "agent.crt", "agent.key")) {
      Files.writeString(dir.resolve("tls").resolve(f), "PEM");
    }
    List<String> lines = new ArrayList<>(MINIMAL);
    lines.add("rs_tls = verify-full");
    lines.add("rs_tls_root_cert = tls/ca.crt");
    lines.add("rs_tls_cert = tls/agent.crt");
    lines.add("rs_tls_key = tls/agent.key");
    lines.add("rs_compression = off");
    AgentSettings s = parse(lines);
    assertThat(s.tls().mode()).isEqualTo(ClientTls.Mode.VERIFY_FULL);
    assertThat(s.tls().rootCertificates()).contains(dir.resolve("tls/ca.crt").toAbsolutePath());
    assertThat(s.tls().privateKey()).contains(dir.resolve("tls/agent.key").toAbsolutePath());
    assertThat(s.compression()).isEmpty();
  }

  @Test
  void badTlsAndCompressionSettingsAreNamed() {
    List<String> lines = new ArrayList<>(MINIMAL);
    lines.add("rs_tls = verify-ca");
    lines.add("rs_tls_cert = agent.crt");
    lines.add("rs_compression = zstd,gzip");
    assertThatThrownBy(() -> parse(lines))
        .hasMessageContaining("TLS mode verify-ca needs the root certificates")
        .hasMessageContaining("a client certificate and its private key go together")
        .hasMessageContaining(
            "rs_tls_cert " + dir.resolve("agent.crt").toAbsolutePath() + " does not exist")
        .hasMessageContaining(
            "rs_compression must be off or a list of lz4 and zstd, got 'zstd,gzip'");
  }

  @Test
  void everyDeclaredParameterIsAccepted() {
    for (AgentParameter p : AgentParameter.values()) {
      assertThat(AgentParameter.byKey(p.key())).contains(p);
      assertThat(p.doc()).isNotBlank();
    }
  }
}
