package io.openrs.queue;

import java.util.Optional;

/**
 * A reader as {@code admin sqm_readers} shows it.
 *
 * @param name reader name, unique per queue (e.g. {@code SQT}, {@code DSI})
 * @param confirmed the last position the reader confirmed as fully processed, if any
 * @param backlogBytes bytes written after the block of the confirmed position (block granularity)
 */
public record ReaderInfo(String name, Optional<QueuePosition> confirmed, long backlogBytes) {}
