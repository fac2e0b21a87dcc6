package io.openrs.consistency.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A Java program in its own JVM on this module's class path, as {@code bin/repserver} and {@code
 * bin/repagent} run it: its output goes to a log file (and the last lines stay in memory for
 * failure messages); {@link #kill} is SIGKILL, {@link #stop} SIGTERM.
 */
public final class ChildJvm implements AutoCloseable {

  /** The children's logging: INFO of our code, warnings of libraries. */
  private static final String LOGBACK =
      """
      <configuration>
        <appender name="OUT" class="ch.qos.logback.core.ConsoleAppender">
          <encoder><pattern>%d{HH:mm:ss.SSS} %-5level [%thread] %logger{30} - %msg%n</pattern></encoder>
        </appender>
        <logger name="io.openrs" level="INFO"/>
        <logger name="io.debezium.connector.postgresql.connection.WalPositionLocator" level="INFO"/>
        <root level="WARN"><appender-ref ref="OUT"/></root>
      </configuration>
      """;

  /** Time zone of the children: not UTC, so a time value that depends on the JVM's zone shows. */
  public static final String CHILD_TIME_ZONE =
      System.getProperty("openrs.cs.childTimeZone", "Asia/Kolkata");

  private static final int TAIL_LINES = 200;

  /**
   * A line the child prints with this prefix is an answer to a request {@link #send} gave it;
   * {@link #answer} returns it without the prefix.
   */
  public static final String ANSWER_PREFIX = "@answer ";

  /**
   * The children's garbage collector, {@code -XX:+Use<name>GC}: {@code Parallel}, as {@code
   * bin/repserver} and {@code bin/repagent} choose it, unless {@code -Dopenrs.cs.childGc} names
   * another ({@code Serial}, {@code G1}).
   */
  private static final String COLLECTOR = System.getProperty("openrs.cs.childGc", "Parallel");

  /**
   * Class-data sharing archives of this test JVM's children, one per main class: the first child of
   * a kind writes one when it exits normally ({@code -XX:ArchiveClassesAtExit}), later ones map it
   * ({@code -XX:SharedArchiveFile}), which saves seconds of class loading per start on a busy
   * machine. Valid only for this class path, so kept per test JVM and deleted at its exit.
   */
  private static final Path CDS_DIR =
      Path.of(
          System.getProperty("java.io.tmpdir"), "openrs-cs-cds-" + ProcessHandle.current().pid());

  private static final java.util.Set<String> CDS_CLAIMED =
      java.util.concurrent.ConcurrentHashMap.newKeySet();

  private static final boolean CDS = !Boolean.getBoolean("openrs.cs.noCds");

  private static List<String> cdsOptions(String mainClass) {
    if (!CDS) {
      return List.of();
    }
    try {
      Files.createDirectories(CDS_DIR);
    } catch (IOException e) {
      return List.of();
    }
    CDS_DIR.toFile().deleteOnExit();
    Path archive = CDS_DIR.resolve(mainClass + ".jsa");
    archive.toFile().deleteOnExit();
    if (Files.exists(archive)) {
      return List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:cds=off", "-Xlog:cds+dynamic=off");
    }
    if (CDS_CLAIMED.add(mainClass)) {
      return List.of("-XX:ArchiveClassesAtExit=" + archive, "-Xlog:cds=off");
    }
    return List.of();
  }

  /** The children's class path, made once (see {@link #classPath}). */
  private static String childClassPath;

  /**
   * This JVM's class path for the children, with each directory on it (a module's {@code
   * target/classes} in a reactor build) replaced by a jar of it made once per test JVM: JDK 17
   * refuses to write a class-data-sharing archive while a non-empty directory is on the class path
   * ("Cannot have non-empty directory in paths", at the child's exit), so without this no child
   * ever had one. Jars are also what {@code bin/repserver} and {@code bin/repagent} run.
   */
  private static synchronized String classPath() {
    String cp = System.getProperty("java.class.path");
    if (!CDS) {
      return cp;
    }
    if (childClassPath == null) {
      List<String> out = new ArrayList<>();
      try {
        Files.createDirectories(CDS_DIR);
        int n = 0;
        for (String entry : cp.split(java.io.File.pathSeparator)) {
          Path dir = Path.of(entry);
          if (Files.isDirectory(dir)) {
            Path jar = CDS_DIR.resolve("classes-" + (n++) + ".jar");
            jar.toFile().deleteOnExit();
            jarOf(dir, jar);
            out.add(jar.toString());
          } else {
            out.add(entry);
          }
        }
        childClassPath = String.join(java.io.File.pathSeparator, out);
      } catch (IOException e) {
        childClassPath = cp; // the children start as before, without an archive
      }
    }
    return childClassPath;
  }

  /** A jar of every file under {@code dir}, directory entries included, as the jar tool makes. */
  private static void jarOf(Path dir, Path jar) throws IOException {
    List<Path> paths;
    try (var walk = Files.walk(dir)) {
      paths = walk.filter(p -> !p.equals(dir)).sorted().toList();
    }
    try (var zip = new java.util.jar.JarOutputStream(Files.newOutputStream(jar))) {
      for (Path p : paths) {
        String name = dir.relativize(p).toString().replace(java.io.File.separatorChar, '/');
        if (Files.isDirectory(p)) {
          zip.putNextEntry(new java.util.jar.JarEntry(name + "/"));
        } else {
          zip.putNextEntry(new java.util.jar.JarEntry(name));
          Files.copy(p, zip);
        }
        zip.closeEntry();
      }
    }
  }

  /** After a child exits: if it was to write its kind's archive and did not, another may. */
  private void releaseCdsClaim() {
    String main = mainClass;
    if (main != null && !Files.exists(CDS_DIR.resolve(main + ".jsa"))) {
      CDS_CLAIMED.remove(main);
    }
  }

  private final String name;
  private String mainClass;
  private final Process process;
  private final Path log;
  private final Deque<String> tail = new ArrayDeque<>();
  private final CompletableFuture<String> ready = new CompletableFuture<>();
  private final BlockingQueue<String> answers = new LinkedBlockingQueue<>();
  private final Thread pump;

  private ChildJvm(String name, Process process, Path log, Predicate<String> readyLine)
      throws IOException {
    this.name = name;
    this.process = process;
    this.log = log;
    Writer out = Files.newBufferedWriter(log, StandardCharsets.UTF_8);
    pump =
        new Thread(
            () -> {
              try (out;
                  BufferedReader r =
                      new BufferedReader(
                          new InputStreamReader(
                              process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                  out.write(line);
                  out.write('\n');
                  out.flush();
                  synchronized (tail) {
                    tail.addLast(line);
                    if (tail.size() > TAIL_LINES) {
                      tail.removeFirst();
                    }
                  }
                  if (readyLine.test(line)) {
                    ready.complete(line);
                  }
                  if (line.startsWith(ANSWER_PREFIX)) {
                    answers.add(line.substring(ANSWER_PREFIX.length()));
                  }
                }
              } catch (IOException e) {
                // the process ended
              }
              ready.completeExceptionally(
                  new IllegalStateException(name + " exited before it was ready"));
            },
            "out-" + name);
    pump.setDaemon(true);
    pump.start();
  }

  /**
   * Starts {@code mainClass} with {@code args}, a heap limit of {@code heap} and {@code jvmOptions}
   * after it (e.g. {@code -Xms2g} for a heap fixed at its limit); returns once it printed a line
   * {@code readyLine} accepts.
   */
  public static ChildJvm start(
      String name,
      Path dir,
      String heap,
      List<String> jvmOptions,
      String mainClass,
      List<String> args,
      Map<String, String> env,
      Predicate<String> readyLine,
      Duration timeout)
      throws Exception {
    ChildJvm child = launch(name, dir, heap, jvmOptions, mainClass, args, env, readyLine);
    child.awaitReady(timeout);
    return child;
  }

  /**
   * As {@link #start}, without waiting for the ready line (a standby server prints it only once it
   * took over); {@link #awaitReady} waits for it.
   */
  public static ChildJvm launch(
      String name,
      Path dir,
      String heap,
      List<String> jvmOptions,
      String mainClass,
      List<String> args,
      Map<String, String> env,
      Predicate<String> readyLine)
      throws Exception {
    Path logback = dir.resolve("logback-child.xml");
    if (!Files.exists(logback)) {
      Files.writeString(logback, LOGBACK, StandardCharsets.UTF_8);
    }
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx" + heap);
    cmd.addAll(jvmOptions);
    cmd.add("-XX:+Use" + COLLECTOR + "GC");
    cmd.add("-XX:+ExitOnOutOfMemoryError");
    cmd.addAll(cdsOptions(mainClass));
    cmd.add("-Duser.timezone=" + CHILD_TIME_ZONE);
    cmd.add("-Dlogback.configurationFile=" + logback);
    // Extra options for profiling a run, e.g. -Dconsistency.child.jvmArgs=
    // "-XX:StartFlightRecording=filename=/tmp/jfr/,settings=profile" (one recording per child).
    String extra = System.getProperty("consistency.child.jvmArgs", "").trim();
    if (!extra.isEmpty()) {
      cmd.addAll(List.of(extra.split("\\s+")));
    }
    cmd.add("-cp");
    cmd.add(classPath());
    cmd.add(mainClass);
    cmd.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
    pb.environment().putAll(env);
    Path log = nextLog(dir, name);
    ChildJvm child = new ChildJvm(name, pb.start(), log, readyLine);
    child.mainClass = mainClass;
    return child;
  }

  /**
   * Waits until the child printed its ready line.
   *
   * @throws IllegalStateException (after killing it) when it did not within {@code timeout}
   */
  public void awaitReady(Duration timeout) throws InterruptedException {
    try {
      ready.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      kill();
      throw new IllegalStateException(
          name + " did not become ready within " + timeout + ":\n" + tail(), e);
    }
  }

  /** Whether the child printed its ready line. */
  public boolean isReady() {
    return ready.isDone() && !ready.isCompletedExceptionally();
  }

  private static Path nextLog(Path dir, String name) {
    for (int i = 1; ; i++) {
      Path p = dir.resolve(name + "-" + i + ".log");
      if (!Files.exists(p)) {
        return p;
      }
    }
  }

  public String name() {
    return name;
  }

  public Path log() {
    return log;
  }

  public boolean alive() {
    return process.isAlive();
  }

  /** CPU time the child has used so far (all its threads, user and system); zero once it exited. */
  public java.time.Duration cpuTime() {
    return process.toHandle().info().totalCpuDuration().orElse(java.time.Duration.ZERO);
  }

  /** SIGKILL: no shutdown hook runs, nothing is flushed. */
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
    pump.join(TimeUnit.SECONDS.toMillis(10));
    releaseCdsClaim();
  }

  /**
   * SIGTERM, the graceful stop; waits for the exit.
   *
   * @return the exit code (143 after SIGTERM)
   */
  public int stop(Duration timeout) throws InterruptedException {
    // Through the handle: Process.destroy() would also close our end of the child's output.
    process.toHandle().destroy();
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      process.destroyForcibly();
      process.waitFor(30, TimeUnit.SECONDS);
      throw new IllegalStateException(name + " did not stop within " + timeout + ":\n" + tail());
    }
    pump.join(TimeUnit.SECONDS.toMillis(10));
    releaseCdsClaim();
    return process.exitValue();
  }

  /**
   * Writes {@code line} to the child's standard input (a request it answers with {@link #answer}).
   */
  public void send(String line) throws IOException {
    var in = process.getOutputStream();
    in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    in.flush();
  }

  /**
   * The next answer the child printed (a line starting with {@link #ANSWER_PREFIX}, without it).
   *
   * @throws IllegalStateException when none came within {@code timeout}, or the child exited
   */
  public String answer(Duration timeout) throws InterruptedException {
    long end = System.nanoTime() + timeout.toNanos();
    while (true) {
      String a =
          answers.poll(
              Math.min(1000, Math.max(1, (end - System.nanoTime()) / 1_000_000)),
              TimeUnit.MILLISECONDS);
      if (a != null) {
        return a;
      }
      if (!pump.isAlive() && answers.isEmpty()) { // the child's output ended
        throw new IllegalStateException(name + " exited without an answer:\n" + tail());
      }
      if (System.nanoTime() > end) {
        throw new IllegalStateException(
            name + " gave no answer within " + timeout + ":\n" + tail());
      }
    }
  }

  /** Whether the child printed a line containing {@code text} (among its last lines). */
  public boolean printed(String text) {
    synchronized (tail) {
      return tail.stream().anyMatch(l -> l.contains(text));
    }
  }

  /** Whether the log file holds a line containing {@code text}. */
  public boolean logged(String text) throws IOException {
    try (var lines = Files.lines(log, StandardCharsets.UTF_8)) {
      return lines.anyMatch(l -> l.contains(text));
    }
  }

  /** The last lines the child printed. */
  public String tail() {
    synchronized (tail) {
      List<String> l = new ArrayList<>(tail);
      return String.join("\n", l.subList(Math.max(0, l.size() - 60), l.size()));
    }
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      kill();
    }
  }
}
