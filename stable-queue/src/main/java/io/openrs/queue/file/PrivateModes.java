package io.openrs.queue.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Queue files are private to the server's user: directories are created {@code 0700}, segment and
 * metadata files {@code 0600}, through the creating call's attributes (never a chmod afterwards),
 * on POSIX file systems; elsewhere the platform's defaults apply. Existing files and directories
 * keep their modes. Stateless.
 */
final class PrivateModes {
  private static final FileAttribute<?>[] NONE = new FileAttribute<?>[0];
  private static final FileAttribute<?>[] DIRECTORY = {
    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"))
  };
  private static final FileAttribute<?>[] FILE = {
    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))
  };

  private PrivateModes() {}

  private static boolean posix(Path path) {
    return path.getFileSystem().supportedFileAttributeViews().contains("posix");
  }

  /** Attributes that create a file under {@code path}'s file system {@code 0600}. */
  static FileAttribute<?>[] file(Path path) {
    return posix(path) ? FILE : NONE;
  }

  /** {@link Files#createDirectories}, each directory it creates {@code 0700}. */
  static void createDirectories(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      Files.createDirectories(dir, posix(dir) ? DIRECTORY : NONE);
    }
  }
}
