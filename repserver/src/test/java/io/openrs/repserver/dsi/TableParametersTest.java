package io.openrs.repserver.dsi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.openrs.dsi.CommandConversion;
import io.openrs.dsi.DsiSettings;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TableParametersTest {
  private final DsiSettings connection =
      DsiSettings.defaults().withTableCommandConvert(Map.of()).withHvar(hvarOn());

  private static DsiSettings.Hvar hvarOn() {
    return DsiSettings.defaults().hvar().withEnable(true);
  }

  @Test
  void compileEnableOffKeepsTheTableOutOfHvarAndOnLeavesItIn() {
    DsiSettings s =
        TableParameters.apply(
            connection,
            Map.of(
                TableParameters.key("dsi_compile_enable", "shop.big_tab"),
                "off",
                TableParameters.key("dsi_compile_enable", "shop.orders"),
                "on",
                "dsi_num_threads",
                "4",
                "server",
                "127.0.0.1"));

    assertThat(s.hvar().enable()).isTrue();
    assertThat(s.hvar().tablesNotCompiled()).containsExactly("shop.big_tab");
  }

  @Test
  void commandConvertOverridesTheConnectionsForItsTableAndNoneInherits() {
    DsiSettings s =
        TableParameters.apply(
            connection,
            Map.of(
                TableParameters.key("DSI_COMMAND_CONVERT", "shop.orders"), "i2di,d2none",
                TableParameters.key("dsi_command_convert", "shop.lines"), "none"));

    assertThat(s.conversionsFor("shop.orders"))
        .isEqualTo(Set.of(CommandConversion.I2DI, CommandConversion.D2NONE));
    assertThat(s.conversionsFor("shop.lines")).isEqualTo(connection.conversionsFor("shop.lines"));
    assertThat(s.conversionsFor("shop.other")).isEqualTo(connection.conversionsFor("shop.other"));
  }

  @Test
  void withoutTableValuesTheConnectionsSettingsStand() {
    assertThat(TableParameters.apply(connection, Map.of("dsi_num_threads", "4")))
        .isEqualTo(connection);
  }

  @Test
  void aStoredValueTheConversionsRefuseIsNamed() {
    assertThatThrownBy(
            () ->
                TableParameters.apply(
                    connection,
                    Map.of(TableParameters.key("dsi_command_convert", "shop.t"), "i2di,i2none")))
        .hasMessageContaining("dsi_command_convert")
        .hasMessageContaining("i2");
  }
}
