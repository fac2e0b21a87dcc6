package io.openrs.repserver.admin.rcl;

import java.util.Locale;

/**
 * The error actions of {@code assign action}, from the least to the most severe (Replication
 * Server's names; the DSI's {@code ErrorAction} has the same constants).
 */
public enum RclErrorAction {
  IGNORE,
  WARN,
  RETRY_LOG,
  LOG,
  RETRY_STOP,
  STOP_REPLICATION;

  /** The action as written in RCL: {@code retry_stop}. */
  public String rcl() {
    return name().toLowerCase(Locale.ROOT);
  }
}
