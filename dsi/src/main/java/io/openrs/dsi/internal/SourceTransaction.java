package io.openrs.dsi.internal;

import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.LtlCommand.Begin;
import io.openrs.ltl.LtlCommand.Commit;
import io.openrs.ltl.LtlCommand.InTransaction;
import io.openrs.ltl.Oqid;
import io.openrs.queue.QueuePosition;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One origin transaction as read from the outbound queue: a whole run {@code begin ... commit}, or
 * an <em>incomplete</em> run (commands whose begin was never read, e.g. after a purge), which the
 * DSI never applies, or a <em>streamed</em> large transaction ({@link TransactionStream}): handed
 * on before its commit is read, its commands not held here. Immutable (a streamed one learns its
 * commit from its stream).
 */
final class SourceTransaction {
  private final long seq;
  private final int origin;
  private final Begin begin;
  private final Commit commit;
  private final List<InTransaction> body;
  private final QueuePosition first;
  private final QueuePosition last;
  private final long bytes;
  private final TransactionStream stream;

  private SourceTransaction(
      long seq,
      int origin,
      Begin begin,
      Commit commit,
      List<InTransaction> body,
      QueuePosition first,
      QueuePosition last,
      long bytes,
      TransactionStream stream) {
    this.seq = seq;
    this.origin = origin;
    this.begin = begin;
    this.commit = commit;
    this.body = List.copyOf(body);
    this.first = Objects.requireNonNull(first, "first");
    this.last = Objects.requireNonNull(last, "last");
    this.bytes = bytes;
    this.stream = stream;
  }

  /** A whole run. */
  static SourceTransaction complete(
      long seq,
      int origin,
      Begin begin,
      Commit commit,
      List<InTransaction> body,
      QueuePosition first,
      QueuePosition last,
      long bytes) {
    return new SourceTransaction(
        seq,
        origin,
        Objects.requireNonNull(begin, "begin"),
        Objects.requireNonNull(commit, "commit"),
        body,
        first,
        last,
        bytes,
        null);
  }

  /** Commands without their begin (the commit, if read, is among {@code body}). */
  static SourceTransaction incomplete(
      long seq,
      int origin,
      List<InTransaction> body,
      QueuePosition first,
      QueuePosition last,
      long bytes) {
    return new SourceTransaction(seq, origin, null, null, body, first, last, bytes, null);
  }

  /**
   * A large transaction whose commands come from {@code stream}. It counts no bytes in the
   * hand-off: its buffered commands are counted by the stream.
   */
  static SourceTransaction streamed(long seq, TransactionStream stream) {
    return new SourceTransaction(
        seq,
        stream.origin(),
        stream.begin(),
        null,
        List.of(),
        stream.first(),
        stream.first(),
        0,
        stream);
  }

  /** True for a large transaction handed on before its commit was read. */
  boolean streamed() {
    return stream != null;
  }

  /** The stream of a {@link #streamed()} transaction, else null. */
  TransactionStream stream() {
    return stream;
  }

  /** Order in which the DSI read it (this run of the DSI), from 1. */
  long seq() {
    return seq;
  }

  int origin() {
    return origin;
  }

  /** True for a whole run (a streamed one too, whose commit may not be read yet). */
  boolean complete() {
    return commit != null || stream != null;
  }

  /** The commit OQID; only for complete transactions (streamed: once the commit is read). */
  Oqid commitOqid() {
    return commit()
        .orElseThrow(
            () ->
                new IllegalStateException(
                    stream != null
                        ? "the commit of " + stream + " is not read yet"
                        : "an incomplete run has no commit"))
        .oqid();
  }

  Optional<Commit> commit() {
    return stream != null ? stream.commit() : Optional.ofNullable(commit);
  }

  Optional<Begin> begin() {
    return Optional.ofNullable(begin);
  }

  /**
   * The commands between begin and commit, held whole. A streamed transaction reads them again from
   * the outbound queue, waiting for its commit: use {@link #commands()} to apply.
   */
  List<InTransaction> body() {
    return stream != null ? stream.readAll() : body;
  }

  /**
   * The commands between begin and commit, to apply in order: a streamed transaction hands them as
   * they are read (live, once, for the large-transaction thread it went to) or reads them again
   * from the queue; it throws {@link TransactionStream.Dropped} if its run is dropped.
   */
  Iterable<InTransaction> commands() {
    return stream != null ? stream.iterable() : body;
  }

  /** Every command as read, begin and commit included (a streamed one: read again, whole). */
  List<LtlCommand> allCommands() {
    List<InTransaction> cmds = body();
    List<LtlCommand> all = new ArrayList<>(cmds.size() + 2);
    if (begin != null) {
      all.add(begin);
    }
    all.addAll(cmds);
    commit().ifPresent(all::add);
    return all;
  }

  /** Position of its first message. */
  QueuePosition first() {
    return first;
  }

  /** Position of its last message (the commit): the reader may confirm up to it once applied. */
  QueuePosition last() {
    return stream != null ? stream.last() : last;
  }

  /** Bytes of its messages in the queue (a streamed one: 0, its stream counts them). */
  long bytes() {
    return bytes;
  }

  /** Commands between begin and commit (a streamed one: read so far). */
  int size() {
    return stream != null ? stream.commands() : body.size();
  }

  @Override
  public String toString() {
    return "transaction #"
        + seq
        + " of origin "
        + origin
        + (begin != null ? " tran " + begin.tran() : " (incomplete)")
        + (stream != null ? " (large, streamed)" : "")
        + commit().map(c -> " commit OQID " + c.oqid()).orElse("")
        + " at "
        + first
        + ".."
        + last();
  }
}
