package io.openrs.dsi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.openrs.config.param.ParameterValues;
import io.openrs.config.param.Scope;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The settings record read from a connection's parameters. */
class DsiSettingsTest {

  @Test
  void defaultsComeFromTheCatalogue() {
    DsiSettings s = DsiSettings.defaults();
    assertThat(s.numThreads()).isEqualTo(1);
    assertThat(s.maxXactsInGroup()).isEqualTo(20);
    assertThat(s.cmdBatchSizeBytes()).isEqualTo(64 * 1024);
    assertThat(s.bulkCopy()).isFalse();
    assertThat(s.commandConvert()).isEmpty();
    assertThat(s.commandRetry()).isEqualTo(3);
    assertThat(s.applyDdl()).isFalse();
    assertThat(s.serializationMethod()).isEqualTo(SerializationMethod.DEPENDENCY_AWARE);
    assertThat(s.isolationLevel()).isEqualTo(IsolationLevel.DEFAULT);
  }

  @Test
  void connectionValuesAreRead() {
    DsiSettings s =
        DsiSettings.from(
            ParameterValues.defaults(Scope.CONNECTION)
                .with("dsi_num_threads", "4")
                .with("dsi_command_convert", "i2di,u2none")
                .with("dsi_isolation_level", "serializable")
                .with("dsi_bulk_copy", "on"));
    assertThat(s.numThreads()).isEqualTo(4);
    assertThat(s.commandConvert())
        .containsExactlyInAnyOrder(CommandConversion.I2DI, CommandConversion.U2NONE);
    assertThat(s.isolationLevel()).isEqualTo(IsolationLevel.SERIALIZABLE);
    assertThat(s.bulkCopy()).isTrue();
  }

  @Test
  void theApplyModeIsHvarWhenCompilingElseParallelWithSeveralThreads() {
    ParameterValues v = ParameterValues.defaults(Scope.CONNECTION);
    assertThat(DsiSettings.from(v).applyMode()).isEqualTo(ApplyMode.CONTINUOUS);
    assertThat(DsiSettings.from(v.with("dsi_num_threads", "4")).applyMode())
        .isEqualTo(ApplyMode.PARALLEL);
    assertThat(DsiSettings.from(v.with("dsi_compile_enable", "on")).applyMode())
        .isEqualTo(ApplyMode.HVAR);
    assertThat(
            DsiSettings.from(v.with("dsi_compile_enable", "on").with("dsi_num_threads", "4"))
                .applyMode())
        .isEqualTo(ApplyMode.HVAR);
  }

  @Test
  void largeTransactionThreadsArePartOfTheThreadsAndFewerThanThem() {
    ParameterValues v =
        ParameterValues.defaults(Scope.CONNECTION)
            .with("dsi_num_threads", "4")
            .with("dsi_num_large_xact_threads", "1");
    assertThat(DsiSettings.from(v).numLargeXactThreads()).isEqualTo(1);
    assertThat(DsiSettings.defaults().numLargeXactThreads()).isZero();
    assertThatThrownBy(() -> DsiSettings.from(v.with("dsi_num_large_xact_threads", "4")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "dsi_num_large_xact_threads is 4, expected less than dsi_num_threads (4): the"
                + " large-transaction threads are part of dsi_num_threads, and at least one thread"
                + " must remain for the other transactions");
    assertThatThrownBy(() -> DsiSettings.from(v.with("dsi_num_threads", "1")))
        .hasMessageStartingWith(
            "dsi_num_large_xact_threads is 1, expected less than dsi_num_threads (1)");
  }

  @Test
  void hvarParametersAreRead() {
    DsiSettings.Hvar d = DsiSettings.defaults().hvar();
    assertThat(d.enable()).isFalse();
    assertThat(d.maxCmds()).isEqualTo(50_000);
    assertThat(d.cdbMaxSizeBytes()).isEqualTo(256L << 20);
    assertThat(d.retryThreshold()).isEqualTo(3);
    DsiSettings s =
        DsiSettings.from(
            ParameterValues.defaults(Scope.CONNECTION)
                .with("dsi_compile_enable", "on")
                .with("dsi_compile_max_cmds", "1000")
                .with("dsi_cdb_max_size", "2097152")
                .with("dsi_compile_retry_threshold", "5")
                .with("dsi_retry", "1"));
    assertThat(s.hvar()).isEqualTo(new DsiSettings.Hvar(true, 1000, 2L << 20, 5, Set.of()));
    assertThat(s.suspendOnGroupFailure()).isTrue();
    assertThat(s.withHvar(s.hvar().withMaxCmds(1)).hvar().maxCmds()).isEqualTo(1);
    assertThatThrownBy(() -> s.hvar().withMaxCmds(0))
        .hasMessageContaining("dsi_compile_max_cmds is 0");
  }

  @Test
  void aTableLevelConversionOverridesTheConnectionsAndEmptyInherits() {
    DsiSettings s =
        DsiSettings.from(
                ParameterValues.defaults(Scope.CONNECTION).with("dsi_command_convert", "d2none"))
            .withTableCommandConvert(
                Map.of("s.a", Set.of(CommandConversion.I2NONE), "s.b", Set.of()));
    assertThat(s.conversionsFor("s.a")).containsExactly(CommandConversion.I2NONE);
    assertThat(s.conversionsFor("s.b")).containsExactly(CommandConversion.D2NONE);
    assertThat(s.conversionsFor("s.c")).containsExactly(CommandConversion.D2NONE);
  }

  @Test
  void aConversionListNamingOneOperationTwiceIsRefused() {
    assertThatThrownBy(() -> CommandConversion.parse(List.of("i2di", "i2none")))
        .hasMessageContaining("i2di and i2none both convert operation 'i'");
    assertThat(CommandConversion.parse(List.of("none"))).isEmpty();
  }

  @Test
  void thePasswordIsNeverPrinted() {
    assertThat(new DsiTarget(1, "a.b", "postgresql", "jdbc:x", "u", "s3cret").toString())
        .doesNotContain("s3cret");
  }
}
