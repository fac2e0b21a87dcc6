package io.openrs.repserver.origin;

import io.openrs.wire.LinkBytes;
import java.util.concurrent.atomic.LongAdder;

/** Counters of one origin's EXEC (the agent's session), updated on network threads. */
public final class ExecStats {
  public final LongAdder cmdsRecv = new LongAdder();
  public final LongAdder bytesReceived = new LongAdder();
  public final LongAdder batchesRejected = new LongAdder();
  public final LongAdder batches = new LongAdder();
  public final LongAdder batchNanos = new LongAdder();
  public final LongAdder nrmWaits = new LongAdder();
  public final LongAdder nrmWaitNanos = new LongAdder();

  /** Bytes of the agent's link on the wire and as frames, each way (the compression ratio). */
  public final LinkBytes link = new LinkBytes();
}
