package io.openrs.repserver;

import io.openrs.config.secret.PrivateFiles;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lock file {@code repserver.lock} in a server's directory: held while a server runs there, so
 * a second server on the same directory is refused instead of sharing its queues.
 */
final class DirectoryLock implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(DirectoryLock.class);

  private final Path file;
  private final FileChannel channel;
  private final FileLock lock;

  private DirectoryLock(Path file, FileChannel channel, FileLock lock) {
    this.file = file;
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Creates the directory (private to the server's user) and takes its lock.
   *
   * @throws IOException when another server holds it
   */
  static DirectoryLock take(Path directory) throws IOException {
    PrivateFiles.createDirectories(directory);
    Path file = directory.resolve("repserver.lock");
    FileChannel channel =
        FileChannel.open(
            file,
            Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE),
            PrivateFiles.fileAttributes(file));
    FileLock lock = channel.tryLock();
    if (lock == null) {
      channel.close();
      throw new IOException(
          "another server is running in " + directory + " (repserver.lock is held)");
    }
    return new DirectoryLock(file, channel, lock);
  }

  /**
   * {@link #take}, tried again for up to {@code patience} while another process still holds the
   * lock (a server that lost its lease and is stopping).
   */
  static DirectoryLock takeWithin(Path directory, java.time.Duration patience)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + patience.toNanos();
    boolean said = false;
    while (true) {
      try {
        return take(directory);
      } catch (IOException e) {
        if (System.nanoTime() - deadline >= 0) {
          throw e;
        }
        if (!said) {
          LOG.info(
              "{}; waiting up to {} ms for it to be released", e.getMessage(), patience.toMillis());
          said = true;
        }
        Thread.sleep(200);
      }
    }
  }

  /** Releases the lock; a failure is logged, not thrown (the process is stopping). */
  @Override
  public void close() {
    try {
      lock.release();
      channel.close();
    } catch (IOException e) {
      LOG.warn("could not release {}: {}", file, e.toString());
    }
  }
}
