package io.openrs.queue.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Segment channels that fail the n-th write or the n-th force (counted over every segment file the
 * manager opens) with an {@link IOException}, once; later calls fail too, as a broken device would.
 * A failing write first writes half of its bytes, so the file holds a torn page.
 */
final class FaultyChannels implements FileQueueManager.SegmentChannels {

  enum Op {
    WRITE,
    FORCE
  }

  static final String MESSAGE = "injected I/O error";

  private final Op op;
  private final int failAt;
  private final AtomicInteger writes = new AtomicInteger();
  private final AtomicInteger forces = new AtomicInteger();
  private volatile boolean broken;

  FaultyChannels(Op op, int failAt) {
    this.op = op;
    this.failAt = failAt;
  }

  /** True once the fault has been injected. */
  boolean injected() {
    return broken;
  }

  @Override
  public FileChannel open(Path file, Set<? extends OpenOption> options) throws IOException {
    return new Faulty(FileChannel.open(file, options));
  }

  private final class Faulty extends FileChannel {
    private final FileChannel d;

    Faulty(FileChannel delegate) {
      this.d = delegate;
    }

    private void failIf(Op kind, AtomicInteger counter) throws IOException {
      if (broken) {
        throw new IOException(MESSAGE + " (device already failed)");
      }
      if (kind == op && counter.incrementAndGet() == failAt) {
        broken = true;
        throw new IOException(MESSAGE + ": " + kind + " #" + failAt);
      }
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
      try {
        failIf(Op.WRITE, writes);
      } catch (IOException e) {
        if (src.remaining() > 1 && !e.getMessage().contains("already")) {
          ByteBuffer half = src.duplicate();
          half.limit(half.position() + src.remaining() / 2);
          d.write(half, position); // torn: half the page reaches the file
        }
        throw e;
      }
      return d.write(src, position);
    }

    @Override
    public void force(boolean metaData) throws IOException {
      failIf(Op.FORCE, forces);
      d.force(metaData);
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
      failIf(Op.WRITE, writes);
      return d.write(src);
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
      failIf(Op.WRITE, writes);
      return d.write(srcs, offset, length);
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
      return d.read(dst);
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
      return d.read(dsts, offset, length);
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
      return d.read(dst, position);
    }

    @Override
    public long position() throws IOException {
      return d.position();
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
      d.position(newPosition);
      return this;
    }

    @Override
    public long size() throws IOException {
      return d.size();
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
      d.truncate(size);
      return this;
    }

    @Override
    public long transferTo(long position, long count, WritableByteChannel target)
        throws IOException {
      return d.transferTo(position, count, target);
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count)
        throws IOException {
      failIf(Op.WRITE, writes);
      return d.transferFrom(src, position, count);
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
      return d.map(mode, position, size);
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) throws IOException {
      return d.lock(position, size, shared);
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
      return d.tryLock(position, size, shared);
    }

    @Override
    protected void implCloseChannel() throws IOException {
      d.close();
    }
  }
}
