package io.openrs.queue.file;

import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The SQM cache ({@code sqm_cache_size}): the most recent durable blocks, so readers that keep up
 * with the writer never touch the disk. A ring of {@code sqm_cache_size / block_size} slots indexed
 * by block sequence; its memory is bounded by {@code sqm_cache_size} whatever the backlog.
 *
 * <p>Thread-safe: the writer thread puts, reader threads get. Entries are immutable and published
 * through an {@link AtomicReferenceArray}.
 */
final class BlockCache {

  /** One cached block: header and payload (the padding is not kept). Never modified. */
  record CachedBlock(long sequence, byte[] bytes) {}

  private final AtomicReferenceArray<CachedBlock> slots;
  private final int slotCount;

  BlockCache(long cacheSizeBytes, int blockSizeBytes) {
    this.slotCount = (int) Math.min(Integer.MAX_VALUE, cacheSizeBytes / blockSizeBytes);
    this.slots = new AtomicReferenceArray<>(slotCount);
  }

  /** Copies the block at {@code base} (header + payload, {@code length} bytes) into the cache. */
  void put(long sequence, ByteBuffer source, int base, int length) {
    if (slotCount == 0) {
      return;
    }
    byte[] bytes = new byte[length];
    source.get(base, bytes);
    slots.set(slot(sequence), new CachedBlock(sequence, bytes));
  }

  Optional<CachedBlock> get(long sequence) {
    if (slotCount == 0) {
      return Optional.empty();
    }
    CachedBlock b = slots.get(slot(sequence));
    return b != null && b.sequence() == sequence ? Optional.of(b) : Optional.empty();
  }

  int slotCount() {
    return slotCount;
  }

  private int slot(long sequence) {
    return (int) Long.remainderUnsigned(sequence, slotCount);
  }
}
