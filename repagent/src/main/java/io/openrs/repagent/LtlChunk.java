package io.openrs.repagent;

import io.openrs.ltl.Oqid;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Whole lines of LTL text ready to send, as the log reader hands them to the {@link Sender}: at
 * most {@code ltl_batch_size} bytes (unless one line alone is longer), commands in OQID order.
 *
 * @param text UTF-8 LTL, each command ended by {@code \n}; owned by the receiver
 * @param commands how many commands (lines)
 * @param lastOqid the OQID of the last command
 * @param commitTime the origin commit time when the chunk ends with a {@code commit}
 */
public record LtlChunk(byte[] text, int commands, Oqid lastOqid, Optional<Instant> commitTime) {
  public LtlChunk {
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(lastOqid, "lastOqid");
    Objects.requireNonNull(commitTime, "commitTime");
    if (commands < 1) {
      throw new IllegalArgumentException("a chunk holds at least one command");
    }
  }
}
