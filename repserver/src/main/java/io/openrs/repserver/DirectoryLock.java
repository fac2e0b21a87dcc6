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
