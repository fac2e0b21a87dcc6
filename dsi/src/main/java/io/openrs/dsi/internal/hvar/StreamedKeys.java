package io.openrs.dsi.internal.hvar;

import com.carrotsearch.hppc.LongHashSet;
import java.util.Arrays;

/**
 * A set of packed keys ({@link RowMap}) that is cheap when keys come in ascending order, as a
 * backlog of inserts with increasing keys brings them: a key above every key held is appended to a
 * sorted array (sequential memory, no hashing, no cache miss per key); any other goes to a {@link
 * LongHashSet}. Lookups binary-search the array and probe the hash set. A key removed from the
 * array is remembered in a second hash set (a tombstone), except the last one, which is simply
 * dropped (a transaction taken back removes its keys newest first). Not thread-safe.
 */
final class StreamedKeys {
  private long[] ascending;
  private int count;
  private final LongHashSet others;
  private final LongHashSet removed = new LongHashSet(4);
  private int size;

  /**
   * @param expected about how many keys the set will hold
   */
  StreamedKeys(int expected) {
    ascending = new long[Math.max(16, expected)];
    others = new LongHashSet(4);
  }

  /** Adds {@code k}; false if it was there. */
  boolean add(long k) {
    if (count == 0 || k > ascending[count - 1]) {
      if (!others.isEmpty() && others.contains(k)) {
        return false;
      }
      if (count == ascending.length) {
        ascending = Arrays.copyOf(ascending, count * 2);
      }
      ascending[count++] = k;
      size++;
      return true;
    }
    if (inAscending(k)) {
      return false;
    }
    if (others.add(k)) {
      size++;
      return true;
    }
    return false;
  }

  boolean contains(long k) {
    return inAscending(k) || (!others.isEmpty() && others.contains(k));
  }

  /** Removes {@code k}; false if it was not there. */
  boolean remove(long k) {
    if (!others.isEmpty() && others.remove(k)) {
      size--;
      return true;
    }
    if (!inAscending(k)) {
      return false;
    }
    if (k == ascending[count - 1]) {
      count--;
      // the array's last key is now one that may be removed: drop such ones too
      while (count > 0 && !removed.isEmpty() && removed.remove(ascending[count - 1])) {
        count--;
      }
    } else {
      removed.add(k);
    }
    size--;
    return true;
  }

  /** True if {@code k} is in the array and not removed. */
  private boolean inAscending(long k) {
    if (count == 0 || k > ascending[count - 1] || k < ascending[0]) {
      return false;
    }
    return Arrays.binarySearch(ascending, 0, count, k) >= 0
        && (removed.isEmpty() || !removed.contains(k));
  }

  int size() {
    return size;
  }

  boolean isEmpty() {
    return size == 0;
  }
}
