package io.openrs.queue.file;

/**
 * The writer's counters. Written only by the queue's writer thread (once per write call, not per
 * message); read by Micrometer function meters on any thread, hence {@code volatile}.
 */
final class SqmStats {
  volatile long cmdsWritten;
  volatile long blocksWritten;
  volatile long blocksFullWrite;
  volatile long bytesWritten;
  volatile long writes;
  volatile long writeNanos;
  volatile long flushesPageFull;
  volatile long flushesDrained;
  volatile long flushesSegmentEnd;
  volatile long segWaits;
  volatile long segWaitNanos;
  volatile long segsAllocated;
  volatile long segsDeallocated;
}
