package io.openrs.bench.queue;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The physical limit the queue is compared with: a plain {@link FileChannel} writing the same bytes
 * sequentially in chunks of {@code block_size * sqm_page_size} (4 blocks), forcing after each write
 * when {@code flush=on}, into 64 MiB files like the queue's segments. Score = writes/s; MB/s =
 * score * chunk bytes / 1e6.
 *
 * <p>{@code files=keep} (the baseline of the ratios): full files are kept until the end of the
 * iteration and deleted then, as the queue keeps its segments until the purge that ends each
 * iteration of {@link QueueWriteBenchmark}. {@code files=delete}: each full file is deleted inside
 * the timed loop before the next is created; the kernel then reuses the just-freed page-cache
 * pages, which makes the write calls several times cheaper on this machine (the queue cannot do
 * that while it holds a backlog).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
public class PhysicalLimitBenchmark {

  static final long FILE_BYTES = 64L * 1024 * 1024;
  static final int PAGE_BLOCKS = 4;

  @Param({"16", "64", "128", "256"})
  public int blockKiB;

  @Param({"on", "off"})
  public String flush;

  @Param({"keep", "delete"})
  public String files;

  private Path dir;
  private FileChannel channel;
  private ByteBuffer chunk;
  private long offset;
  private int fileNumber;

  @Setup(Level.Trial)
  public void open() throws Exception {
    dir = BenchQueues.newDirectory("limit-" + blockKiB + "-" + flush);
    chunk = ByteBuffer.allocateDirect(blockKiB * 1024 * PAGE_BLOCKS);
    while (chunk.hasRemaining()) {
      chunk.put((byte) chunk.position());
    }
    nextFile();
  }

  private void nextFile() throws Exception {
    if (channel != null) {
      channel.close();
      if ("delete".equals(files)) {
        Files.delete(dir.resolve("f" + fileNumber));
      }
      fileNumber++;
    }
    channel =
        FileChannel.open(
            dir.resolve("f" + fileNumber), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    if (!"off".equals(flush)) {
      try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
        d.force(true);
      }
    }
    offset = 0;
  }

  /** Deletes the iteration's files (outside the timed loop), as the queue's purge does. */
  @TearDown(Level.Iteration)
  public void deleteFiles() throws Exception {
    channel.close();
    channel = null;
    for (int i = 0; i <= fileNumber; i++) {
      Files.deleteIfExists(dir.resolve("f" + i));
    }
    fileNumber++;
    nextFile();
  }

  @TearDown(Level.Trial)
  public void close() throws Exception {
    channel.close();
    BenchQueues.deleteRecursively(dir);
  }

  @Benchmark
  public void writeChunk() throws Exception {
    if (offset >= FILE_BYTES) {
      nextFile();
    }
    chunk.clear();
    while (chunk.hasRemaining()) {
      offset += channel.write(chunk, offset);
    }
    if (!"off".equals(flush)) {
      channel.force(false);
    }
  }
}
