package io.openrs.queue.file;

/**
 * The write path's counters, each written by one thread only (per page, not per message): the
 * packer ({@link SqmPacker}) keeps {@code cmdsWritten} (counted once durable), {@code
 * blocksFullWrite} and the {@code flushes*}; the writer ({@link SqmWriter}) keeps the rest. Read by
 * Micrometer function meters on any thread, hence {@code volatile}.
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
