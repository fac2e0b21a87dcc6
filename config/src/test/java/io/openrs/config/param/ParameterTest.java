package io.openrs.config.param;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Parsing, canonical forms and the exact error text for each type. */
class ParameterTest {
  private static final ParameterCatalog CATALOG = ParameterCatalog.standard();

  private static Parameter p(String name) {
    return CATALOG.require(name);
  }

  private static void refused(String name, String value, String message) {
    assertThatThrownBy(() -> p(name).normalize(value))
        .isInstanceOf(InvalidParameterValueException.class)
        .hasMessage(message)
        .satisfies(
            e -> {
              InvalidParameterValueException ipe = (InvalidParameterValueException) e;
              assertThat(ipe.parameterName()).isEqualTo(name);
              assertThat(ipe.value()).isEqualTo(value.trim());
            });
  }

  @Test
  void blockSizeAcceptsTheFiveSizesInBytesOrWithSuffix() {
    assertThat(p("block_size").normalize("16384")).isEqualTo("16384");
    assertThat(p("block_size").normalize("64k")).isEqualTo("65536");
    assertThat(p("block_size").normalize(" 256K ")).isEqualTo("262144");
    assertThat(p("block_size").parse("128k")).isEqualTo(131072L);
  }

  @Test
  void blockSizeOutOfRangeOrNotOneOfTheSizes() {
    refused("block_size", "1000", "block_size: 1000 is out of range 16384..262144");
    refused("block_size", "64", "block_size: 64 is out of range 16384..262144");
    refused("block_size", "1k", "block_size: 1k (1024) is out of range 16384..262144");
    refused(
        "block_size",
        "49152",
        "block_size: 49152 is not one of 16384, 32768, 65536, 131072, 262144");
    refused(
        "block_size",
        "48k",
        "block_size: 48k (49152) is not one of 16384, 32768, 65536, 131072, 262144");
    refused(
        "block_size",
        "64 KB",
        "block_size: '64 KB' is not a byte count (an integer, optionally followed by k, m or g)");
    refused("block_size", "99999999999g", "block_size: 99999999999g is out of range 16384..262144");
  }

  @Test
  void segmentSizeMustBeWholeMebibytes() {
    assertThat(p("sqm_segment_size").normalize("2m")).isEqualTo("2097152");
    assertThat(p("sqm_segment_size").normalize("1G")).isEqualTo("1073741824");
    refused(
        "sqm_segment_size", "1572864", "sqm_segment_size: 1572864 is not a multiple of 1048576");
    refused(
        "sqm_segment_size",
        "1.5m",
        "sqm_segment_size: '1.5m' is not a byte count"
            + " (an integer, optionally followed by k, m or g)");
  }

  @Test
  void integers() {
    assertThat(p("dsi_num_threads").normalize(" 4 ")).isEqualTo("4");
    assertThat(p("dsi_num_threads").normalize("+4")).isEqualTo("4");
    assertThat(p("dsi_num_threads").parse("255")).isEqualTo(255L);
    refused("dsi_num_threads", "0", "dsi_num_threads: 0 is out of range 1..255");
    refused("dsi_num_threads", "-1", "dsi_num_threads: -1 is out of range 1..255");
    refused("dsi_num_threads", "256", "dsi_num_threads: 256 is out of range 1..255");
    refused("dsi_num_threads", "four", "dsi_num_threads: 'four' is not an integer");
    refused("dsi_num_threads", "4.0", "dsi_num_threads: '4.0' is not an integer");
    refused("dsi_num_threads", "", "dsi_num_threads: '' is not an integer");
    refused(
        "dsi_num_threads",
        "99999999999999999999",
        "dsi_num_threads: 99999999999999999999 is out of range 1..255");
    assertThat(p("dsi_large_xact_size").normalize("4294967295")).isEqualTo("4294967295");
  }

  @Test
  void durationsAreWholeMilliseconds() {
    assertThat(p("agent_heartbeat_interval").parse("250")).isEqualTo(Duration.ofMillis(250));
    refused(
        "agent_heartbeat_interval",
        "5s",
        "agent_heartbeat_interval: '5s' is not an integer number of milliseconds");
    refused(
        "agent_heartbeat_interval",
        "50",
        "agent_heartbeat_interval: 50 is out of range 100..600000");
  }

  @Test
  void booleansAcceptOnOffTrueFalseInAnyCase() {
    assertThat(p("dsi_bulk_copy").normalize("ON")).isEqualTo("on");
    assertThat(p("dsi_bulk_copy").normalize("true")).isEqualTo("on");
    assertThat(p("dsi_bulk_copy").normalize("False")).isEqualTo("off");
    assertThat(p("dsi_bulk_copy").parse("off")).isEqualTo(false);
    refused(
        "dsi_bulk_copy", "yes", "dsi_bulk_copy: 'yes' is not a boolean (on, off, true or false)");
    refused("dsi_bulk_copy", "1", "dsi_bulk_copy: '1' is not a boolean (on, off, true or false)");
  }

  @Test
  void enums() {
    assertThat(p("sqm_write_flush").normalize("DIO")).isEqualTo("dio");
    assertThat(p("dsi_serialization_method").parse("No_Wait")).isEqualTo("no_wait");
    refused("sqm_write_flush", "sync", "sqm_write_flush: 'sync' is not one of on, off, dio");
  }

  @Test
  void listsAreDistinctAllowedValuesInCatalogOrder() {
    Parameter convert = p("dsi_command_convert");
    assertThat(convert.normalize("U2DI, i2di")).isEqualTo("i2di,u2di");
    assertThat(convert.normalize("NONE")).isEqualTo("none");
    assertThat(convert.parse("none")).isEqualTo(List.of());
    assertThat(convert.parse("u2di,d2none")).isEqualTo(List.of("d2none", "u2di"));
    String values = "none, i2none, u2none, d2none, t2none, i2di, u2di";
    refused("dsi_command_convert", "i2x", "dsi_command_convert: 'i2x' is not one of " + values);
    refused(
        "dsi_command_convert",
        "i2di, i2x",
        "dsi_command_convert: 'i2x' is not one of " + values + " (in 'i2di, i2x')");
    refused("dsi_command_convert", "", "dsi_command_convert: '' is not one of " + values);
    refused(
        "dsi_command_convert", "i2di,I2DI", "dsi_command_convert: 'i2di,I2DI' lists i2di twice");
    refused(
        "dsi_command_convert",
        "none,i2di",
        "dsi_command_convert: 'none,i2di': none cannot be combined with other values");
  }

  @Test
  void stringsWithALengthRange() {
    assertThat(p("rs_name").normalize(" SYDNEY_RS ")).isEqualTo("SYDNEY_RS");
    String longName = "A".repeat(31);
    refused("rs_name", longName, "rs_name: '" + longName + "' has 31 characters, outside 1..30");
    refused("rs_name", "", "rs_name: '' has 0 characters, outside 1..30");
  }

  @Test
  void longValuesAreCutInMessages() {
    String value = "x".repeat(150);
    refused(
        "sqm_write_flush",
        value,
        "sqm_write_flush: '" + "x".repeat(100) + "...' is not one of on, off, dio");
  }

  @Test
  void paths() {
    assertThat(p("data_directory").parse("/var/openrs")).isEqualTo(Path.of("/var/openrs"));
    refused("data_directory", " ", "data_directory: '' is not a path");
    assertThatThrownBy(() -> p("data_directory").normalize("a\0b"))
        .isInstanceOf(InvalidParameterValueException.class)
        .hasMessageStartingWith("data_directory: 'a\0b' is not a path: ");
  }

  @Test
  void labelsForDocsAndAdminConfig() {
    Parameter block = p("block_size");
    assertThat(block.scopeLabel()).isEqualTo("server");
    assertThat(block.typeLabel()).isEqualTo("bytes");
    assertThat(block.defaultLabel()).isEqualTo("131072 (128 KiB)");
    assertThat(block.rangeLabel()).isEqualTo("16 KiB, 32 KiB, 64 KiB, 128 KiB, 256 KiB");
    assertThat(p("sqm_segment_size").rangeLabel()).isEqualTo("1 MiB..1 GiB, a multiple of 1 MiB");
    assertThat(p("exec_sqm_write_request_limit").rangeLabel()).isEqualTo("16 KiB..2147483647");
    assertThat(p("sqm_page_size").typeLabel()).isEqualTo("integer (blocks)");
    assertThat(p("sqm_page_size").scopeLabel()).isEqualTo("server, queue");
    assertThat(p("dsi_num_threads").scopeLabel()).isEqualTo("server, connection");
    assertThat(p("dsi_bulk_copy").rangeLabel()).isEqualTo("on, off");
    assertThat(p("rs_name").rangeLabel()).isEqualTo("1..30 characters");
    assertThat(Parameter.readableBytes(0)).isEqualTo("0");
    assertThat(Parameter.readableBytes(1536)).isEqualTo("1536");
    assertThat(Parameter.readableBytes(1L << 40)).isEqualTo("1 TiB");
  }

  @Test
  void badDeclarationsAreRefused() {
    assertThatThrownBy(() -> declare("Bad-Name", ParamType.INTEGER, "1", 0, 10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("parameter name is not lower_snake_case: Bad-Name");
    assertThatThrownBy(() -> declare("too_big", ParamType.INTEGER, "11", 0, 10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("invalid default: too_big: 11 is out of range 0..10");
    assertThatThrownBy(() -> declare("not_canonical", ParamType.BYTES, "16k", 0, 1 << 20))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("not_canonical: default '16k' is not in canonical form '16384'");
    assertThatThrownBy(() -> declare("no_range", ParamType.INTEGER, "1", 10, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("no_range: a numeric parameter needs min <= max");
  }

  private static Parameter declare(String name, ParamType type, String dflt, long min, long max) {
    return new Parameter(
        name,
        Area.DSI,
        Set.of(Scope.SERVER),
        type,
        "",
        dflt,
        OptionalLong.of(min),
        OptionalLong.of(max),
        OptionalLong.empty(),
        List.of(),
        TakesEffect.IMMEDIATELY,
        false,
        false,
        "test");
  }
}
