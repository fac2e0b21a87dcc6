package io.openrs.dsi.internal;

import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.LtlCommand.Begin;
import io.openrs.ltl.LtlCommand.Commit;
import io.openrs.ltl.LtlCommand.InTransaction;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.packed.PackedRowReader;
import io.openrs.queue.QueuePosition;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One origin transaction as read from the outbound queue: a whole run {@code begin ... commit}, or
 * an <em>incomplete</em> run (commands whose begin was never read, e.g. after a purge), which the
 * DSI never applies, or a <em>streamed</em> large transaction ({@link TransactionStream}): handed
 * on before its commit is read, its commands not held here. A held transaction keeps its commands
 * decoded, or (HVAR) {@linkplain PackedBody packed}, decoded afresh by {@link #body()} and {@link
 * #commands()}. Immutable (a streamed one learns its commit from its stream).
 */
public final class SourceTransaction {
  private final long seq;
  private final int origin;
  private final Begin begin;
  private final Commit commit;
  private final List<InTransaction> body;
  private final PackedBody packed;
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
      PackedBody packed,
      QueuePosition first,
      QueuePosition last,
      long bytes,
      TransactionStream stream) {
    this.seq = seq;
    this.origin = origin;
    this.begin = begin;
    this.commit = commit;
    this.body = packed != null ? null : List.copyOf(body);
    this.packed = packed;
    this.first = Objects.requireNonNull(first, "first");
    this.last = Objects.requireNonNull(last, "last");
    this.bytes = bytes;
    this.stream = stream;
  }

  /** A whole run. */
  public static SourceTransaction complete(
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
        null,
        first,
        last,
        bytes,
        null);
  }

  /** A whole run whose commands are held packed. */
  public static SourceTransaction complete(
      long seq,
      int origin,
      Begin begin,
      Commit commit,
      PackedBody body,
      QueuePosition first,
      QueuePosition last,
      long bytes) {
    return new SourceTransaction(
        seq,
        origin,
        Objects.requireNonNull(begin, "begin"),
        Objects.requireNonNull(commit, "commit"),
        null,
        Objects.requireNonNull(body, "body"),
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
    return new SourceTransaction(seq, origin, null, null, body, null, first, last, bytes, null);
  }

  /** Commands without their begin, held packed. */
  static SourceTransaction incomplete(
      long seq, int origin, PackedBody body, QueuePosition first, QueuePosition last, long bytes) {
    return new SourceTransaction(
        seq, origin, null, null, null, Objects.requireNonNull(body), first, last, bytes, null);
  }

  /**
   * A large transaction whose commands come from {@code stream}. It counts no bytes in the
   * hand-off: its buffered commands are counted by the stream.
   */
  public static SourceTransaction streamed(long seq, TransactionStream stream) {
    return new SourceTransaction(
        seq,
        stream.origin(),
        stream.begin(),
        null,
        List.of(),
        null,
        stream.first(),
        stream.first(),
        0,
        stream);
  }

  /** True for a large transaction handed on before its commit was read. */
  public boolean streamed() {
    return stream != null;
  }

  /** The stream of a {@link #streamed()} transaction, else null. */
  public TransactionStream stream() {
    return stream;
  }

  /** Order in which the DSI read it (this run of the DSI), from 1. */
  long seq() {
    return seq;
  }

  public int origin() {
    return origin;
  }

  /** True for a whole run (a streamed one too, whose commit may not be read yet). */
  public boolean complete() {
    return commit != null || stream != null;
  }

  /** The commit OQID; only for complete transactions (streamed: once the commit is read). */
  public Oqid commitOqid() {
    return commit()
        .orElseThrow(
            () ->
                new IllegalStateException(
                    stream != null
                        ? "the commit of " + stream + " is not read yet"
                        : "an incomplete run has no commit"))
        .oqid();
  }

  public Optional<Commit> commit() {
    return stream != null ? stream.commit() : Optional.ofNullable(commit);
  }

  public Optional<Begin> begin() {
    return Optional.ofNullable(begin);
  }

  /**
   * The commands between begin and commit, held whole. A streamed transaction reads them again from
   * the outbound queue, waiting for its commit: use {@link #commands()} to apply. A packed one
   * decodes them at each call: the caller holds what it needs.
   */
  public List<InTransaction> body() {
    if (stream != null) {
      return stream.readAll();
    }
    return packed != null ? packed.decode() : body;
  }

  /**
   * The commands between begin and commit, to apply in order: a streamed transaction hands them as
   * they are read (live, once, for the large-transaction thread it went to) or reads them again
   * from the queue; it throws {@link TransactionStream.Dropped} if its run is dropped. A packed one
   * decodes them at each iteration.
   */
  Iterable<InTransaction> commands() {
    if (stream != null) {
      return stream.iterable();
    }
    return packed != null ? () -> packed.decode().iterator() : body;
  }

  /**
   * A packed transaction's commands to read in place: {@code reader} reset on them (see {@link
   * #packed()}).
   */
  public PackedRowReader rows(PackedRowReader reader) {
    if (packed == null) {
      throw new IllegalStateException(this + " is not held packed");
    }
    return packed.rows(reader);
  }

  /**
   * What it counts in the hand-off ({@code dsi_sqt_max_cache_size}): a packed transaction the heap
   * its packed bytes take; otherwise its queue bytes ({@link #bytes()}).
   */
  long handoffBytes() {
    return packed != null ? packed.heapBytes() : bytes;
  }

  /** True if its commands are held packed. */
  public boolean packed() {
    return packed != null;
  }

  /** Inserts among its commands (a streamed one: 0, they are not held). */
  public int inserts() {
    return packed != null ? packed.inserts() : count(LtlCommand.Insert.class);
  }

  /** Updates among its commands (a streamed one: 0, they are not held). */
  public int updates() {
    return packed != null ? packed.updates() : count(LtlCommand.Update.class);
  }

  /** Deletes among its commands (a streamed one: 0, they are not held). */
  public int deletes() {
    return packed != null ? packed.deletes() : count(LtlCommand.Delete.class);
  }

  /** True if it holds DDL (a streamed one: read so far). */
  boolean hasDdl() {
    if (stream != null) {
      return stream.hasDdl();
    }
    return packed != null ? packed.hasDdl() : count(LtlCommand.Ddl.class) > 0;
  }

  /** True if it holds DDL or a truncate (not for a streamed one: its commands are not held). */
  public boolean hasDdlOrTruncate() {
    if (stream != null) {
      throw new IllegalStateException("the commands of " + this + " are not held");
    }
    if (packed != null) {
      return packed.hasDdl() || packed.hasTruncate();
    }
    return count(LtlCommand.Ddl.class) > 0 || count(LtlCommand.Truncate.class) > 0;
  }

  private int count(Class<? extends InTransaction> kind) {
    if (stream != null) {
      return 0;
    }
    int n = 0;
    for (InTransaction c : body) {
      if (kind.isInstance(c)) {
        n++;
      }
    }
    return n;
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
  public long bytes() {
    return bytes;
  }

  /** Commands between begin and commit (a streamed one: read so far). */
  public int size() {
    if (stream != null) {
      return stream.commands();
    }
    return packed != null ? packed.commands() : body.size();
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
