package io.openrs.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkDirTest {
  @TempDir Path tmp;

  @Test
  void aMissingOrEmptyDirectoryBecomesTheDemos() throws Exception {
    WorkDir w = new WorkDir(tmp.resolve("a/b"));
    w.reset();
    assertThat(tmp.resolve("a/b/" + WorkDir.MARKER)).exists();
  }

  @Test
  void theDemosDirectoryIsEmptiedAtTheNextRun() throws Exception {
    WorkDir w = new WorkDir(tmp.resolve("demo"));
    w.reset();
    w.write("repserver.log", "old");
    Files.createDirectories(w.resolve("server/partitions/p1"));
    Files.writeString(w.resolve("server/partitions/p1/x.seg"), "old");
    w.reset();
    try (var files = Files.list(w.path())) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactly(WorkDir.MARKER);
    }
  }

  @Test
  void anotherNonEmptyDirectoryIsRefusedAndLeftAlone() throws Exception {
    Path other = Files.createDirectories(tmp.resolve("other"));
    Files.writeString(other.resolve("data"), "x");
    WorkDir w = new WorkDir(other);
    assertThatThrownBy(w::reset)
        .isInstanceOf(DemoException.class)
        .hasMessageContaining("not a demo work directory");
    assertThat(other.resolve("data")).hasContent("x");
  }

  @Test
  void secretsAreReadableByTheOwnerOnly() throws Exception {
    WorkDir w = new WorkDir(tmp.resolve("demo"));
    w.reset();
    w.writeSecret("admin-password", "s3cret-pass");
    assertThat(w.resolve("admin-password")).hasContent("s3cret-pass");
    assertThat(
            PosixFilePermissions.toString(
                Files.getPosixFilePermissions(w.resolve("admin-password"))))
        .isEqualTo("rw-------");
  }

  @Test
  void aPidFileOfAProcessThatIsNotADemoChildIsNotALeftover() throws Exception {
    WorkDir w = new WorkDir(tmp.resolve("demo"));
    w.reset();
    w.write(WorkDir.SERVER_PID, ProcessHandle.current().pid() + "\n");
    w.write(WorkDir.AGENT_PID, "999999999\n");
    assertThat(w.leftoverProcesses()).isEmpty();
  }
}
