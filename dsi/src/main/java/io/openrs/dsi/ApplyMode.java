package io.openrs.dsi;

/**
 * How a DSI applies its transactions, worked out once from its settings ({@link
 * DsiSettings#applyMode()}). The run switches on it in one place ({@code
 * io.openrs.dsi.internal.DsiRun}), with a switch that names every mode: a new mode that the run
 * does not handle does not compile.
 */
public enum ApplyMode {
  /**
   * Continuous mode ({@code dsi_num_threads} 1): one DSIEXEC thread applies groups of transactions
   * one after the other, in commit order.
   */
  CONTINUOUS,

  /**
   * Parallel DSI ({@code dsi_num_threads} above 1): the DSIEXEC threads apply groups at the same
   * time as {@code dsi_serialization_method} allows and commit them in commit order; with {@code
   * dsi_num_large_xact_threads} above 0, that many of them take large transactions, which DSI-S
   * streams to them before their commit is read.
   */
  PARALLEL,

  /**
   * HVAR ({@code dsi_compile_enable on}, whatever {@code dsi_num_threads}): a compiling thread nets
   * many transactions into one group per replicate table, which {@code dsi_num_threads} DSIEXEC
   * threads apply set-based; DSI-S holds transactions packed.
   */
  HVAR
}
