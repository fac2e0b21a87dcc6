package io.openrs.config.secret;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * Files and directories private to the server's user: created {@code 0700} (directories) and {@code
 * 0600} (files) on POSIX file systems, through the creating call's attributes, so they are never
 * readable by others, not even for a moment. On other file systems the attributes are left out (the
 * platform's defaults apply). Existing files keep their modes: nothing here loosens one.
 */
public final class PrivateFiles {
  /** {@code rwx------}. */
  public static final Set<PosixFilePermission> DIRECTORY_MODE =
      PosixFilePermissions.fromString("rwx------");

  /** {@code rw-------}. */
  public static final Set<PosixFilePermission> FILE_MODE =
      PosixFilePermissions.fromString("rw-------");

  private static final Set<PosixFilePermission> GROUP_OR_OTHER =
      EnumSet.of(
          PosixFilePermission.GROUP_READ,
          PosixFilePermission.GROUP_WRITE,
          PosixFilePermission.GROUP_EXECUTE,
          PosixFilePermission.OTHERS_READ,
          PosixFilePermission.OTHERS_WRITE,
          PosixFilePermission.OTHERS_EXECUTE);

  private PrivateFiles() {}

  /** Whether {@code path}'s file system has POSIX permissions. */
  public static boolean isPosix(Path path) {
    return path.getFileSystem().supportedFileAttributeViews().contains("posix");
  }

  /** The attributes that create a {@code 0700} directory under {@code path}'s file system. */
  public static FileAttribute<?>[] directoryAttributes(Path path) {
    return isPosix(path)
        ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(DIRECTORY_MODE)}
        : new FileAttribute<?>[0];
  }

  /** The attributes that create a {@code 0600} file under {@code path}'s file system. */
  public static FileAttribute<?>[] fileAttributes(Path path) {
    return isPosix(path)
        ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(FILE_MODE)}
        : new FileAttribute<?>[0];
  }

  /**
   * {@link Files#createDirectories}: every directory it creates is {@code 0700}; existing ones are
   * left as they are.
   */
  public static Path createDirectories(Path dir) throws IOException {
    if (Files.isDirectory(dir)) {
      return dir;
    }
    return Files.createDirectories(dir, directoryAttributes(dir));
  }

  /**
   * The permissions of {@code path} that reach beyond its owner (group or others), e.g. {@code
   * rw-r--r--} for a {@code 0644} file; empty when there are none, when the file is missing or the
   * file system has no POSIX permissions.
   */
  public static Optional<String> openToOthers(Path path) throws IOException {
    if (!isPosix(path) || !Files.exists(path)) {
      return Optional.empty();
    }
    Set<PosixFilePermission> perms = Files.getPosixFilePermissions(path);
    for (PosixFilePermission p : perms) {
      if (GROUP_OR_OTHER.contains(p)) {
        return Optional.of(PosixFilePermissions.toString(perms));
      }
    }
    return Optional.empty();
  }

  /**
   * Takes group and other permissions away from a file another program created (H2 creates its
   * database file with the process's umask). Only ever removes permissions.
   *
   * @return whether the mode changed
   */
  public static boolean restrictToOwner(Path path) throws IOException {
    if (!isPosix(path) || !Files.exists(path)) {
      return false;
    }
    Set<PosixFilePermission> perms = Files.getPosixFilePermissions(path);
    Set<PosixFilePermission> owner = EnumSet.noneOf(PosixFilePermission.class);
    for (PosixFilePermission p : perms) {
      if (!GROUP_OR_OTHER.contains(p)) {
        owner.add(p);
      }
    }
    if (owner.equals(perms)) {
      return false;
    }
    Files.setPosixFilePermissions(path, owner);
    return true;
  }
}
