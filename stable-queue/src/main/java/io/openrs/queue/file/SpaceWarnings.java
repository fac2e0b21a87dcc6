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
 * use falls to the threshold or below, which logs a {@code CANCEL} line; rising above it again
 * warns again.
 *
 * <p>Not thread-safe: guarded by the {@link FileQueueManager}'s space lock; the messages it returns
 * are logged after the lock is released.
 */
final class SpaceWarnings {

  /** A message to log: a warning, or the cancellation of one. */
  record Message(boolean warning, String text) {}

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

  /** Compares the partitions' use with the thresholds; returns what to log. */
  List<Message> evaluate(Collection<Partition> partitions) {
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
    above1 = cross(above1, used, limit, thr1, "", of, out);
    above2 = cross(above2, used, limit, thr2, "", of, out);
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

  private boolean cross(
      boolean warned,
      long used,
      long limit,
      int percent,
      String whose,
      String detail,
      List<Message> out) {
    boolean above = used * 100 > (long) percent * limit;
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
    } else if (!above && warned) {
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
    return above;
  }
}
