package io.openrs.config.rssd;

import java.util.List;
import java.util.Optional;

/**
 * The exceptions log: {@code rs_exceptshdr} (one row per transaction) and {@code rs_exceptscmd}.
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
}
