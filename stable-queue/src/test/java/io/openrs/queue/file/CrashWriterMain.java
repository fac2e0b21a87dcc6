package io.openrs.queue.file;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openrs.queue.QueuePosition;
import io.openrs.queue.StableQueue;
import io.openrs.queue.WriteFlush;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;

/**
 * Child JVM of {@link CrashIT}: appends messages with {@code sqm_write_flush=on} forever and prints
 * {@code ACK <id>} for each one once it is durable, until it is killed.
 *
 * <p>Arguments: {@code <root directory> <round> <seed>}.
 */
public final class CrashWriterMain {

  private CrashWriterMain() {}

  public static void main(String[] args) throws Exception {
    Path root = Path.of(args[0]);
    long round = Long.parseLong(args[1]);
    Random random = new Random(Long.parseLong(args[2]));
    PrintStream out = new PrintStream(System.out, false, "UTF-8");
    FileQueueManager manager =
        FileQueueManager.open(
            root.resolve("state"),
            List.of(new PartitionSpec("p1", root.resolve("p1"), 1024L * 1024 * 1024)),
            new SimpleMeterRegistry(),
            Clock.SYSTEM);
    StableQueue q =
        manager.openOrCreateQueue(QueueFixture.Q, QueueFixture.SMALL.withWriteFlush(WriteFlush.ON));
    out.println("OPEN");
    out.flush();
    Semaphore outstanding = new Semaphore(256);
    for (long i = 0; ; i++) {
      long id = round * CrashIT.ROUND_STRIDE + i;
      int size = random.nextInt(20) == 0 ? 20_000 + random.nextInt(40_000) : random.nextInt(2000);
      outstanding.acquire();
      CompletableFuture<QueuePosition> f = q.append(Messages.make(id, size));
      f.whenComplete(
          (p, e) -> {
            if (e == null) {
              // Completions run on the writer thread, in write order.
              out.println("ACK " + id + " " + p);
              out.flush();
            }
            outstanding.release();
          });
    }
  }
}
