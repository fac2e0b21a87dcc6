package io.openrs.repagent.support;

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
 * Reads a server's queues back (copied in spirit from the server's test support, which the agent
 * does not import): the inbound queue as the commands the server took, an outbound queue as the
 * whole transactions DIST wrote, in queue order.
 */
public final class QueueContents {

  /** One transaction as it sits in an outbound queue. */
  public record Transaction(
      TranId tran,
      LtlCommand.Begin begin,
      List<LtlCommand.InTransaction> body,
      LtlCommand.Commit commit) {}

  private QueueContents() {}

  private static List<QueueMessage> all(StableQueue queue) {
    List<QueueMessage> out = new ArrayList<>();
    QueuePosition after = null;
    while (true) {
      List<QueueMessage> chunk =
          after == null ? queue.dumpFromStart(1000) : queue.dump(after, 1001);
      int first = after == null ? 0 : 1;
      if (chunk.size() <= first) {
        break;
      }
      out.addAll(chunk.subList(first, chunk.size()));
      after = chunk.get(chunk.size() - 1).position();
    }
    return out;
  }

  /** Every command of an inbound queue (packed commands), in queue order. */
  public static List<LtlCommand.InTransaction> inbound(StableQueue queue) throws Exception {
    PackedDecoder decoder = new PackedDecoder();
    List<LtlCommand.InTransaction> out = new ArrayList<>();
    for (QueueMessage m : all(queue)) {
      decoder.decode(m.payload()).ifPresent(c -> out.add((LtlCommand.InTransaction) c));
    }
    return out;
  }

  /** The complete transactions of an outbound queue; a begin ends an unfinished one. */
  public static List<Transaction> outbound(StableQueue queue) throws Exception {
    PackedDecoder decoder = new PackedDecoder();
    List<Transaction> out = new ArrayList<>();
    LtlCommand.Begin begin = null;
    List<LtlCommand.InTransaction> body = new ArrayList<>();
    for (QueueMessage m : all(queue)) {
      LtlCommand c = OriginEnvelope.commandOf(m.payload(), decoder).orElseThrow();
      if (c instanceof LtlCommand.Begin b) {
        begin = b;
        body = new ArrayList<>();
      } else if (c instanceof LtlCommand.Commit commit) {
        if (begin == null || !begin.tran().equals(commit.tran())) {
          throw new AssertionError("commit without its begin at " + m.position());
        }
        out.add(new Transaction(commit.tran(), begin, body, commit));
        begin = null;
      } else {
        if (begin == null) {
          throw new AssertionError("command outside a transaction at " + m.position());
        }
        body.add((LtlCommand.InTransaction) c);
      }
    }
    return out;
  }
}
