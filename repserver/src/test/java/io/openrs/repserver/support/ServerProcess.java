package io.openrs.repserver.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A replication server in its own JVM ({@code io.openrs.repserver.Main -C <file>}), as {@code
 * bin/repserver} runs it, for tests that kill it with SIGKILL.
 */
public final class ServerProcess implements AutoCloseable {

  private final Process process;
  private final CompletableFuture<Integer> ready = new CompletableFuture<>();
  private final List<String> output = java.util.Collections.synchronizedList(new ArrayList<>());

  private final Thread pump;

  private ServerProcess(Process process) {
    this.process = process;
    pump =
        new Thread(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(
                      new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                  output.add(line);
                  int at = line.indexOf("ready: ltl_port=");
                  if (at >= 0) {
                    ready.complete(Integer.parseInt(line.substring(at + 16).split(" ")[0]));
                  }
                }
              } catch (IOException e) {
                // the process died; ready fails below
              }
              ready.completeExceptionally(
                  new IllegalStateException("server exited before it was ready:\n" + tail()));
            },
            "server-output");
    pump.setDaemon(true);
    pump.start();
  }

  /** A free loopback port (the child binds it with SO_REUSEADDR). */
  public static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      s.setReuseAddress(true);
      return s.getLocalPort();
    }
  }

  /** Writes {@code config} lines to {@code dir/repserver.cfg}. */
  public static Path writeConfig(Path dir, List<String> lines) throws IOException {
    Path cfg = dir.resolve("repserver.cfg");
    Files.write(cfg, lines, StandardCharsets.UTF_8);
    return cfg;
  }

  /** Starts the server and waits until it reports ready. */
  public static ServerProcess start(Path config, Duration timeout) throws Exception {
    ServerProcess p = launch(config);
    try {
      p.ready.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      p.kill();
      throw new IllegalStateException("server did not become ready:\n" + p.tail(), e);
    }
    return p;
  }

  /**
   * Starts the server without waiting for it (a standby waits for the lease before it is ready).
   */
  public static ServerProcess launch(Path config) throws Exception {
    return launch(config, List.of());
  }

  /** As {@link #launch(Path)}, with more JVM options ({@code -D...}). */
  public static ServerProcess launch(Path config, List<String> jvmOptions) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command = new java.util.ArrayList<>(List.of(java, "-Xmx256m"));
    command.addAll(jvmOptions);
    command.addAll(
        List.of(
            "-cp",
            System.getProperty("java.class.path"),
            "io.openrs.repserver.Main",
            "-C",
            config.toString()));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.environment().put("OPENRS_ADMIN_PASSWORD", TestServers.ADMIN_PASSWORD);
    return new ServerProcess(pb.start());
  }

  /**
   * Waits until the server reports ready.
   *
   * @return its LTL port
   */
  public int awaitReady(Duration timeout) throws Exception {
    try {
      return ready.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException("server not ready within " + timeout + ":\n" + tail(), e);
    }
  }

  /** Whether the server has reported ready. */
  public boolean isReady() {
    return ready.isDone() && !ready.isCompletedExceptionally();
  }

  /** Whether the server printed a line containing {@code text}. */
  public boolean printed(String text) {
    synchronized (output) {
      return output.stream().anyMatch(l -> l.contains(text));
    }
  }

  /** SIGKILL: no shutdown hook, no flush. */
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
  }

  /**
   * SIGTERM: the graceful shutdown. The JVM exits with 143 (128 + SIGTERM) after its shutdown hook.
   *
   * @return whether the server reported a completed shutdown
   */
  public boolean stop() throws InterruptedException {
    // Through the handle: Process.destroy() would also close our end of the child's output.
    process.toHandle().destroy();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException("server did not stop within 60 s:\n" + tail());
    }
    pump.join(TimeUnit.SECONDS.toMillis(10));
    output.add("(exit value " + process.exitValue() + ")");
    synchronized (output) {
      return output.stream().anyMatch(l -> l.startsWith("repserver ") && l.endsWith(" stopped"));
    }
  }

  /** The last lines the server printed. */
  public String tail() {
    synchronized (output) {
      return String.join("\n", output.subList(Math.max(0, output.size() - 40), output.size()));
    }
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      kill();
    }
  }
}
