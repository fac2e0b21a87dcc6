package io.openrs.queue.file;

import io.openrs.queue.QueueClosedException;
import io.openrs.queue.QueuePosition;
import io.openrs.queue.QueueSettings;
import io.openrs.queue.WriteFlush;
import io.openrs.runtime.ThreadNames;
import io.openrs.runtime.WorkerThread;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Optional;

/**
 * The first stage of a queue's write path (thread {@code rs-sqm-packer-<queue>}): takes producers'
 * messages from the {@link SqmHandoff}, packs them into blocks ({@link BlockFormat}) in {@link
 * PageBuffer}s of up to {@code sqm_page_size} blocks, and hands each page to the {@link SqmWriter},
 * which writes and forces it. While the writer works on one page the packer fills the next (three
 * page buffers), so packing overlaps the I/O; once the writer marks a page durable, the packer
 * completes the producers' futures of the messages that ended in it.
 *
 * <p>Group commit: a page is handed over when it is full, when its segment ends, or when the writer
 * is idle (then with everything waiting at that moment: {@link FlushReason#DRAINED}). While the
 * writer is busy, a partly filled page keeps filling; so under load every write is a full page and
 * an idle queue still writes a lone message at once.
 *
 * <p>Not thread-safe: every field is owned by this thread (asserted with {@code -ea}); pages move
 * to and from the writer under the hand-off's lock. Never touches files.
 */
final class SqmPacker extends WorkerThread {

  private static final byte[] ZEROS = new byte[256 * 1024];

  /**
   * Page buffers per queue: one being written, one full and queued so the writer never waits for
   * the packer between two writes, one being packed.
   */
  static final int PAGE_BUFFERS = 3;

  /** Why a page was handed over where it ended; each has a counter (SQMFlushes). */
  enum FlushReason {
    /** {@code sqm_page_size} blocks were filled; more may be waiting. */
    PAGE_FULL,
    /** The writer was idle: everything waiting went into this page. */
    DRAINED,
    /** The segment ended before the page did. */
    SEGMENT_END
  }

  private final FileStableQueue queue;
  private final SqmHandoff handoff;
  private final SqmStats stats;
  private final int blockSize;
  private final int blocksPerSegment;
  private final int capacity;

  /** Direct I/O writes whole blocks, so their whole padding is zeroed. */
  private final boolean wholeBlocks;

  private final int pageSizeBlocks;
  private final long wakeBytesCap;
  private final ArrayDeque<PageBuffer> free = new ArrayDeque<>();
  private final ArrayDeque<PageBuffer> inFlight = new ArrayDeque<>();
  private final SqmHandoff.PackerView view = new View();

  // The page being packed and its open block.
  private PageBuffer page;
  private ByteBuffer buf;
  private boolean blockOpen;
  private int blockBase;
  private int pos;
  private int continuation;
  private int rowCount;
  private short blockFlags;

  /** Sequence of the open block, or of the next block to open. */
  private long nextSequence;

  private boolean firstBlockSinceOpen = true;

  // Requests taken from the hand-off and the message being packed.
  private final ArrayDeque<WriteTask.Append> local = new ArrayDeque<>();
  private WriteTask.Append current;
  private int messageIndex;
  private boolean inMessage;
  private int messageOffset;
  // Position of the message being packed and of the last one finished, as primitives: no
  // allocation per message.
  private long messageSegment;
  private int messageBlock;
  private int messageRow;
  private boolean haveLast;
  private long lastSegment;
  private int lastBlock;
  private int lastRow;
  private QueuePosition lastPosition;

  SqmPacker(FileStableQueue queue, long nextSequence, Optional<QueuePosition> lastWritten) {
    super(ThreadNames.of("sqm", "packer", queue.id()), StopPolicy.WHEN_DRAINED);
    this.queue = queue;
    this.handoff = queue.handoff();
    this.stats = queue.stats();
    QueueSettings s = queue.settings();
    this.blockSize = s.blockSizeBytes();
    this.blocksPerSegment = s.blocksPerSegment();
    this.capacity = blockSize - BlockFormat.HEADER_SIZE;
    this.wholeBlocks = s.writeFlush() == WriteFlush.DIO;
    this.pageSizeBlocks = s.pageSizeBlocks();
    this.wakeBytesCap = Math.max(1, s.writeRequestLimitBytes() / 2);
    this.nextSequence = nextSequence;
    this.lastPosition = lastWritten.orElse(null);
    for (int i = 0; i < PAGE_BUFFERS; i++) {
      free.add(new PageBuffer(pageSizeBlocks * blockSize, blockSize));
    }
  }

  @Override
  protected boolean doWork() throws Exception {
    assert isCurrent() : "SqmPacker step on " + Thread.currentThread();
    completeDurablePages();
    if (!handoff.awaitPackerWork(view, this::shutdownRequested)) {
      return false;
    }
    completeDurablePages();
    if (current == null && local.isEmpty() && !inMessage) {
      WriteTask.Purge purge = handoff.takePurgeAtHead();
      if (purge != null) {
        purge(purge);
        return true;
      }
    }
    pack();
    if (pageHasContent() && handoff.writerIdle()) {
      handOver(FlushReason.DRAINED);
    }
    return true;
  }

  /** What {@link SqmHandoff#awaitPackerWork} asks; runs on this thread under the hand-off lock. */
  private final class View implements SqmHandoff.PackerView {
    @Override
    public boolean ready(long pendingBytes, boolean purgeAtHead, boolean writerIdle) {
      if (!inFlight.isEmpty() && inFlight.peekFirst().durable) {
        return true; // futures to complete, a buffer to reuse
      }
      boolean nothingTaken = current == null && local.isEmpty() && !inMessage;
      if (purgeAtHead && nothingTaken) {
        return true;
      }
      boolean canPack = page != null || !free.isEmpty();
      if (canPack && !nothingTaken) {
        return true; // taken requests (or a long message) are packed as soon as a buffer is free
      }
      if (canPack && pendingBytes > 0) {
        // While the writer is busy, wait until a page can be filled (or half the write buffer
        // waits, so producers are not held back by a page larger than their buffer).
        if (writerIdle || pendingBytes >= Math.min(roomBytes(), wakeBytesCap)) {
          return true;
        }
      }
      return pageHasContent() && writerIdle;
    }

    @Override
    public long wakeBytes(boolean writerIdle) {
      if (page == null && free.isEmpty()) {
        return Long.MAX_VALUE; // every buffer is with the writer: only it can wake us usefully
      }
      if (writerIdle) {
        return 1;
      }
      return Math.max(1, Math.min(roomBytes(), wakeBytesCap));
    }

    @Override
    public boolean idle() {
      return inFlight.isEmpty()
          && !pageHasContent()
          && current == null
          && local.isEmpty()
          && !inMessage;
    }
  }

  /** Payload bytes the page being packed (or the next one) can still take, roughly. */
  private long roomBytes() {
    if (page == null) {
      return (long) pageSizeBlocks * capacity;
    }
    long used = blockOpen ? pos - blockBase - BlockFormat.HEADER_SIZE : 0;
    return (long) (page.maxBlocks - page.blocks) * capacity - used;
  }

  private boolean pageHasContent() {
    return page != null && (page.blocks > 0 || blockOpen);
  }

  /** Completes the futures of pages the writer made durable, in order, and reuses their buffers. */
  private void completeDurablePages() {
    while (!inFlight.isEmpty() && handoff.isDurable(inFlight.peekFirst())) {
      PageBuffer p = inFlight.pollFirst();
      stats.cmdsWritten += p.messagesEnding;
      for (int i = 0; i < p.completedRequests.size(); i++) {
        p.completedRequests.get(i).future().complete(p.completedPositions.get(i));
      }
      p.completedRequests.clear();
      p.completedPositions.clear();
      free.addLast(p);
    }
  }

  // ---- packing -------------------------------------------------------------------------------

  /** True if a message not yet started is available in {@link #current}. */
  private boolean nextMessageReady() {
    while (true) {
      if (current != null && messageIndex < current.messages().size()) {
        return true;
      }
      current = local.pollFirst();
      messageIndex = 0;
      if (current == null) {
        handoff.takeAppends(local, roomBytes());
        current = local.pollFirst();
        if (current == null) {
          return false;
        }
      }
    }
  }

  /**
   * Packs waiting messages into pages, handing each page over as it fills, until nothing is waiting
   * or every page buffer is with the writer. A partly filled block stays open for the next call.
   */
  private void pack() {
    while (inMessage || nextMessageReady()) {
      if (page == null) {
        page = free.pollFirst();
        if (page == null) {
          return; // every buffer is with the writer
        }
        int inSegment = (int) (nextSequence % blocksPerSegment);
        page.start(nextSequence, Math.min(pageSizeBlocks, blocksPerSegment - inSegment));
        buf = page.buffer;
      }
      if (!blockOpen) {
        openBlock();
      }
      fillBlock();
      if (!blockOpen && page.blocks == page.maxBlocks) {
        handOver(
            nextSequence % blocksPerSegment == 0 ? FlushReason.SEGMENT_END : FlushReason.PAGE_FULL);
      }
    }
  }

  /** Opens the next block of the page; a message spanning blocks continues at its start. */
  private void openBlock() {
    blockBase = page.blocks * blockSize;
    pos = blockBase + BlockFormat.HEADER_SIZE;
    continuation = 0;
    rowCount = 0;
    blockFlags = 0;
    if (firstBlockSinceOpen) {
      // A message left unfinished by a crash before this open is abandoned.
      blockFlags = BlockFormat.FLAG_DISCARD_PARTIAL;
      firstBlockSinceOpen = false;
    }
    blockOpen = true;
    if (inMessage) {
      byte[] m = current.messages().get(messageIndex);
      int n = Math.min(m.length - messageOffset, capacity);
      buf.put(pos, m, messageOffset, n);
      pos += n;
      messageOffset += n;
      continuation = n;
      if (messageOffset == m.length) {
        finishMessage();
      } else {
        closeBlock(); // full
      }
    }
  }

  /** Adds records to the open block until it is full or nothing waits; closes it when full. */
  private void fillBlock() {
    if (!blockOpen) {
      return;
    }
    int end = blockBase + blockSize;
    while (end - pos >= BlockFormat.RECORD_LENGTH_SIZE && nextMessageReady()) {
      byte[] m = current.messages().get(messageIndex);
      messageSegment = nextSequence / blocksPerSegment;
      messageBlock = (int) (nextSequence % blocksPerSegment);
      messageRow = rowCount++;
      buf.putInt(pos, m.length);
      pos += BlockFormat.RECORD_LENGTH_SIZE;
      int n = Math.min(m.length, end - pos);
      buf.put(pos, m, 0, n);
      pos += n;
      if (n < m.length) {
        inMessage = true;
        messageOffset = n;
        break; // the block is full
      }
      finishMessage();
    }
    if (end - pos < BlockFormat.RECORD_LENGTH_SIZE) {
      closeBlock();
    }
  }

  private void finishMessage() {
    messageIndex++;
    inMessage = false;
    messageOffset = 0;
    page.messagesEnding++;
    haveLast = true;
    lastSegment = messageSegment;
    lastBlock = messageBlock;
    lastRow = messageRow;
    if (messageIndex == current.messages().size()) {
      QueuePosition p = new QueuePosition(messageSegment, messageBlock, messageRow);
      lastPosition = p;
      haveLast = false;
      page.completedRequests.add(current);
      page.completedPositions.add(p);
      current = null;
    }
  }

  /**
   * Writes the open block's header (with its CRC) and zeroes its padding, as far as the writer
   * writes it ({@link BlockFormat#writtenLength}; the rest of the slot stays a hole).
   */
  private void closeBlock() {
    int end = blockBase + blockSize;
    if (pos == end) {
      stats.blocksFullWrite++;
    } else {
      int written = BlockFormat.writtenLength(pos - blockBase, blockSize, wholeBlocks);
      buf.put(pos, ZEROS, 0, blockBase + written - pos);
    }
    BlockFormat.writeHeader(
        buf,
        blockBase,
        blockSize,
        blockFlags,
        queue.id(),
        nextSequence,
        pos - blockBase - BlockFormat.HEADER_SIZE,
        continuation,
        rowCount);
    page.blocks++;
    nextSequence++;
    blockOpen = false;
  }

  /**
   * Hands the page to the writer: closes its open block, puts its blocks in the cache (readers
   * cannot see them before the writer publishes them as durable), and queues it.
   */
  private void handOver(FlushReason reason) {
    if (blockOpen) {
      closeBlock();
    }
    if (haveLast) {
      lastPosition = new QueuePosition(lastSegment, lastBlock, lastRow);
      haveLast = false;
    }
    page.lastPosition = lastPosition;
    page.reason = reason;
    switch (reason) {
      case PAGE_FULL -> stats.flushesPageFull++;
      case DRAINED -> stats.flushesDrained++;
      case SEGMENT_END -> stats.flushesSegmentEnd++;
    }
    BlockCache cache = queue.cache();
    for (int b = 0; b < page.blocks; b++) {
      int base = b * blockSize;
      cache.put(page.firstSequence + b, buf, base, BlockFormat.usedLength(buf, base));
    }
    inFlight.addLast(page);
    handoff.submit(page);
    page = null;
    buf = null;
  }

  /**
   * {@code sysadmin sqm_purge_queue}: hands over what is packed, then orders the writer to drop
   * every segment; packing continues in the next segment not yet used (positions are never reused).
   */
  private void purge(WriteTask.Purge task) {
    if (pageHasContent()) {
      handOver(FlushReason.DRAINED);
    } else if (page != null) {
      free.addFirst(page);
      page = null;
      buf = null;
    }
    long newFirst =
        nextSequence / blocksPerSegment + (nextSequence % blocksPerSegment == 0 ? 0 : 1);
    nextSequence = newFirst * blocksPerSegment;
    haveLast = false;
    lastPosition = null;
    handoff.submit(new SqmHandoff.WriterTask.Purge(newFirst, task.future()));
  }

  @Override
  protected void wakeUp() {
    handoff.wakePacker();
  }

  @Override
  protected void onFatal(Throwable error) {
    queue.fail(error);
  }

  /**
   * Settles every request still here: those in pages the writer made durable complete normally, all
   * others fail with {@link QueueClosedException} (never acknowledged as durable).
   */
  @Override
  protected void onExit() {
    QueueClosedException closed =
        new QueueClosedException(queue.id(), queue.state(), queue.failure().orElse(null));
    completeDurablePages();
    for (PageBuffer p : inFlight) {
      p.completedRequests.forEach(r -> r.future().completeExceptionally(closed));
    }
    inFlight.clear();
    if (page != null) {
      page.completedRequests.forEach(r -> r.future().completeExceptionally(closed));
      page = null;
    }
    if (current != null) {
      current.future().completeExceptionally(closed);
      current = null;
    }
    local.forEach(a -> a.future().completeExceptionally(closed));
    local.clear();
    handoff.failPending(closed);
    handoff.packerDone();
  }
}
