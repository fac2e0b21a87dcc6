package io.openrs.dsi;

import java.util.Objects;
import java.util.Optional;

/**
 * What a DSI is doing, for {@code admin who} and {@code admin who_is_down}.
 *
 * @param status running, suspended or down
 * @param failure why it is down (present exactly when {@code status} is {@link Status#DOWN})
 */
public record DsiState(Status status, Optional<DsiFailure> failure) {

  /** The DSI's status. */
  public enum Status {
    /** Applying (or waiting for work, or reconnecting to the replicate). */
    RUNNING,
    /** Stopped by {@code suspend connection} (or closed); resumes where it stopped. */
    SUSPENDED,
    /** Stopped by an error; {@link DsiState#failure()} says which. */
    DOWN
  }

  public DsiState {
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(failure, "failure");
    if ((status == Status.DOWN) != failure.isPresent()) {
      throw new IllegalArgumentException("a failure is given exactly when the DSI is down");
    }
  }

  public static final DsiState RUNNING = new DsiState(Status.RUNNING, Optional.empty());
  public static final DsiState SUSPENDED = new DsiState(Status.SUSPENDED, Optional.empty());

  /** Down because of {@code failure}. */
  public static DsiState down(DsiFailure failure) {
    return new DsiState(Status.DOWN, Optional.of(failure));
  }

  @Override
  public String toString() {
    return failure.map(f -> "DOWN: " + f.describe()).orElse(status.name());
  }
}
