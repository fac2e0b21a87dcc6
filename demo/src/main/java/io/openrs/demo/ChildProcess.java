package io.openrs.demo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server or the agent as a child JVM: its main class on this JVM's classpath, a generated
 * configuration file, its output in a log file in the work directory. Started in its own session
 * (setsid) when the system has it, so Ctrl-C reaches only the demo, which stops the children in
 * order, and {@code --keep-running} children survive the terminal.
 */
final class ChildProcess {
  private static final Path SETSID = Path.of("/usr/bin/setsid");

  private final String name;
  private final Process process;
  private final Path log;
  private final List<String> command;

  private ChildProcess(String name, Process process, Path log, List<String> command) {
    this.name = name;
    this.process = process;
    this.log = log;
    this.command = command;
  }

  /**
   * The command that runs {@code mainClass} with {@code args} in a JVM like this one: the same
   * java, the same classpath, {@code jvmOptions}.
   */
  static List<String> javaCommand(String mainClass, List<String> jvmOptions, List<String> args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvmOptions);
    cmd.add("-cp");
    cmd.add(absoluteClasspath(System.getProperty("java.class.path")));
    cmd.add(mainClass);
    cmd.addAll(args);
    return cmd;
  }

  /**
   * {@code classpath} with every entry absolute (children run in the work directory); wildcard
   * entries ({@code lib/*}) stay wildcards.
   */
  static String absoluteClasspath(String classpath) {
    List<String> out = new ArrayList<>();
    for (String entry : classpath.split(java.io.File.pathSeparator)) {
      if (!entry.isEmpty()) {
        out.add(Path.of(entry).toAbsolutePath().normalize().toString());
      }
    }
    return String.join(java.io.File.pathSeparator, out);
  }

  static ChildProcess start(String name, List<String> command, Path workDir, Path log)
      throws DemoException {
    List<String> full = new ArrayList<>();
    if (Files.isExecutable(SETSID)) {
      full.add(SETSID.toString());
    }
    full.addAll(command);
    ProcessBuilder pb = new ProcessBuilder(full);
    pb.directory(workDir.toFile());
    pb.redirectErrorStream(true);
    pb.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    pb.redirectInput(ProcessBuilder.Redirect.from(nullDevice()));
    try {
      return new ChildProcess(name, pb.start(), log, command);
    } catch (IOException e) {
      throw new DemoException("cannot start the " + name + ": " + e.getMessage(), e);
    }
  }

  private static java.io.File nullDevice() {
    return new java.io.File("/dev/null");
  }

  String name() {
    return name;
  }

  long pid() {
    return process.pid();
  }

  Path log() {
    return log;
  }

  List<String> command() {
    return command;
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /**
   * Waits until a line of the log matches {@code ready}, the process ends (a problem naming the
   * log's last lines) or {@code timeout} passes. Returns the match.
   */
  Matcher awaitLine(Pattern ready, Duration timeout) throws DemoException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      Optional<Matcher> m = find(ready);
      if (m.isPresent()) {
        return m.get();
      }
      if (!process.isAlive()) {
        throw new DemoException(
            "the "
                + name
                + " stopped with exit code "
                + process.exitValue()
                + " before it was ready; its log "
                + log
                + " ends with:\n"
                + tail(15));
      }
      if (System.nanoTime() > deadline) {
        throw new DemoException(
            "the "
                + name
                + " was not ready within "
                + timeout.toSeconds()
                + " s; its log "
                + log
                + " ends with:\n"
                + tail(15));
      }
      try {
        process.waitFor(100, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new DemoException("interrupted while waiting for the " + name);
      }
    }
  }

  private Optional<Matcher> find(Pattern p) {
    for (String line : lines()) {
      Matcher m = p.matcher(line);
      if (m.find()) {
        return Optional.of(m);
      }
    }
    return Optional.empty();
  }

  private List<String> lines() {
    try {
      return Files.readAllLines(log, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return List.of();
    }
  }

  /** The last {@code n} lines of the log, indented. */
  String tail(int n) {
    List<String> all = lines();
    StringBuilder b = new StringBuilder();
    for (String l : all.subList(Math.max(0, all.size() - n), all.size())) {
      b.append("    ").append(l).append('\n');
    }
    return b.toString();
  }

  /**
   * Stops the process gracefully (SIGTERM: the server and the agent save their state first),
   * forcibly after {@code grace}. Returns the exit code.
   */
  int stop(Duration grace) {
    process.destroy();
    try {
      if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
    return process.isAlive() ? -1 : process.exitValue();
  }
}
