package io.openrs.bench.comparison;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * CPU used by the processes of one measurement, read before and after it: our agent's and server's
 * JVMs (their whole process, every thread; Debezium alone's JVM in the agent's place) and every
 * PostgreSQL process of the cluster (backends, walsenders, native's apply worker, background
 * processes), from {@code /proc/<pid>/stat} (user + system ticks). On a machine where every stage
 * competes for two cores, CPU per row change says where the time goes better than wall time does.
 * PostgreSQL's share is cluster-wide: during the lag runs it includes the primary's own workload.
 */
record CpuUse(Duration agent, Duration server, Map<Long, Long> postgresTicks) {

  private static final long TICKS_PER_SECOND = clockTicks();

  /** Now, for one of our systems. */
  static CpuUse of(OurSystem o) {
    return new CpuUse(o.agentCpu(), o.serverCpu(), readPostgres());
  }

  /** Now, for Debezium alone: its JVM's CPU counts as the agent's. */
  static CpuUse of(DebeziumDrain d) {
    return new CpuUse(d.cpu(), Duration.ZERO, readPostgres());
  }

  /** Now, for native replication (no agent or server of ours). */
  static CpuUse withoutOurs() {
    return new CpuUse(Duration.ZERO, Duration.ZERO, readPostgres());
  }

  /**
   * What was used from {@code before} to this reading. PostgreSQL processes count from their
   * reading in {@code before}, or from 0 when they started since; those that ended in between are
   * missing (their last part is lost; they are the workload's own connections).
   */
  CpuUse since(CpuUse before) {
    Map<Long, Long> used = new HashMap<>();
    postgresTicks.forEach(
        (pid, t) -> used.put(pid, Math.max(0, t - before.postgresTicks.getOrDefault(pid, 0L))));
    return new CpuUse(agent.minus(before.agent), server.minus(before.server), used);
  }

  /** The cluster's CPU: all of it for a reading, what was used for a {@link #since} result. */
  Duration postgres() {
    long ticks = postgresTicks.values().stream().mapToLong(Long::longValue).sum();
    return Duration.ofNanos(ticks * 1_000_000_000L / TICKS_PER_SECOND);
  }

  /** Microseconds of {@code d} per row change. */
  static double microsPerChange(Duration d, long changes) {
    return changes <= 0 ? 0 : d.toNanos() / 1000.0 / changes;
  }

  /**
   * CPU of the cluster's processes: per process, so one that exits during a measurement does not
   * take its earlier CPU with it (the difference is taken per pid in {@link #since}).
   */
  private static Map<Long, Long> readPostgres() {
    Map<Long, Long> ticks = new HashMap<>();
    try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
      for (Path p : (Iterable<Path>) procs::iterator) {
        String name = p.getFileName().toString();
        if (!name.chars().allMatch(Character::isDigit)) {
          continue;
        }
        long t = postgresTicks(p.resolve("stat"));
        if (t >= 0) {
          ticks.put(Long.parseLong(name), t);
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot list /proc", e);
    }
    return ticks;
  }

  /** utime + stime of a PostgreSQL process, -1 for any other process or one that just ended. */
  private static long postgresTicks(Path stat) {
    String s;
    try {
      s = Files.readString(stat, StandardCharsets.US_ASCII);
    } catch (IOException e) {
      return -1;
    }
    int open = s.indexOf('(');
    int close = s.lastIndexOf(')');
    if (open < 0 || close < open || !s.substring(open + 1, close).equals("postgres")) {
      return -1;
    }
    // Fields after the command: state(3) ... utime(14) stime(15), counted from 1 in proc(5).
    String[] f = s.substring(close + 2).split(" ");
    return Long.parseLong(f[11]) + Long.parseLong(f[12]);
  }

  private static long clockTicks() {
    try {
      Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
      p.waitFor();
      return Long.parseLong(out);
    } catch (Exception e) {
      return 100; // the Linux default
    }
  }
}
