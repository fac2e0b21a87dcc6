package io.openrs.queue.file;

import static io.openrs.queue.file.QueueFixture.Q;
import static io.openrs.queue.file.QueueFixture.SMALL;
import static org.assertj.core.api.Assertions.assertThat;

import io.openrs.queue.StableQueue;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Queue files hold the replicated rows: the directories the manager creates are {@code 0700}, the
 * segment and metadata files {@code 0600}; a directory that exists keeps its mode.
 */
class FileModesTest {
  @TempDir Path root;

  private static String mode(Path p) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }

  @Test
  void directoriesSegmentsAndMetadataArePrivateToTheServersUser() throws Exception {
    Path existing = root.resolve("p1");
    Files.createDirectory(
        existing,
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-x---")));
    try (QueueFixture fx = new QueueFixture(root)) {
      StableQueue q = fx.manager.createQueue(Q, SMALL);
      for (int i = 0; i < 200; i++) { // ~2 MB over 1 MiB segments: several segment files
        q.append(Messages.make(i, 10_000));
      }
      q.append(Messages.make(200, 10)).get(30, TimeUnit.SECONDS);

      assertThat(mode(fx.stateDir())).isEqualTo("rwx------");
      assertThat(mode(existing)).as("an existing directory keeps its mode").isEqualTo("rwxr-x---");
      List<Path> files;
      try (Stream<Path> s = Stream.concat(Files.list(fx.stateDir()), Files.list(existing))) {
        files = s.filter(Files::isRegularFile).toList();
      }
      assertThat(files)
          .as("segments and metadata copies")
          .hasSizeGreaterThanOrEqualTo(3)
          .anySatisfy(f -> assertThat(f).isEqualTo(fx.segmentFile(Q, 0)))
          .allSatisfy(f -> assertThat(mode(f)).as(f.toString()).isEqualTo("rw-------"));
    }
  }

  @Test
  void aNewPartitionDirectoryIsPrivate() throws Exception {
    try (QueueFixture fx = new QueueFixture(root.resolve("a").resolve("b"))) {
      assertThat(mode(fx.partitionDir())).isEqualTo("rwx------");
      assertThat(mode(root.resolve("a"))).isEqualTo("rwx------");
    }
  }
}
