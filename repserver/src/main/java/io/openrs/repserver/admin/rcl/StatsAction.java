package io.openrs.repserver.admin.rcl;

import java.util.Locale;

/** What an {@code admin stats} command asks for. */
public enum StatsAction {
  /** Show counters: {@code admin stats[, module ...][, display[, obs]]}. */
  SHOW,
  /** Sample counters to the RSSD in the background: {@code ..., save[, obs[, period]]}. */
  SAVE,
  /** {@code admin stats, backlog}: backlog per queue reader. */
  BACKLOG,
  /** {@code admin stats, tps}: transactions per second. */
  TPS,
  /** {@code admin stats, cps}: commands per second. */
  CPS,
  /** {@code admin stats, bps}: bytes per second. */
  BPS,
  /** {@code admin stats, reset}: zero all counters. */
  RESET,
  /** {@code admin stats, status}: state of sampling and of a background save. */
  STATUS,
  /** {@code admin stats, cancel}: stops the running background save; what it saved stays. */
  CANCEL;

  /** The keyword as written in RCL ({@code backlog}, {@code tps}, ...). */
  public String keyword() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** True for the actions written alone after {@code admin stats,}. */
  boolean standalone() {
    return this != SHOW && this != SAVE;
  }
}
