package io.openrs.queue.file;

import io.openrs.queue.QueueId;
import io.openrs.queue.QueueType;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * File names of the file engine, in one place. Names are zero-padded so {@code ls} sorts them:
 *
 * <ul>
 *   <li>segment: {@code <q_number:10>-<q_type>-<segment:20>.seg} in a partition directory
 *   <li>queue metadata, two alternating copies: {@code <q_number:10>-<q_type>.meta.0} and {@code
 *       .meta.1} in the state directory
 *   <li>{@code .deleted}: a queue being dropped (metadata renamed first); resolved at start-up by
 *       {@link #resolveLeftovers} together with stray {@code .tmp} files
 * </ul>
 */
final class SegmentFiles {

  private static final Logger LOG = LoggerFactory.getLogger(SegmentFiles.class);

  static final String SEGMENT_SUFFIX = ".seg";
  static final String DELETED_SUFFIX = ".deleted";
  static final String TMP_SUFFIX = ".tmp";
  private static final Pattern SEGMENT = Pattern.compile("(\\d{10})-([01])-(\\d{20})\\.seg");
  private static final Pattern META = Pattern.compile("(\\d{10})-([01])\\.meta\\.[01]");
  private static final Pattern DELETED_META =
      Pattern.compile("(\\d{10})-([01])\\.meta\\.[01]\\.deleted");

  private SegmentFiles() {}

  /** A segment file's identity parsed from its name. */
  record SegmentName(QueueId queue, long segment) {}

  static String queuePrefix(QueueId queue) {
    return String.format("%010d-%d", queue.number(), queue.type().code());
  }

  static String segmentFileName(QueueId queue, long segment) {
    return String.format("%s-%020d%s", queuePrefix(queue), segment, SEGMENT_SUFFIX);
  }

  static String metadataFileName(QueueId queue, int copy) {
    return queuePrefix(queue) + ".meta." + copy;
  }

  static Optional<SegmentName> parseSegment(String fileName) {
    Matcher m = SEGMENT.matcher(fileName);
    if (!m.matches()) {
      return Optional.empty();
    }
    return Optional.of(
        new SegmentName(
            new QueueId(
                Integer.parseInt(m.group(1)), QueueType.ofCode(Integer.parseInt(m.group(2)))),
            Long.parseLong(m.group(3))));
  }

  static Optional<QueueId> parseMetadata(String fileName) {
    Matcher m = META.matcher(fileName);
    if (!m.matches()) {
      return Optional.empty();
    }
    return Optional.of(
        new QueueId(Integer.parseInt(m.group(1)), QueueType.ofCode(Integer.parseInt(m.group(2)))));
  }

  static Optional<QueueId> parseDeletedMetadata(String fileName) {
    Matcher m = DELETED_META.matcher(fileName);
    if (!m.matches()) {
      return Optional.empty();
    }
    return Optional.of(
        new QueueId(Integer.parseInt(m.group(1)), QueueType.ofCode(Integer.parseInt(m.group(2)))));
  }

  /**
   * Resolves what a crash can leave behind, in one place: {@code .tmp} files are deleted; a queue
   * whose metadata was renamed {@code .deleted} was being dropped, so its segments in every
   * partition and then its {@code .deleted} files are deleted.
   */
  static void resolveLeftovers(Path stateDirectory, Iterable<Path> partitionDirectories)
      throws IOException {
    try (DirectoryStream<Path> files = Files.newDirectoryStream(stateDirectory)) {
      for (Path file : files) {
        String name = file.getFileName().toString();
        if (name.endsWith(TMP_SUFFIX)) {
          LOG.info("deleting leftover temporary file {}", file);
          Files.deleteIfExists(file);
          continue;
        }
        Optional<QueueId> dropped = parseDeletedMetadata(name);
        if (dropped.isPresent()) {
          LOG.info("finishing the drop of queue {} interrupted by a crash", dropped.get());
          for (Path dir : partitionDirectories) {
            deleteSegments(dir, dropped.get());
          }
          Files.deleteIfExists(file);
        }
      }
    }
    for (Path dir : partitionDirectories) {
      try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*" + TMP_SUFFIX)) {
        for (Path file : files) {
          LOG.info("deleting leftover temporary file {}", file);
          Files.deleteIfExists(file);
        }
      }
    }
  }

  static void deleteSegments(Path partitionDirectory, QueueId queue) throws IOException {
    try (DirectoryStream<Path> files =
        Files.newDirectoryStream(partitionDirectory, queuePrefix(queue) + "-*" + SEGMENT_SUFFIX)) {
      for (Path file : files) {
        Files.deleteIfExists(file);
      }
    }
  }

  /** Forces a directory so that created, renamed or deleted entries survive a crash. */
  static void forceDirectory(Path directory) throws IOException {
    try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
      dir.force(true);
    }
  }
}
