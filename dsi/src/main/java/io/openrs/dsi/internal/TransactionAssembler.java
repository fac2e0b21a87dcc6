package io.openrs.dsi.internal;

import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.LtlCommand.Begin;
import io.openrs.ltl.LtlCommand.Commit;
import io.openrs.ltl.LtlCommand.InTransaction;
import io.openrs.ltl.LtlCommand.Rollback;
import io.openrs.ltl.packed.OriginEnvelope;
import io.openrs.ltl.packed.PackedDecoder;
import io.openrs.ltl.packed.PackedFormatException;
import io.openrs.ltl.packed.PackedRowReader;
import io.openrs.queue.QueueMessage;
import io.openrs.queue.QueuePosition;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns outbound-queue messages (origin envelopes) back into transactions. Each replicate's part of
 * an origin transaction is one contiguous run {@code begin ... commit}; a {@code begin} that
 * arrives while a run is unfinished ends that run, which is dropped: a crash cut it and DIST wrote
 * the transaction again, whole, after it. Commands outside any run (their begin was never read) are
 * handed on as an incomplete transaction, which the DSI refuses to apply (never silently dropped).
 *
 * <p>With streaming on ({@code streamAbove}), a run that grows past that many commands is handed on
 * at once as a streamed transaction ({@link TransactionStream}), and its further commands go to the
 * stream as they are read; its commit completes the stream, a drop drops it. Runs are contiguous
 * and in commit order, so nothing read after it can be handed on before it.
 *
 * <p>Held runs keep their commands decoded, or with {@code packed} (HVAR) in their packed form
 * ({@link PackedBody}): then only a row command's frame is read here ({@link PackedRowReader#skim}:
 * version, kind, length); its body is read and checked once, where HVAR compiles it ({@link
 * PackedRowReader#next}, which accepts what {@link PackedDecoder} accepts), and a body that does
 * not read stops the DSI there, naming the transaction and its queue positions. Other commands are
 * decoded to find the run's boundaries; what is handed on is the packed bytes. Streaming and
 * packing do not go together.
 *
 * <p>Not thread-safe: owned by the DSI-S thread.
 */
final class TransactionAssembler {
  private static final Logger LOG = LoggerFactory.getLogger(TransactionAssembler.class);

  /** What the assembler reports besides transactions. */
  interface Events {
    /** An unfinished run was dropped. */
    void runDropped(int origin, String why, int commands);

    /** A message held a command kind this version does not know; it was skipped. */
    void unknownCommand(QueuePosition position);
  }

  /** Where large runs go as they are read. */
  interface Streams {
    /** Opens a stream for a run whose first {@code body.size()} commands are read. */
    TransactionStream open(
        int origin,
        Begin begin,
        QueuePosition first,
        QueuePosition last,
        List<InTransaction> body,
        long bytes);

    /** Hands the stream its next command (waits while its buffer is full). */
    void push(TransactionStream stream, InTransaction cmd, QueuePosition position, long bytes);
  }

  private final PackedDecoder decoder = new PackedDecoder();
  private final PackedRowReader rows = new PackedRowReader();
  private final Consumer<SourceTransaction> out;
  private final Events events;
  private final String name;
  private final long streamAbove;
  private final Streams streams;
  private final PackedBody.Builder packed;

  private long seq;
  // The stream of the open run once it went past streamAbove commands.
  private TransactionStream stream;
  // The open run (begin read, commit not yet), or the incomplete run being collected.
  private Begin begin;
  private boolean incomplete;
  private int origin;
  private final List<InTransaction> body = new ArrayList<>();
  private QueuePosition first;
  private QueuePosition last;
  private long bytes;

  /** An assembler that holds every run whole. */
  TransactionAssembler(String name, Consumer<SourceTransaction> out, Events events) {
    this(name, out, events, Long.MAX_VALUE, null, false);
  }

  /** An assembler that holds every run whole, decoded or ({@code packed}) packed. */
  TransactionAssembler(
      String name, Consumer<SourceTransaction> out, Events events, boolean packed) {
    this(name, out, events, Long.MAX_VALUE, null, packed);
  }

  /**
   * An assembler that streams runs of more than {@code streamAbove} commands through {@code
   * streams}.
   */
  TransactionAssembler(
      String name,
      Consumer<SourceTransaction> out,
      Events events,
      long streamAbove,
      Streams streams) {
    this(name, out, events, streamAbove, streams, false);
  }

  private TransactionAssembler(
      String name,
      Consumer<SourceTransaction> out,
      Events events,
      long streamAbove,
      Streams streams,
      boolean packed) {
    if (packed && streams != null) {
      throw new IllegalArgumentException("packed runs are not streamed");
    }
    this.packed = packed ? new PackedBody.Builder() : null;
    this.name = name;
    this.out = out;
    this.events = events;
    this.streamAbove = streams == null ? Long.MAX_VALUE : streamAbove;
    this.streams = streams;
  }

  /**
   * Takes the next message.
   *
   * @throws PackedFormatException if it is not an origin envelope holding a packed command
   */
  void accept(QueueMessage m) throws PackedFormatException {
    int from = OriginEnvelope.originOf(m.payload());
    Optional<LtlCommand> decoded;
    if (packed != null) {
      byte[] p = m.payload();
      rows.reset(p, OriginEnvelope.HEADER_SIZE, p.length - OriginEnvelope.HEADER_SIZE);
      // Only the frame is read here: the compiler reads and checks each row once, in place.
      if (!rows.skim()) {
        throw new PackedFormatException(0, "expected exactly one command, found 0");
      }
      if (!rows.atEnd()) {
        throw new PackedFormatException(
            rows.commandLength(), "expected exactly one command, found more");
      }
      if (rows.kind() != PackedRowReader.Kind.OTHER) {
        acceptRow(m, from, rows.kind());
        return;
      }
      decoded = rows.command();
    } else {
      decoded = OriginEnvelope.commandOf(m.payload(), decoder);
    }
    if (decoded.isEmpty()) {
      events.unknownCommand(m.position());
      return;
    }
    LtlCommand cmd = decoded.get();
    if (!(cmd instanceof InTransaction)) {
      LOG.warn("{}: {} at {} is not a transaction command; skipped", name, cmd, m.position());
      events.unknownCommand(m.position());
      return;
    }
    if (cmd instanceof Begin b) {
      endOpenRun("a begin of origin " + from + " arrived before its commit");
      begin = b;
      origin = from;
      startAt(m);
      return;
    }
    joinRun(m, from);
    if (cmd instanceof Rollback) {
      if (begin != null) {
        dropRun("it was rolled back");
      } else {
        add(m, (InTransaction) cmd);
        flushIncomplete();
      }
      return;
    }
    if (cmd instanceof Commit c && begin != null) {
      last = m.position();
      bytes += m.payload().length;
      if (stream != null) {
        stream.complete(c, last, m.payload().length);
      } else {
        out.accept(
            packed != null
                ? SourceTransaction.complete(
                    ++seq, origin, begin, c, packed.build(), first, last, bytes)
                : SourceTransaction.complete(++seq, origin, begin, c, body, first, last, bytes));
      }
      reset();
      return;
    }
    add(m, (InTransaction) cmd);
    if (cmd instanceof Commit) {
      flushIncomplete();
    } else if (begin != null && stream == null && body.size() > streamAbove) {
      stream = streams.open(origin, begin, first, last, body, bytes);
      out.accept(SourceTransaction.streamed(++seq, stream));
      body.clear();
    }
  }

  /**
   * Makes the command at {@code m} of origin {@code from} part of the current run: an open run of
   * another origin ends (its commit never came), and a command outside any begin starts or
   * continues an incomplete run of its origin (handed on as incomplete, which the DSI refuses).
   */
  private void joinRun(QueueMessage m, int from) {
    if (begin != null && from != origin) {
      endOpenRun("a command of origin " + from + " arrived before its commit");
    }
    if (begin == null && (!incomplete || from != origin)) {
      flushIncomplete();
      incomplete = true;
      origin = from;
      startAt(m);
    }
  }

  /** A row command read in place (packed runs only): as {@link #accept} adds one. */
  private void acceptRow(QueueMessage m, int from, PackedRowReader.Kind kind) {
    joinRun(m, from);
    last = m.position();
    bytes += m.payload().length;
    packed.addRow(m.payload(), kind);
  }

  /**
   * Called when the queue has nothing more for now: an incomplete run cannot be completed by what
   * follows, so it is handed on.
   */
  void idle() {
    flushIncomplete();
  }

  /** True while a run is open (its begin read, its commit not yet). */
  boolean runOpen() {
    return begin != null;
  }

  private int heldCommands() {
    return packed != null ? packed.commands() : body.size();
  }

  private void startAt(QueueMessage m) {
    first = m.position();
    last = m.position();
    bytes = m.payload().length;
  }

  private void add(QueueMessage m, InTransaction cmd) {
    last = m.position();
    bytes += m.payload().length;
    if (stream != null) {
      streams.push(stream, cmd, m.position(), m.payload().length);
    } else if (packed != null) {
      packed.add(m.payload(), cmd);
    } else {
      body.add(cmd);
    }
  }

  private void endOpenRun(String why) {
    if (begin != null) {
      dropRun(why);
    } else {
      flushIncomplete();
    }
  }

  private void dropRun(String why) {
    int commands = stream != null ? stream.commands() : heldCommands();
    if (stream != null) {
      stream.drop(why);
    }
    LOG.warn(
        "{}: dropped the unfinished run of origin {} tran {} at {}..{} ({} commands): {}; DIST"
            + " writes such a transaction again in full",
        name,
        origin,
        begin.tran(),
        first,
        last,
        commands,
        why);
    events.runDropped(origin, why, commands);
    reset();
  }

  private void flushIncomplete() {
    if (incomplete) {
      out.accept(
          packed != null
              ? SourceTransaction.incomplete(++seq, origin, packed.build(), first, last, bytes)
              : SourceTransaction.incomplete(++seq, origin, body, first, last, bytes));
      reset();
    }
  }

  private void reset() {
    stream = null;
    begin = null;
    incomplete = false;
    body.clear();
    if (packed != null) {
      packed.reset();
    }
    first = null;
    last = null;
    bytes = 0;
  }
}
