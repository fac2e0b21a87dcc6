package io.openrs.queue.file;

import io.openrs.queue.QueueId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Replication Server's stable storage warnings ({@code sqm_warning_thr1}, {@code sqm_warning_thr2},
 * {@code sqm_warning_thr_ind}): when the use of all partitions together rises above a threshold,
 * one warning {@code WARNING: Stable Storage Use is Above N percent}; when one queue's share of all
 * partitions' space rises above the individual threshold, {@code WARNING: Stable Storage Use by
 * queue Q is Above N percent}. Each is logged once per crossing: a warning stays outstanding until
 * use falls clearly below the threshold, which logs a {@code CANCEL} line; rising above it again
 * warns again. "Clearly below" is the hysteresis that keeps a writer that takes and frees segments
 * around the threshold from warning and cancelling on every segment (30 times in 10 s before): the
 * use must fall by {@link #HYSTERESIS_PERCENT} points of the space, and at least by one segment,
 * under the threshold (90 %: cancelled at 85 % or below).
 *
 * <p>Not thread-safe: guarded by the {@link FileQueueManager}'s space lock; the messages it returns
 * are logged after the lock is released.
 */
final class SpaceWarnings {

  /** A message to log: a warning, or the cancellation of one. */
  record Message(boolean warning, String text) {}

  /** How far below its threshold, in percentage points of the space, use must fall to cancel. */
  static final int HYSTERESIS_PERCENT = 5;

  private int thr1 = 75;
  private int thr2 = 90;
  private int thrInd = 70;
  private boolean above1;
  private boolean above2;
  private final Set<QueueId> aboveInd = new HashSet<>();
  private long warnings;

  /** Sets the thresholds (percent, 1..100). */
  void set(int thr1, int thr2, int thrInd) {
    check("sqm_warning_thr1", thr1);
    check("sqm_warning_thr2", thr2);
    check("sqm_warning_thr_ind", thrInd);
    this.thr1 = thr1;
    this.thr2 = thr2;
    this.thrInd = thrInd;
  }

  private static void check(String name, int percent) {
    if (percent < 1 || percent > 100) {
      throw new IllegalArgumentException(name + " must be 1..100 percent, got " + percent);
    }
  }

  int[] thresholds() {
    return new int[] {thr1, thr2, thrInd};
  }

  /** Warnings logged so far (each crossing upwards of any threshold counts one). */
  long warnings() {
    return warnings;
  }

  /**
   * Compares the partitions' use with the thresholds; returns what to log.
   *
   * @param segmentBytes the segment size of the queues (the smallest step use moves by), 0 if none
   */
  List<Message> evaluate(Collection<Partition> partitions, long segmentBytes) {
    long limit = 0;
    long used = 0;
    Map<QueueId, Long> byQueue = new TreeMap<>();
    for (Partition p : partitions) {
      limit += p.limitBytes();
      used += p.usedBytes();
      for (QueueId q : p.queues()) {
        byQueue.merge(q, p.bytesOf(q), Long::sum);
      }
    }
    List<Message> out = new ArrayList<>();
    if (limit <= 0) {
      return out;
    }
    String of = " (" + used + " of " + limit + " bytes in " + partitions.size() + " partitions)";
    long marginBytes = Math.max(limit * HYSTERESIS_PERCENT / 100, segmentBytes);
    above1 = cross(above1, used, limit, marginBytes, thr1, "", of, out);
    above2 = cross(above2, used, limit, marginBytes, thr2, "", of, out);
    Set<QueueId> seen = new HashSet<>(aboveInd);
    seen.addAll(byQueue.keySet());
    for (QueueId q : seen) {
      long bytes = byQueue.getOrDefault(q, 0L);
      boolean was = aboveInd.contains(q);
      boolean now =
          cross(
              was,
              bytes,
              limit,
              marginBytes,
              thrInd,
              " by queue " + q,
              " (" + bytes + " of " + limit + " bytes)",
              out);
      if (now) {
        aboveInd.add(q);
      } else {
        aboveInd.remove(q);
      }
    }
    return out;
  }

  /**
   * Whether a warning is outstanding after this check: it starts when {@code used} rises above
   * {@code percent} of {@code limit} and ends only when it falls to {@code marginBytes} below that
   * level or lower (never below zero).
   */
  private boolean cross(
      boolean warned,
      long used,
      long limit,
      long marginBytes,
      int percent,
      String whose,
      String detail,
      List<Message> out) {
    boolean above = used * 100 > (long) percent * limit;
    boolean clearlyBelow = used * 100 <= Math.max(0, (long) percent * limit - 100 * marginBytes);
    if (above && !warned) {
      warnings++;
      out.add(
          new Message(
              true,
              "WARNING: Stable Storage Use"
                  + whose
                  + " is Above "
                  + percent
                  + " percent"
                  + detail));
    } else if (clearlyBelow && warned) {
      out.add(
          new Message(
              false,
              "CANCEL WARNING: Stable Storage Use"
                  + whose
                  + " is Below "
                  + percent
                  + " percent"
                  + detail));
    }
    return above || (warned && !clearlyBelow);
  }
}
