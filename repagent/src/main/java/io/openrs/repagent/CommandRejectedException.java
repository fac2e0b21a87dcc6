package io.openrs.repagent;

import io.openrs.ltl.Oqid;
import io.openrs.wire.BatchAnswer;
import java.io.IOException;
import java.util.Optional;

/**
 * The server answered a batch {@link BatchAnswer.Rejected}: the command at {@code line} was not
 * taken. The agent reconnects and resends from the server's truncation point; {@link RetryPolicy}
 * stops it when the same command keeps being rejected.
 */
public final class CommandRejectedException extends IOException {
  private static final long serialVersionUID = 1L;

  private final transient BatchAnswer.Rejected answer;
  private final transient Optional<Oqid> failingOqid;

  public CommandRejectedException(BatchAnswer.Rejected answer, Optional<Oqid> failingOqid) {
    super(
        "the server rejected batch "
            + answer.sequence()
            + " at line "
            + answer.line()
            + ", column "
            + answer.column()
            + failingOqid.map(o -> " (command " + o + ")").orElse("")
            + " after "
            + answer.commandsTaken()
            + " commands, last taken "
            + answer.lastTakenOqid().map(Oqid::toString).orElse("none")
            + ": "
            + answer.message());
    this.answer = answer;
    this.failingOqid = failingOqid;
  }

  public BatchAnswer.Rejected answer() {
    return answer;
  }

  /** The OQID of the rejected command when the agent could tell it. */
  public Optional<Oqid> failingOqid() {
    return failingOqid;
  }

  /** What identifies "the same rejection" across reconnects. */
  String identity() {
    return failingOqid.map(Oqid::toString).orElse("") + "|" + answer.message();
  }
}
