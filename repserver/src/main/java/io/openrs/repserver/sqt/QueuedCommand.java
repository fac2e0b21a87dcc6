package io.openrs.repserver.sqt;

import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TableName;
import io.openrs.ltl.TranId;
import io.openrs.ltl.packed.PackedDecoder;
import io.openrs.ltl.packed.PackedFormatException;
import io.openrs.ltl.packed.PackedRowHead;
import io.openrs.queue.QueuePosition;
import java.util.Optional;

/**
 * One command of an origin transaction as SQT holds it for DIST.
 *
 * <p>A row change read from the inbound queue keeps its packed bytes and only its head
 * (transaction, OQID, table, snapshot flag: {@link PackedRowHead}); its row images are decoded when
 * DIST first asks for {@link #command()}, which it does only for a subscription that needs them (a
 * where clause, a table-level replication definition, materialization). A command every route
 * passes unchanged goes to the outbound queues as the bytes it came in, never decoded nor packed
 * again. Every other kind (begin, commit, ticket, truncate, DDL) is small and decoded at once.
 *
 * <p>Owned by the SQT/DIST thread of one origin (it decodes with that thread's decoder).
 */
public final class QueuedCommand {

  private final String queue;
  private final QueuePosition position;
  private final byte[] packed;
  private final PackedRowHead head;
  private final PackedDecoder decoder;
  private LtlCommand.InTransaction command;

  private QueuedCommand(
      String queue,
      QueuePosition position,
      byte[] packed,
      PackedRowHead head,
      PackedDecoder decoder,
      LtlCommand.InTransaction command) {
    this.queue = queue;
    this.position = position;
    this.packed = packed;
    this.head = head;
    this.decoder = decoder;
    this.command = command;
  }

  /**
   * Reads a message of an inbound queue.
   *
   * @param queue the queue's name, for errors
   * @param position the message's position, for errors
   * @param decoder the reading thread's decoder, kept for decoding a row change when asked
   * @return empty when the message is not a transaction command (a kind this version does not know,
   *     or a session command)
   * @throws PackedFormatException when the message's frame or head (or a whole non-row command)
   *     does not read
   */
  public static Optional<QueuedCommand> read(
      String queue, QueuePosition position, byte[] payload, PackedDecoder decoder)
      throws PackedFormatException {
    Optional<PackedRowHead> head = decoder.rowHead(payload);
    if (head.isPresent()) {
      return Optional.of(new QueuedCommand(queue, position, payload, head.get(), decoder, null));
    }
    Optional<LtlCommand> c = decoder.decode(payload);
    if (c.isPresent() && c.get() instanceof LtlCommand.InTransaction in) {
      return Optional.of(new QueuedCommand(queue, position, payload, null, null, in));
    }
    return Optional.empty();
  }

  public TranId tran() {
    return head != null ? head.tran() : command.tran();
  }

  public Oqid oqid() {
    return head != null ? head.oqid() : command.oqid();
  }

  /** Whether this is an insert, update or delete. */
  public boolean isRowChange() {
    return head != null;
  }

  /** The table of a row change. */
  public TableName table() {
    if (head == null) {
      throw new IllegalStateException(command + " is not a row change");
    }
    return head.table();
  }

  /** Whether this is an insert marked as a snapshot row. */
  public boolean isSnapshotInsert() {
    return head != null && head.snapshot();
  }

  /**
   * The whole command, decoded on the first call for a row change read from the queue.
   *
   * @throws IllegalStateException when its row images do not read (a damaged message), naming the
   *     queue position and the decoder's reason
   */
  public LtlCommand.InTransaction command() {
    if (command == null) {
      try {
        Optional<LtlCommand> c = decoder.decode(packed);
        command = (LtlCommand.InTransaction) c.orElseThrow();
      } catch (PackedFormatException e) {
        throw new IllegalStateException(
            "inbound queue "
                + queue
                + " holds a damaged "
                + head.kind().name().toLowerCase(java.util.Locale.ROOT)
                + " at "
                + position
                + " (transaction "
                + head.tran()
                + ", OQID "
                + head.oqid()
                + ", table "
                + head.table()
                + ")",
            e);
      }
    }
    return command;
  }

  /** Whether {@link #command()} would decode (the row images have not been read yet). */
  boolean isDecoded() {
    return command != null;
  }

  /** The command's packed bytes, as read from the queue. */
  public byte[] packed() {
    return packed;
  }

  @Override
  public String toString() {
    return command != null ? command.toString() : "QueuedCommand[" + head + "]";
  }
}
