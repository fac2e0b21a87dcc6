package io.openrs.queue.file;

import java.nio.file.Path;

/** Where one segment of a queue lives. */
record SegmentSlot(long segment, Partition partition, Path file) {}
