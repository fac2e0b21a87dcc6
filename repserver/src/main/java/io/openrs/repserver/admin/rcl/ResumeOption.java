package io.openrs.repserver.admin.rcl;

/** What {@code resume connection} does with the transaction at the head of the DSI queue. */
public sealed interface ResumeOption {

  /**
   * {@code skip [n] transaction}: the first {@code count} transactions are not applied (they go to
   * the exceptions log).
   *
   * @param count how many, {@code >= 1}; 1 when not written
   */
  record SkipTransactions(int count) implements ResumeOption {
    public SkipTransactions {
      if (count < 1) {
        throw new IllegalArgumentException("skip count must be >= 1, got " + count);
      }
    }

    @Override
    public String toString() {
      return count == 1 ? "skip transaction" : "skip " + count + " transaction";
    }
  }

  /**
   * {@code execute transaction}: apply a system transaction at the head of the queue whose state is
   * not known.
   */
  record ExecuteTransaction() implements ResumeOption {
    @Override
    public String toString() {
      return "execute transaction";
    }
  }
}
