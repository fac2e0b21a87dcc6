package io.openrs.repserver;

import io.openrs.config.rssd.Rssd;
import io.openrs.config.secret.PrivateFiles;
import io.openrs.config.secret.SecretBox;
import io.openrs.config.secret.SecretKeyFile;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's private files in its data directory: the key file that seals connection passwords
 * ({@value SecretKeyFile#DEFAULT_NAME}, {@code 0600}) and the embedded RSSD's files ({@code
 * rssd.*}, {@code 0600}). The data directory itself is created {@code 0700} by the server. Called
 * once, at start, on the starting thread.
 */
final class ServerFiles {
  private static final Logger LOG = LoggerFactory.getLogger(ServerFiles.class);

  /** The embedded RSSD's file, as {@code RssdSettings.embedded} names it. */
  static final String EMBEDDED_RSSD_FILE = "rssd.mv.db";

  private ServerFiles() {}

  /**
   * Opens the RSSD with the key in the data directory's key file (created at the first start): the
   * secrets it holds in clear are sealed. An embedded RSSD's file is created {@code 0600}, and H2's
   * own files in the data directory lose any group and other permissions.
   */
  static Rssd openRssd(ServerSettings settings) throws IOException {
    Path dir = settings.directory();
    warnIfOpenToOthers(dir);
    SecretBox box = SecretKeyFile.loadOrCreate(dir.resolve(SecretKeyFile.DEFAULT_NAME));
    boolean embedded = settings.rssd().jdbcUrl().startsWith("jdbc:h2:");
    if (embedded) {
      Path file = dir.resolve(EMBEDDED_RSSD_FILE);
      if (Files.notExists(file)) {
        // H2 starts a new database in an empty file; creating it here gives it its mode at once.
        Files.createFile(file, PrivateFiles.fileAttributes(file));
      }
    }
    Rssd rssd = Rssd.open(settings.rssd(), Clock.systemUTC(), box);
    if (embedded) {
      restrictRssdFiles(dir);
    }
    return rssd;
  }

  /**
   * H2 creates files of its own (a compacted database file, {@code rssd.trace.db}) with the
   * process's umask, and an RSSD file of an older server has 0644: take group and other permissions
   * away from them (they hold the sealed passwords and every definition).
   */
  private static void restrictRssdFiles(Path dir) throws IOException {
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "rssd.*")) {
      for (Path f : files) {
        if (Files.isRegularFile(f) && PrivateFiles.restrictToOwner(f)) {
          LOG.info("{}: group and other permissions removed", f);
        }
      }
    }
  }

  private static void warnIfOpenToOthers(Path path) throws IOException {
    Optional<String> mode = PrivateFiles.openToOthers(path);
    if (mode.isPresent()) {
      LOG.warn(
          "{} has mode {}: others on this host may read the server's files; the server creates"
              + " new files private to its user but does not change existing ones (chmod {} {})",
          path,
          mode.get(),
          Files.isDirectory(path) ? "700" : "600",
          path);
    }
  }
}
