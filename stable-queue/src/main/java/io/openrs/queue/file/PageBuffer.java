package io.openrs.queue.file;

import io.openrs.queue.QueuePosition;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * One page: up to {@code sqm_page_size} consecutive blocks of one segment, packed by the {@link
 * SqmPacker} and written by the {@link SqmWriter} with one write call. A queue has {@link
 * SqmPacker#PAGE_BUFFERS} of them, so the packer fills the next pages while the writer writes and
 * forces the current one.
 *
 * <p>Ownership moves with the page: the packer owns it while packing and again once the writer has
 * marked it {@link #durable}; the writer owns it in between. The hand-off is under {@link
 * SqmHandoff}'s lock, which also publishes the fields.
 */
final class PageBuffer implements SqmHandoff.WriterTask {

  /** Block-aligned (direct I/O accepts it), {@code sqm_page_size * block_size} bytes. */
  final ByteBuffer buffer;

  /** Sequence of the page's first block. */
  long firstSequence;

  /** Blocks packed, at most {@link #maxBlocks}. */
  int blocks;

  /** Blocks this page may hold: the page size, or fewer where the segment ends. */
  int maxBlocks;

  /** The last complete message at the end of this page (published with it); null if none. */
  QueuePosition lastPosition;

  /** Why the packer handed the page over. */
  SqmPacker.FlushReason reason;

  /** Messages that end in this page (counted in CmdsWritten once durable). */
  long messagesEnding;

  /** Requests whose last message ends in this page, and that message's position. */
  final List<WriteTask.Append> completedRequests = new ArrayList<>();

  final List<QueuePosition> completedPositions = new ArrayList<>();

  /** Set by the writer once the page is written and forced per {@code sqm_write_flush}. */
  boolean durable;

  PageBuffer(int pageBytes, int blockSize) {
    ByteBuffer b = ByteBuffer.allocateDirect(pageBytes + blockSize).alignedSlice(blockSize);
    b.limit(pageBytes);
    this.buffer = b;
  }

  /** Prepares the page for packing blocks from {@code sequence} on. */
  void start(long sequence, int maxBlocks) {
    this.firstSequence = sequence;
    this.maxBlocks = maxBlocks;
    this.blocks = 0;
    this.lastPosition = null;
    this.reason = null;
    this.messagesEnding = 0;
    this.durable = false;
    completedRequests.clear();
    completedPositions.clear();
  }

  /** Sequence after the page's last block. */
  long endSequence() {
    return firstSequence + blocks;
  }
}
