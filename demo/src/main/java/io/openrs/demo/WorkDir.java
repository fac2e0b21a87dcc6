package io.openrs.demo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The demo's work directory: generated configuration files, the children's logs and pid files, the
 * server's and the agent's data. It is emptied at each run, but only when it is the demo's (it
 * holds the marker file {@code .openrs-demo}) or empty, never another directory.
 */
final class WorkDir {
  static final String MARKER = ".openrs-demo";
  static final String SERVER_PID = "repserver.pid";
  static final String AGENT_PID = "repagent.pid";

  private final Path dir;

  WorkDir(Path dir) {
    this.dir = dir.toAbsolutePath().normalize();
  }

  Path path() {
    return dir;
  }

  Path resolve(String name) {
    return dir.resolve(name);
  }

  /** A process of an earlier run: {@code role} is "agent" or "server". */
  record Leftover(String role, long pid) {}

  /** Server and agent processes an earlier run left running ({@code --keep-running}). */
  List<Leftover> leftoverProcesses() {
    List<Leftover> out = new ArrayList<>();
    for (String file : List.of(AGENT_PID, SERVER_PID)) {
      String role = file.equals(SERVER_PID) ? "server" : "agent";
      readPid(dir.resolve(file))
          .filter(this::isDemoChild)
          .ifPresent(pid -> out.add(new Leftover(role, pid)));
    }
    return out;
  }

  private static Optional<Long> readPid(Path file) {
    try {
      return Optional.of(Long.parseLong(Files.readString(file).trim()));
    } catch (IOException | NumberFormatException e) {
      return Optional.empty();
    }
  }

  /**
   * The JVM option that marks a child of the demo (before the long classpath, so it is within the
   * part of the command line the JDK reports).
   */
  String childMarker() {
    return "-Dopenrs.demo.workdir=" + dir;
  }

  private boolean isDemoChild(long pid) {
    return ProcessHandle.of(pid)
        .filter(ProcessHandle::isAlive)
        .flatMap(h -> h.info().commandLine())
        .map(c -> c.contains(childMarker()))
        .orElse(false);
  }

  /**
   * Refuses a directory the demo may not empty: a file, or a non-empty directory without the
   * marker.
   */
  void checkUsable() throws DemoException {
    if (!Files.exists(dir)) {
      return;
    }
    if (!Files.isDirectory(dir)) {
      throw new DemoException("the work directory " + dir + " is a file; give another --work-dir.");
    }
    boolean empty;
    try (Stream<Path> s = Files.list(dir)) {
      empty = s.findAny().isEmpty();
    } catch (IOException e) {
      throw new DemoException("cannot read the work directory " + dir + ": " + e, e);
    }
    if (!empty && !Files.exists(dir.resolve(MARKER))) {
      throw new DemoException(
          "the work directory "
              + dir
              + " is not empty and is not a demo work directory (it has no "
              + MARKER
              + " file), so the demo will not empty it; give another --work-dir.");
    }
  }

  /** Empties the directory (if it is the demo's) and marks it as the demo's. */
  void reset() throws DemoException {
    checkUsable();
    try {
      if (Files.exists(dir)) {
        try (Stream<Path> s = Files.walk(dir)) {
          for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
            if (!p.equals(dir)) {
              Files.delete(p);
            }
          }
        }
      }
      Files.createDirectories(dir);
      Files.writeString(
          dir.resolve(MARKER),
          "Work directory of the OpenRS quick-start demo (docs/demo.md); emptied at each run.\n");
    } catch (IOException e) {
      throw new DemoException("cannot prepare the work directory " + dir + ": " + e, e);
    }
  }

  void write(String name, String content) throws DemoException {
    try {
      Files.writeString(dir.resolve(name), content, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new DemoException("cannot write " + dir.resolve(name) + ": " + e, e);
    }
  }

  /** Writes a file only its owner may read (a password). */
  void writeSecret(String name, String content) throws DemoException {
    Path p = dir.resolve(name);
    try {
      Files.deleteIfExists(p);
      Files.createFile(
          p, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      Files.writeString(p, content, StandardCharsets.UTF_8);
    } catch (IOException | UnsupportedOperationException e) {
      throw new DemoException("cannot write " + p + ": " + e, e);
    }
  }
}
