package io.openrs.config.rssd;

import java.util.Objects;

/**
 * A transaction written to the exceptions log ({@code rs_exceptshdr} + {@code rs_exceptscmd}):
 * skipped by {@code resume connection ... skip transaction} or by a {@code log} error action.
 *
 * @param header its header row: ids, OQID, error, when it was logged
 * @param commandText the transaction's commands as text
 */
public record ExceptionEntry(ExceptionHeader header, String commandText) {
  public ExceptionEntry {
    Objects.requireNonNull(header, "header");
    Objects.requireNonNull(commandText, "commandText");
  }

  /** The log id ({@code sys_trans_id}). */
  public long id() {
    return header.id();
  }

  @Override
  public String toString() {
    return "ExceptionEntry[" + header + ", commandText=" + commandText.length() + " chars]";
  }
}
