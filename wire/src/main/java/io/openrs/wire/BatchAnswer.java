package io.openrs.wire;

import io.openrs.ltl.Oqid;
import java.util.Objects;
import java.util.Optional;

/**
 * The server's answer to one batch sent by {@link LtlClient#sendBatch}: either every command was
 * taken ({@link Accepted}) or the commands before a failing one were taken and nothing from it on
 * ({@link Rejected}).
 */
public sealed interface BatchAnswer {
  /** The batch's sequence number on its connection (1, 2, ...). */
  long sequence();

  /** How many commands of the batch the server took (blank and comment lines do not count). */
  int commandsTaken();

  /** Every command of the batch was taken. */
  record Accepted(long sequence, int commandsTaken) implements BatchAnswer {}

  /**
   * The first {@code commandsTaken} commands were taken; the command at {@code line}, {@code
   * column} (1-based, columns in code points) and everything after it were not. {@code
   * lastTakenOqid} is the OQID of the last command the server has taken from this origin (from this
   * batch when it took any, from earlier ones otherwise); empty when it has taken none.
   *
   * <p>A batch sent after a rejected one on the same connection is rejected with nothing taken: the
   * agent reconnects and resends (see {@code docs/formats/ltl-wire.md}).
   */
  record Rejected(
      long sequence,
      int commandsTaken,
      int line,
      int column,
      Optional<Oqid> lastTakenOqid,
      String message)
      implements BatchAnswer {
    public Rejected {
      Objects.requireNonNull(lastTakenOqid, "lastTakenOqid");
      Objects.requireNonNull(message, "message");
    }
  }
}
