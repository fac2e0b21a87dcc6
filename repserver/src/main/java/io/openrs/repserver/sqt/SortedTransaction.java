package io.openrs.repserver.sqt;

import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.TranId;
import io.openrs.queue.QueuePosition;
import java.util.List;
import java.util.Optional;

/**
 * A committed origin transaction as the sorter hands it to DIST: whole, in commit order.
 *
 * <p>{@code body} holds the commands between begin and commit when they are still cached; it is
 * empty when the sorter removed them to stay within {@code sqt_max_cache_size}, and then the
 * commands are re-read from the inbound queue between {@code firstPosition} and {@code
 * commitPosition} ({@link InboundRereader}).
 *
 * @param tran the origin transaction id
 * @param begin the begin command, absent when the transaction's begin was not seen (see {@link
 *     TransactionSorter})
 * @param commit the commit command
 * @param body the cached commands in log order (row changes' images decoded only when asked), or
 *     empty when removed
 * @param removed whether the body was removed from the cache
 * @param firstPosition inbound position of the transaction's first command
 * @param commitPosition inbound position of the commit
 * @param commandCount commands between begin and commit
 * @param bytes packed bytes of those commands
 */
public record SortedTransaction(
    TranId tran,
    Optional<LtlCommand.Begin> begin,
    LtlCommand.Commit commit,
    List<QueuedCommand> body,
    boolean removed,
    QueuePosition firstPosition,
    QueuePosition commitPosition,
    long commandCount,
    long bytes) {

  public SortedTransaction {
    body = List.copyOf(body);
    if (removed && !body.isEmpty()) {
      throw new IllegalArgumentException("a removed transaction carries no cached body");
    }
  }
}
