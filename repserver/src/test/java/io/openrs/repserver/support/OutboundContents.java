package io.openrs.repserver.support;

import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.TranId;
import io.openrs.ltl.packed.OriginEnvelope;
import io.openrs.ltl.packed.PackedDecoder;
import io.openrs.queue.QueueMessage;
import io.openrs.queue.QueuePosition;
import io.openrs.queue.StableQueue;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a whole outbound queue back as the complete transactions DIST wrote, in queue order,
 * applying the outbound queue's rule for transactions cut short by a crash: a begin ends an
 * unfinished transaction, which is dropped, and an unfinished transaction at the end is not (yet)
 * there.
 */
public final class OutboundContents {

  /** One transaction as it sits in an outbound queue. */
  public record Transaction(
      int origin,
      TranId tran,
      LtlCommand.Begin begin,
      List<LtlCommand.InTransaction> body,
      LtlCommand.Commit commit) {}

  private OutboundContents() {}

  /** Every message of the queue, decoded, with its origin. */
  public static List<Transaction> read(StableQueue queue) throws Exception {
    PackedDecoder decoder = new PackedDecoder();
    List<Transaction> out = new ArrayList<>();
    QueuePosition after = null;
    LtlCommand.Begin begin = null;
    List<LtlCommand.InTransaction> body = new ArrayList<>();
    while (true) {
      List<QueueMessage> chunk =
          after == null ? queue.dumpFromStart(1000) : queue.dump(after, 1001);
      int first = after == null ? 0 : 1;
      if (chunk.size() <= first) {
        break;
      }
      for (QueueMessage m : chunk.subList(first, chunk.size())) {
        int origin = OriginEnvelope.originOf(m.payload());
        LtlCommand c = OriginEnvelope.commandOf(m.payload(), decoder).orElseThrow();
        if (c instanceof LtlCommand.Begin b) {
          // A transaction cut short by a crash is followed by its full rewrite: the outbound
          // queue's rule is that a begin ends an unfinished transaction, which the DSI drops.
          begin = b;
          body = new ArrayList<>();
        } else if (c instanceof LtlCommand.Commit commit) {
          if (begin == null || !begin.tran().equals(commit.tran())) {
            throw new AssertionError("commit without its begin at " + m.position());
          }
          out.add(new Transaction(origin, commit.tran(), begin, body, commit));
          begin = null;
        } else {
          if (begin == null) {
            throw new AssertionError("command outside a transaction at " + m.position());
          }
          body.add((LtlCommand.InTransaction) c);
        }
      }
      after = chunk.get(chunk.size() - 1).position();
    }
    // An unfinished transaction at the end is still being written (or was cut by a crash).
    return out;
  }
}
