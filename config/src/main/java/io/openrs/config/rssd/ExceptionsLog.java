package io.openrs.config.rssd;

import java.util.List;
import java.util.Optional;

/**
 * The exceptions log: {@code rs_exceptshdr} (one row per transaction) and {@code rs_exceptscmd}.
 * {@code add} stores the number of commands ({@link #countCommands}) in the header.
 */
public interface ExceptionsLog {
  /**
   * Logs a transaction with its full content.
   *
   * @return its id
   */
  long add(
      int originConnectionId,
      int replicateConnectionId,
      byte[] originOqid,
      String tranId,
      String error,
      String commandText);

  /** The oldest {@code limit} logged transactions of one replicate connection, oldest first. */
  List<ExceptionEntry> list(int replicateConnectionId, int limit);

  Optional<ExceptionEntry> find(long id);

  /**
   * Deletes one logged transaction.
   *
   * @throws RssdException {@code NOT_FOUND}
   */
  void delete(long id);

  /** The headers of the oldest {@code limit} logged transactions of every connection, by id. */
  List<ExceptionHeader> headers(int limit);

  /** How many transactions the log holds. */
  long count();

  /**
   * Deletes the logged transactions with ids from {@code first} to {@code last}, both included.
   *
   * @return how many were deleted
   * @throws RssdException {@code INVALID} when {@code first > last}
   */
  int deleteRange(long first, long last);

  /**
   * How many commands a command text holds: its lines that are neither blank nor {@code --}
   * comments (LTL text has one command per line).
   */
  static int countCommands(String commandText) {
    int n = 0;
    for (String line : commandText.split("\\R")) {
      String l = line.strip();
      if (!l.isEmpty() && !l.startsWith("--")) {
        n++;
      }
    }
    return n;
  }
}
