package io.openrs.repserver.sqt;

import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.packed.PackedDecoder;
import io.openrs.ltl.packed.PackedFormatException;
import io.openrs.queue.QueueMessage;
import io.openrs.queue.QueuePosition;
import io.openrs.queue.StableQueue;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;

/**
 * Re-reads the commands of a transaction the sorter removed from its cache: scans the inbound queue
 * from the transaction's first command to its commit, in chunks, keeping that transaction's
 * commands. Memory stays at one chunk whatever the transaction's size.
 */
public final class InboundRereader {

  private final StableQueue inbound;
  private final int chunkMessages;
  private final SqtStats stats;
  private final PackedDecoder decoder = new PackedDecoder();
  private final String queueName;

  public InboundRereader(StableQueue inbound, int chunkMessages, SqtStats stats) {
    this.inbound = inbound;
    this.queueName = inbound.id().toString();
    this.chunkMessages = chunkMessages;
    this.stats = stats;
  }

  /** The body of {@code t} (begin and commit excluded), in log order. */
  public Iterator<QueuedCommand> body(SortedTransaction t) {
    if (!t.removed()) {
      return t.body().iterator();
    }
    return new Iterator<>() {
      private final ArrayDeque<QueuedCommand> ready = new ArrayDeque<>();
      private QueuePosition next = t.firstPosition();
      private boolean first = true;
      private boolean done;

      @Override
      public boolean hasNext() {
        while (ready.isEmpty() && !done) {
          fill();
        }
        return !ready.isEmpty();
      }

      @Override
      public QueuedCommand next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return ready.poll();
      }

      private void fill() {
        List<QueueMessage> chunk = inbound.dump(next, chunkMessages);
        if (chunk.isEmpty()) {
          throw new IllegalStateException(
              "inbound queue "
                  + inbound.id()
                  + " ended at "
                  + next
                  + " before the commit of removed transaction "
                  + t.tran()
                  + " at "
                  + t.commitPosition());
        }
        for (QueueMessage m : chunk) {
          if (!first && m.position().equals(next)) {
            continue;
          }
          first = false;
          next = m.position();
          if (m.position().compareTo(t.commitPosition()) >= 0) {
            done = true;
            return;
          }
          Optional<QueuedCommand> c = read(m);
          if (c.isPresent()
              && c.get().tran().equals(t.tran())
              && (c.get().isRowChange() || !(c.get().command() instanceof LtlCommand.Begin))) {
            ready.add(c.get());
            stats.cmdsReread++;
          }
        }
      }
    };
  }

  private Optional<QueuedCommand> read(QueueMessage m) {
    try {
      return QueuedCommand.read(queueName, m.position(), m.payload(), decoder);
    } catch (PackedFormatException e) {
      throw new IllegalStateException(
          "inbound queue " + inbound.id() + " holds a damaged command at " + m.position(), e);
    }
  }
}
