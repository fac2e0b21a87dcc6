package io.openrs.dsi.testkit;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.packed.OriginEnvelope;
import io.openrs.ltl.packed.PackedEncoder;
import io.openrs.queue.QueueId;
import io.openrs.queue.QueueSettings;
import io.openrs.queue.StableQueue;
import io.openrs.queue.WriteFlush;
import io.openrs.queue.file.FileQueueManager;
import io.openrs.queue.file.PartitionSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A real file-backed outbound queue in a temporary directory, filled with origin envelopes. */
public final class OutboundQueueFixture implements AutoCloseable {
  private final FileQueueManager manager;
  private final StableQueue queue;
  private final PackedEncoder encoder = new PackedEncoder();

  public OutboundQueueFixture(Path dir, int connectionId) throws Exception {
    manager =
        FileQueueManager.open(
            dir.resolve("state"),
            List.of(new PartitionSpec("p1", dir.resolve("p1"), 1L << 30)),
            new SimpleMeterRegistry(),
            Clock.SYSTEM);
    queue =
        manager.openOrCreateQueue(
            QueueId.outbound(connectionId),
            QueueSettings.defaults().withWriteFlush(WriteFlush.OFF));
  }

  public StableQueue queue() {
    return queue;
  }

  /** Appends one origin's commands (a whole run or a part of one), durable on return. */
  public void append(int origin, List<? extends LtlCommand> commands) throws Exception {
    List<byte[]> msgs = new ArrayList<>(commands.size());
    for (LtlCommand c : commands) {
      msgs.add(OriginEnvelope.pack(origin, c, encoder));
    }
    queue.appendAll(msgs).get();
  }

  /** Appends every transaction of a workload. */
  public void append(List<Workload.Tx> txs) throws Exception {
    for (Workload.Tx t : txs) {
      append(t.origin(), t.commands());
    }
  }

  @Override
  public void close() {
    queue.close();
    manager.close();
  }
}
