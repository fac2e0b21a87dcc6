package io.openrs.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The generated configuration files are read by the server's and the agent's own parsers (on this
 * module's test classpath as runtime dependencies), so they cannot drift from the formats.
 */
class ConfigsTest {
  @TempDir Path tmp;

  static DemoSettings settings(Source source, Path workDir) {
    return new DemoSettings(
        source,
        Duration.ofSeconds(60),
        4,
        42,
        0,
        1000,
        false,
        workDir,
        "127.0.0.1",
        11752,
        11753,
        0,
        new Endpoint(Source.POSTGRESQL, "127.0.0.1", 5432, "openrs", "pg-secret"),
        new Endpoint(Source.MARIADB, "127.0.0.1", 3306, "openrs", "m-secret"),
        "openrs_demo",
        Duration.ofSeconds(300),
        Duration.ofSeconds(2),
        Duration.ofSeconds(5));
  }

  @Test
  void theServerConfigurationIsAcceptedByTheServersParser() throws Exception {
    WorkDir w = new WorkDir(tmp.resolve("work"));
    w.reset();
    DemoSettings s = settings(Source.POSTGRESQL, w.path());
    w.writeSecret(Configs.ADMIN_PASSWORD_FILE, "demo-password-1");
    String cfg = Configs.server(s);
    w.write("repserver.cfg", cfg);
    assertThat(cfg)
        .contains("ltl_port = 11752")
        .contains("admin_port = 11753")
        .contains("prometheus_port = 0")
        .contains("rssd_url = embedded")
        .contains("admin_password_file = admin-password")
        .doesNotContain("demo-password-1");
    Object parsed = io.openrs.repserver.ServerConfigFile.read(w.resolve("repserver.cfg"));
    assertThat(parsed.toString())
        .contains("name=OPENRS_DEMO")
        .contains("work/server/partitions/p1")
        .contains("initialAdminPassword=(set)");
  }

  @Test
  void theAgentConfigurationIsAcceptedByTheAgentsParser() throws Exception {
    for (Source source : Source.values()) {
      WorkDir w = new WorkDir(tmp.resolve("work-" + source));
      w.reset();
      DemoSettings s = settings(source, w.path());
      w.writeSecret(Configs.AGENT_PASSWORD_FILE, "agent-password-1");
      w.writeSecret(Configs.SOURCE_PASSWORD_FILE, "source-password-1");
      String cfg = Configs.agent(s, 40123);
      w.write("repagent.cfg", cfg);
      assertThat(cfg)
          .contains("origin = " + s.primaryConnection())
          .contains("rs_port = 40123")
          .contains("rs_user = ra_demo")
          .contains("rs_password_file = " + Configs.AGENT_PASSWORD_FILE)
          .doesNotContain("rs_user = sa")
          .doesNotContain(Configs.ADMIN_PASSWORD_FILE)
          .contains("source_profile = " + source.profile())
          .contains("source_database = openrs_demo_primary")
          .contains("source_password_file = " + Configs.SOURCE_PASSWORD_FILE)
          .contains("table_include_list = " + s.primarySchema() + ".branches, ")
          .doesNotContain("secret");
      if (source == Source.POSTGRESQL) {
        assertThat(cfg).contains("slot_name = openrs_demo_slot");
      }
      Object parsed = io.openrs.repagent.AgentConfigFile.read(w.resolve("repagent.cfg"));
      assertThat(parsed.toString()).contains("openrs_demo_ra");
    }
  }

  @Test
  void rclStringsDoubleTheirQuotes() {
    assertThat(Configs.quote("it's")).isEqualTo("'it''s'");
  }
}
