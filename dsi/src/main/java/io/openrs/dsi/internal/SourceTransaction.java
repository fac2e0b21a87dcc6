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
 * DSI never applies. Immutable.
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

  private SourceTransaction(
      long seq,
      int origin,
      Begin begin,
      Commit commit,
      List<InTransaction> body,
      QueuePosition first,
      QueuePosition last,
      long bytes) {
    this.seq = seq;
    this.origin = origin;
    this.begin = begin;
    this.commit = commit;
    this.body = List.copyOf(body);
    this.first = Objects.requireNonNull(first, "first");
    this.last = Objects.requireNonNull(last, "last");
    this.bytes = bytes;
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
        bytes);
  }

  /** Commands without their begin (the commit, if read, is among {@code body}). */
  static SourceTransaction incomplete(
      long seq,
      int origin,
      List<InTransaction> body,
      QueuePosition first,
      QueuePosition last,
      long bytes) {
    return new SourceTransaction(seq, origin, null, null, body, first, last, bytes);
  }

  /** Order in which the DSI read it (this run of the DSI), from 1. */
  long seq() {
    return seq;
  }

  int origin() {
    return origin;
  }

  boolean complete() {
    return commit != null;
  }

  /** The commit OQID; only for complete transactions. */
  Oqid commitOqid() {
    if (commit == null) {
      throw new IllegalStateException("an incomplete run has no commit");
    }
    return commit.oqid();
  }

  Optional<Commit> commit() {
    return Optional.ofNullable(commit);
  }

  Optional<Begin> begin() {
    return Optional.ofNullable(begin);
  }

  /** The commands between begin and commit. */
  List<InTransaction> body() {
    return body;
  }

  /** Every command as read, begin and commit included. */
  List<LtlCommand> allCommands() {
    List<LtlCommand> all = new ArrayList<>(body.size() + 2);
    if (begin != null) {
      all.add(begin);
    }
    all.addAll(body);
    if (commit != null) {
      all.add(commit);
    }
    return all;
  }

  /** Position of its first message. */
  QueuePosition first() {
    return first;
  }

  /** Position of its last message (the commit): the reader may confirm up to it once applied. */
  QueuePosition last() {
    return last;
  }

  /** Bytes of its messages in the queue. */
  long bytes() {
    return bytes;
  }

  /** Commands between begin and commit. */
  int size() {
    return body.size();
  }

  @Override
  public String toString() {
    return "transaction #"
        + seq
        + " of origin "
        + origin
        + (begin != null ? " tran " + begin.tran() : " (incomplete)")
        + (commit != null ? " commit OQID " + commit.oqid() : "")
        + " at "
        + first
        + ".."
        + last;
  }
}
