package io.openrs.config.param;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ParameterValuesTest {

  enum Flush {
    ON,
    OFF,
    DIO
  }

  enum Serialization {
    DEPENDENCY_AWARE,
    NO_WAIT,
    WAIT_FOR_START,
    WAIT_FOR_COMMIT,
    WAIT_AFTER_COMMIT
  }

  @Test
  void defaultsThroughTheTypedGetters() {
    ParameterValues v = ParameterValues.defaults(Scope.CONNECTION);
    assertThat(v.scope()).isEqualTo(Scope.CONNECTION);
    assertThat(v.catalog()).isSameAs(ParameterCatalog.standard());
    assertThat(v.getInt("dsi_num_threads")).isEqualTo(1);
    assertThat(v.getLong("block_size")).isEqualTo(131072);
    assertThat(v.getBoolean("sqm_cache_enable")).isTrue();
    assertThat(v.getBoolean("dsi_bulk_copy")).isFalse();
    assertThat(v.getEnum("sqm_write_flush", Flush.class)).isEqualTo(Flush.ON);
    assertThat(v.getEnum("dsi_serialization_method", Serialization.class))
        .isEqualTo(Serialization.DEPENDENCY_AWARE);
    assertThat(v.getDuration("exec_handshake_timeout")).isEqualTo(Duration.ofSeconds(10));
    assertThat(v.getLong("exec_handshake_timeout")).isEqualTo(10_000);
    assertThat(v.getPath("data_directory")).isEqualTo(Path.of("data"));
    assertThat(v.getList("dsi_command_convert")).isEmpty();
    assertThat(v.getString("rssd_url")).isEqualTo("embedded");
    assertThat(v.get("DSI_NUM_THREADS")).isEqualTo("1");
    assertThat(v.explicitValues()).isEmpty();
    assertThat(v.explicitValue("dsi_num_threads")).isEmpty();
  }

  @Test
  void withValidatesStoresCanonicalTextAndLeavesTheOriginalAlone() {
    ParameterValues base = ParameterValues.defaults(Scope.SERVER);
    ParameterValues v =
        base.with("Block_Size", "64K")
            .with("dsi_command_convert", "u2di,i2di")
            .with("sqm_write_flush", "DIO");
    assertThat(v.getLong("block_size")).isEqualTo(65536);
    assertThat(v.explicitValues())
        .containsExactly(
            Map.entry("block_size", "65536"),
            Map.entry("dsi_command_convert", "i2di,u2di"),
            Map.entry("sqm_write_flush", "dio"));
    assertThat(v.getList("dsi_command_convert")).containsExactly("i2di", "u2di");
    assertThat(v.getEnum("sqm_write_flush", Flush.class)).isEqualTo(Flush.DIO);
    assertThat(base.explicitValues()).isEmpty();
    assertThat(v.without("block_size").getLong("block_size")).isEqualTo(131072);
    assertThat(v.without("dsi_num_threads")).isSameAs(v);
    assertThat(v.with("block_size", "64k")).isEqualTo(v).hasSameHashCodeAs(v);
    assertThat(v.toString())
        .isEqualTo(
            "ParameterValues[server, explicit={block_size=65536, dsi_command_convert=i2di,u2di,"
                + " sqm_write_flush=dio}]");
  }

  @Test
  void withRefusesUnknownNamesWrongScopesAndBadValues() {
    ParameterValues conn = ParameterValues.defaults(Scope.CONNECTION);
    assertThatThrownBy(() -> conn.with("dsi_num_thread", "4"))
        .isInstanceOf(UnknownParameterException.class)
        .hasMessage("unknown parameter 'dsi_num_thread'; did you mean 'dsi_num_threads'?");
    assertThatThrownBy(() -> conn.with("block_size", "64k"))
        .isInstanceOf(ParameterScopeException.class)
        .hasMessage(
            "block_size cannot be set for a connection; it is set for the server"
                + " (configure replication server)");
    assertThatThrownBy(() -> conn.with("dsi_num_threads", "0"))
        .isInstanceOf(InvalidParameterValueException.class)
        .hasMessage("dsi_num_threads: 0 is out of range 1..255");
  }

  @Test
  void ofReportsEveryProblemAtOnceInNameOrder() {
    Map<String, String> file = new LinkedHashMap<>();
    file.put("sqm_write_flush", "sync");
    file.put("dsi_num_thread", "4");
    file.put("dsi_num_threads", "4");
    file.put("block_size", "1000");
    file.put("sqm_page_size", "8");
    assertThatThrownBy(() -> ParameterValues.of(Scope.SERVER, file))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessage(
            "3 invalid parameters in the server's configuration:\n"
                + "  block_size: 1000 is out of range 16384..262144\n"
                + "  unknown parameter 'dsi_num_thread'; did you mean 'dsi_num_threads'?\n"
                + "  sqm_write_flush: 'sync' is not one of on, off, dio")
        .satisfies(
            e ->
                assertThat(((InvalidConfigurationException) e).problems())
                    .extracting(ParameterException::parameterName)
                    .containsExactly("block_size", "dsi_num_thread", "sqm_write_flush"));
  }

  @Test
  void ofRefusesParametersOfAnotherScopeAndTheSameNameTwice() {
    Map<String, String> conn = new LinkedHashMap<>();
    conn.put("dsi_num_threads", "4");
    conn.put("DSI_NUM_THREADS", "5");
    conn.put("sqm_segment_size", "128m");
    assertThatThrownBy(() -> ParameterValues.of(Scope.CONNECTION, conn))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessage(
            "2 invalid parameters in a connection's configuration:\n"
                + "  dsi_num_threads: set twice, to '4' and '5'\n"
                + "  sqm_segment_size cannot be set for a connection; it is set for the server"
                + " (configure replication server)");
  }

  @Test
  void ofAcceptsStartUpFileParameters() {
    ParameterValues file =
        ParameterValues.of(Scope.SERVER, Map.of("rs_name", "SYDNEY_RS", "ltl_port", "15000"));
    assertThat(file.getString("rs_name")).isEqualTo("SYDNEY_RS");
    assertThat(file.getInt("ltl_port")).isEqualTo(15000);
  }

  @Test
  void connectionValuesFallBackToTheServersThenToDefaults() {
    ParameterValues server =
        ParameterValues.of(
            Scope.SERVER, Map.of("dsi_num_threads", "4", "block_size", "64k", "batch", "off"));
    ParameterValues conn =
        ParameterValues.of(Scope.CONNECTION, Map.of("dsi_max_xacts_in_group", "5", "batch", "on"))
            .over(server);
    assertThat(conn.getInt("dsi_num_threads")).isEqualTo(4);
    assertThat(conn.getInt("dsi_max_xacts_in_group")).isEqualTo(5);
    assertThat(conn.getBoolean("batch")).isTrue();
    assertThat(conn.getLong("block_size")).isEqualTo(65536);
    assertThat(conn.getInt("dsi_bulk_threshold")).isEqualTo(20);
    assertThat(conn.explicitValues()).containsOnlyKeys("dsi_max_xacts_in_group", "batch");

    ParameterValues changed = conn.with("dsi_num_threads", "8");
    assertThat(changed.getInt("dsi_num_threads")).isEqualTo(8);
    assertThat(conn.getInt("dsi_num_threads")).isEqualTo(4);
    assertThat(server.getInt("dsi_num_threads")).isEqualTo(4);
    assertThat(changed.without("batch").getBoolean("batch")).isFalse();
    assertThat(changed.without("dsi_max_xacts_in_group").getInt("dsi_max_xacts_in_group"))
        .isEqualTo(20);

    Map<String, String> effective = conn.effectiveValues();
    assertThat(effective).hasSize(ParameterCatalog.standard().all().size());
    assertThat(effective)
        .containsEntry("dsi_num_threads", "4")
        .containsEntry("dsi_max_xacts_in_group", "5")
        .containsEntry("block_size", "65536")
        .containsEntry("dsi_bulk_threshold", "20");
    assertThat(List.copyOf(effective.keySet())).isSorted();
  }

  @Test
  void queueOverRssdOverStartUpFile() {
    ParameterValues file =
        ParameterValues.of(Scope.SERVER, Map.of("sqm_page_size", "8", "rs_name", "TOKYO_RS"));
    ParameterValues rssd =
        ParameterValues.of(Scope.SERVER, Map.of("sqm_page_size", "16")).over(file);
    ParameterValues queue =
        ParameterValues.of(Scope.QUEUE, Map.of("sqm_page_size", "2")).over(rssd);
    assertThat(queue.getInt("sqm_page_size")).isEqualTo(2);
    assertThat(ParameterValues.defaults(Scope.QUEUE).over(rssd).getInt("sqm_page_size"))
        .isEqualTo(16);
    assertThat(ParameterValues.defaults(Scope.QUEUE).over(file).getInt("sqm_page_size"))
        .isEqualTo(8);
    assertThat(queue.getString("rs_name")).isEqualTo("TOKYO_RS");
    assertThat(rssd.without("sqm_page_size").getInt("sqm_page_size")).isEqualTo(8);
  }

  @Test
  void layersMustShareACatalogAndFallBackToServerOrTheirOwnScope() {
    ParameterValues conn = ParameterValues.defaults(Scope.CONNECTION);
    ParameterValues queue = ParameterValues.defaults(Scope.QUEUE);
    assertThatThrownBy(() -> queue.over(conn))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("queue values cannot be layered over connection values");
    ParameterCatalog other = ParameterCatalog.of(ParameterCatalog.standard().all());
    assertThatThrownBy(() -> conn.over(ParameterValues.defaults(other, Scope.SERVER)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("layers must share one catalog");
    assertThat(conn.over(ParameterValues.defaults(Scope.CONNECTION)).getInt("dsi_num_threads"))
        .isEqualTo(1);
  }

  @Test
  void typedGettersRefuseTheWrongType() {
    ParameterValues v = ParameterValues.defaults(Scope.SERVER);
    assertThatThrownBy(() -> v.getBoolean("dsi_num_threads"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("dsi_num_threads is of type INTEGER, not [BOOLEAN]");
    assertThatThrownBy(() -> v.getDuration("dsi_num_threads"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> v.getInt("sqt_max_cache_size"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("sqt_max_cache_size ranges up to 68719476736, beyond an int: use getLong");
    assertThatThrownBy(() -> v.getEnum("sqm_write_flush", Serialization.class))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageEndingWith("has no constant for sqm_write_flush value 'on'");
    assertThatThrownBy(() -> v.getLong("no_such_parameter"))
        .isInstanceOf(UnknownParameterException.class);
  }
}
