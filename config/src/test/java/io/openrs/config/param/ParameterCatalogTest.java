package io.openrs.config.param;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ParameterCatalogTest {
  private static final ParameterCatalog CATALOG = ParameterCatalog.standard();

  @Test
  void namesAreUniqueLowerSnakeCaseAndSorted() {
    List<String> names = CATALOG.all().stream().map(Parameter::name).toList();
    assertThat(names).doesNotHaveDuplicates().isSortedAccordingTo(Comparator.naturalOrder());
    assertThat(names).allMatch(n -> n.matches("[a-z][a-z0-9]*(_[a-z0-9]+)*"), "lower_snake_case");
    assertThat(names.stream().map(n -> n.toLowerCase(Locale.ROOT)).distinct()).hasSameSizeAs(names);
  }

  @Test
  void everyDefaultParsesIsCanonicalAndWithinItsRange() {
    for (Parameter p : CATALOG.all()) {
      assertThat(p.normalize(p.defaultValue())).as(p.name()).isEqualTo(p.defaultValue());
      Object value = p.parse(p.defaultValue());
      if (p.type().isNumeric()) {
        long v = Long.parseLong(p.defaultValue());
        assertThat(v).as(p.name()).isBetween(p.min().getAsLong(), p.max().getAsLong());
      }
      if (p.type() == ParamType.ENUM) {
        assertThat(p.allowedValues()).as(p.name()).contains((String) value);
      }
      assertThat(p.description()).as(p.name()).isNotBlank().doesNotContain("|");
    }
  }

  @Test
  void startUpFileParametersAreServerScopedAndTakeEffectAtRestart() {
    List<Parameter> fileOnly = CATALOG.all().stream().filter(Parameter::configFileOnly).toList();
    assertThat(fileOnly)
        .extracting(Parameter::name)
        .containsExactlyInAnyOrder(
            "admin_auth_timeout",
            "admin_max_login_failures",
            "admin_max_statement_bytes",
            "admin_max_unauthenticated",
            "admin_port",
            "admin_tls_certificate",
            "admin_tls_private_key",
            "admin_tls_required",
            "data_directory",
            "kafka_bootstrap_servers",
            "kafka_min_insync_replicas",
            "kafka_operation_timeout_ms",
            "kafka_replication_factor",
            "listen_address",
            "ltl_port",
            "ltl_tls_certificate",
            "ltl_tls_client_ca",
            "ltl_tls_private_key",
            "prometheus_port",
            "queue_engine",
            "rs_name",
            "rssd_url",
            "server_lease_ms");
    assertThat(fileOnly)
        .allSatisfy(
            p -> {
              assertThat(p.scopes()).containsExactly(Scope.SERVER);
              assertThat(p.takesEffect()).isEqualTo(TakesEffect.RESTART);
              assertThat(p.area()).isEqualTo(Area.SERVER_PROCESS);
            });
  }

  @Test
  void containsTheParametersTheServerNeeds() {
    assertThat(CATALOG.all())
        .extracting(Parameter::name)
        .contains(
            "block_size",
            "sqm_page_size",
            "sqm_segment_size",
            "sqm_cache_size",
            "sqm_write_flush",
            "exec_sqm_write_request_limit",
            "sqm_max_message_size",
            "exec_nrm_request_limit",
            "exec_max_connections",
            "exec_max_handshakes",
            "exec_handshake_timeout",
            "agent_heartbeat_interval",
            "agent_idle_heartbeats",
            "sqt_max_cache_size",
            "sts_cachesize",
            "dsi_num_threads",
            "dsi_serialization_method",
            "dsi_cmd_batch_size",
            "dsi_xact_group_size",
            "dsi_max_xacts_in_group",
            "dsi_bulk_copy",
            "dsi_bulk_threshold",
            "dsi_command_convert",
            "dsi_compile_enable",
            "dsi_compile_max_cmds",
            "dsi_cdb_max_size");
  }

  @Test
  void stableQueueDefaultsMatchTheQueueModule() {
    // The same numbers as io.openrs.queue.QueueSettings.defaults(); config may not import it.
    ParameterValues v = ParameterValues.defaults(Scope.SERVER);
    assertThat(v.getLong("block_size")).isEqualTo(128 * 1024);
    assertThat(v.getInt("sqm_page_size")).isEqualTo(4);
    assertThat(v.getString("sqm_write_flush")).isEqualTo("on");
    assertThat(v.getLong("sqm_cache_size")).isEqualTo(8 << 20);
    assertThat(v.getLong("exec_sqm_write_request_limit")).isEqualTo(1 << 20);
    assertThat(v.getLong("sqm_segment_size")).isEqualTo(64 << 20);
    assertThat(v.getLong("sqm_max_message_size")).isEqualTo(16 << 20);
  }

  @Test
  void findIgnoresCaseAndBlanks() {
    assertThat(CATALOG.find("Block_Size")).map(Parameter::name).contains("block_size");
    assertThat(CATALOG.find(" DSI_NUM_THREADS ")).map(Parameter::name).contains("dsi_num_threads");
    assertThat(CATALOG.find("no_such_parameter")).isEmpty();
    assertThat(CATALOG.require("SQM_WRITE_FLUSH").name()).isEqualTo("sqm_write_flush");
  }

  @Test
  void unknownNamesSuggestTheClosestKnownName() {
    unknown(
        "dsi_num_thread", "unknown parameter 'dsi_num_thread'; did you mean 'dsi_num_threads'?");
    unknown("blocksize", "unknown parameter 'blocksize'; did you mean 'block_size'?");
    unknown(
        "DSI_NUM_TRHEADS", "unknown parameter 'dsi_num_trheads'; did you mean 'dsi_num_threads'?");
    unknown(
        "sqm_write_flsh", "unknown parameter 'sqm_write_flsh'; did you mean 'sqm_write_flush'?");
    unknown("xyzzy", "unknown parameter 'xyzzy'");
    unknown("", "unknown parameter ''");
    assertThat(CATALOG.suggest("sts_full_cache_rs_users"))
        .hasValueSatisfying(s -> assertThat(s).startsWith("sts_full_cache_rs_"));
    assertThat(CATALOG.suggest("memory_limit")).isEmpty();
  }

  private static void unknown(String name, String message) {
    assertThatThrownBy(() -> CATALOG.require(name))
        .isInstanceOf(UnknownParameterException.class)
        .hasMessage(message);
  }

  @Test
  void editDistance() {
    assertThat(ParameterCatalog.distance("", "abc")).isEqualTo(3);
    assertThat(ParameterCatalog.distance("kitten", "sitting")).isEqualTo(3);
    assertThat(ParameterCatalog.distance("block_size", "block_size")).isZero();
  }

  @Test
  void scopes() {
    assertThat(CATALOG.inScope(Scope.QUEUE))
        .extracting(Parameter::name)
        .containsExactly("sqm_cache_enable", "sqm_cache_size", "sqm_page_size");
    assertThat(CATALOG.inScope(Scope.CONNECTION))
        .extracting(Parameter::name)
        .contains("dsi_num_threads", "exec_nrm_request_limit", "save_interval")
        .doesNotContain("block_size", "rssd_url", "sqm_page_size", "agent_heartbeat_interval");
    assertThat(CATALOG.inScope(Scope.SERVER)).hasSameSizeAs(CATALOG.all());
    assertThat(CATALOG.inScope(Scope.CONNECTION))
        .isSortedAccordingTo(Comparator.comparing(Parameter::name));
    Set<Area> areas = CATALOG.all().stream().map(Parameter::area).collect(Collectors.toSet());
    assertThat(areas).containsExactlyInAnyOrder(Area.values());
  }

  @Test
  void commandsCannotSetStartUpFileParametersOrParametersOfAnotherScope() {
    assertThat(CATALOG.requireForCommand("DSI_NUM_THREADS", Scope.CONNECTION).name())
        .isEqualTo("dsi_num_threads");
    assertThat(CATALOG.requireForCommand("dsi_num_threads", Scope.SERVER).name())
        .isEqualTo("dsi_num_threads");
    assertThatThrownBy(() -> CATALOG.requireForCommand("block_size", Scope.CONNECTION))
        .isInstanceOf(ParameterScopeException.class)
        .hasMessage(
            "block_size cannot be set for a connection; it is set for the server"
                + " (configure replication server)");
    assertThatThrownBy(() -> CATALOG.requireForCommand("sqm_page_size", Scope.CONNECTION))
        .isInstanceOf(ParameterScopeException.class)
        .hasMessage(
            "sqm_page_size cannot be set for a connection; it is set for the server"
                + " (configure replication server) or a queue (alter queue)");
    assertThatThrownBy(() -> CATALOG.requireForCommand("rssd_url", Scope.SERVER))
        .isInstanceOf(ParameterScopeException.class)
        .hasMessage(
            "rssd_url is read from the start-up configuration file only; change it there and"
                + " restart the server")
        .satisfies(
            e -> assertThat(((ParameterScopeException) e).requested()).isEqualTo(Scope.SERVER));
    assertThatThrownBy(() -> CATALOG.requireForCommand("dsi_num_thread", Scope.CONNECTION))
        .isInstanceOf(UnknownParameterException.class);
  }

  @Test
  void aCatalogRefusesTwoParametersOfOneName() {
    Parameter p = CATALOG.require("batch");
    assertThatThrownBy(() -> ParameterCatalog.of(List.of(p, p)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("parameter declared twice: batch");
  }
}
