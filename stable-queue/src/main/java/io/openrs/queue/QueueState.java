package io.openrs.queue;

/**
 * Lifecycle of a queue, in order. A queue moves forward only ({@code FAILED} may be entered from
 * any state before {@code CLOSED}); {@code admin who, sqm} shows it.
 */
public enum QueueState {
  /** Constructed, files not looked at yet. */
  NEW,
  /** Recovering: reading metadata, scanning the last segment, cutting a torn tail. */
  RECOVERING,
  /** Accepting writes and serving readers. */
  RUNNING,
  /** No new writes; the writer finishes what was accepted. */
  CLOSING,
  /** Writer stopped, files closed. */
  CLOSED,
  /** Stopped by a fatal error; every call fails with {@link QueueClosedException} citing it. */
  FAILED
}
