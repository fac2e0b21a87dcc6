package io.openrs.repserver.origin;

import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.packed.OriginEnvelope;
import io.openrs.ltl.packed.PackedDecoder;
import io.openrs.ltl.packed.PackedFormatException;
import io.openrs.queue.QueueMessage;
import io.openrs.queue.QueuePosition;
import io.openrs.queue.StableQueue;
import io.openrs.repserver.dist.OutboundQueue;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a restart learns from the queues themselves before the pipelines start: the last OQID an
 * inbound queue holds (the origin's truncation point may be ahead of its saved locator) and, per
 * outbound queue, the last commit of each origin it holds (so a transaction re-read from an inbound
 * queue is not written to it twice).
 */
public final class QueueScan {

  private static final int CHUNK = 4096;

  private QueueScan() {}

  /**
   * The last commit of each origin in each outbound queue.
   *
   * @return origin connection id to (replicate connection id to the OQID of its last commit there)
   * @throws IllegalStateException naming the queue and position of a damaged message
   */
  public static Map<Integer, Map<Integer, Oqid>> lastCommits(Collection<OutboundQueue> queues) {
    Map<Integer, Map<Integer, Oqid>> byOrigin = new HashMap<>();
    PackedDecoder decoder = new PackedDecoder();
    for (OutboundQueue q : queues) {
      QueuePosition after = null;
      while (true) {
        List<QueueMessage> chunk =
            after == null ? q.queue().dumpFromStart(CHUNK) : q.queue().dump(after, CHUNK + 1);
        int first = after == null ? 0 : 1;
        if (chunk.size() <= first) {
          break;
        }
        for (QueueMessage m : chunk.subList(first, chunk.size())) {
          try {
            int origin = OriginEnvelope.originOf(m.payload());
            Optional<LtlCommand> c = OriginEnvelope.commandOf(m.payload(), decoder);
            if (c.isPresent() && c.get() instanceof LtlCommand.Commit commit) {
              byOrigin
                  .computeIfAbsent(origin, k -> new HashMap<>())
                  .put(q.replicateConnectionId(), commit.oqid());
            }
          } catch (PackedFormatException e) {
            throw new IllegalStateException(
                "outbound queue " + q.queue().id() + " holds a damaged message at " + m.position(),
                e);
          }
        }
        after = chunk.get(chunk.size() - 1).position();
      }
    }
    return byOrigin;
  }

  /**
   * The OQID of the last message of an inbound queue, when it is part of a transaction.
   *
   * @throws IllegalStateException naming the queue and position of a damaged last message
   */
  public static Optional<Oqid> lastOqid(StableQueue inbound) {
    Optional<QueueMessage> last = inbound.lastMessage();
    if (last.isEmpty()) {
      return Optional.empty();
    }
    try {
      Optional<LtlCommand> c = new PackedDecoder().decode(last.get().payload());
      if (c.isPresent() && c.get() instanceof LtlCommand.InTransaction t) {
        return Optional.of(t.oqid());
      }
      return Optional.empty();
    } catch (PackedFormatException e) {
      throw new IllegalStateException(
          "the last message of inbound queue "
              + inbound.id()
              + " at "
              + last.get().position()
              + " is damaged",
          e);
    }
  }

  /** The later of two OQIDs, either of which may be absent. */
  public static Optional<Oqid> later(Optional<Oqid> a, Optional<Oqid> b) {
    if (a.isEmpty()) {
      return b;
    }
    if (b.isEmpty()) {
      return a;
    }
    return a.get().compareTo(b.get()) >= 0 ? a : b;
  }
}
