package io.openrs.runtime;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one naming convention of OpenRS threads: {@code rs-<module>-<component>[-<id>]}, e.g. {@code
 * rs-sqm-writer-101:1}, {@code rs-dsi-exec-rds.rdb-2}, {@code rs-pgwire-worker-3}. {@code module}
 * and {@code component} are short lower-case words (letters and digits); the id says which instance
 * (a queue, a connection, an agent, a pool member) is the instance's own name, unchanged. {@code
 * jstack}, {@code top -H} and the logs' thread column then show who is who.
 *
 * <p>Thread factories for executors ({@link #factory}, {@link #numberedFactory}) make daemon
 * threads named by the convention that report an uncaught failure through slf4j with their name, as
 * {@link WorkerThread} does.
 */
public final class ThreadNames {
  private static final Logger LOG = LoggerFactory.getLogger(ThreadNames.class);
  private static final Pattern WORD = Pattern.compile("[a-z][a-z0-9]*");
  private static final Pattern NAME = Pattern.compile("rs-[a-z][a-z0-9]*-[a-z][a-z0-9]*(-.+)?");

  /** Logs a thread's uncaught failure once, with the thread's name. */
  static final Thread.UncaughtExceptionHandler REPORT_UNCAUGHT =
      (t, e) -> LOG.error("thread {} ended by an uncaught failure", t.getName(), e);

  private ThreadNames() {}

  /** True if {@code name} follows the convention. */
  public static boolean follows(String name) {
    return name != null && NAME.matcher(name).matches();
  }

  /** {@code rs-<module>-<component>}. */
  public static String of(String module, String component) {
    return "rs-" + word("module", module) + "-" + word("component", component);
  }

  /** {@code rs-<module>-<component>-<id>}. */
  public static String of(String module, String component, Object id) {
    String text = String.valueOf(id);
    if (text.isEmpty()) {
      throw new IllegalArgumentException(
          "thread id of rs-" + module + "-" + component + " is empty");
    }
    return of(module, component) + "-" + text;
  }

  /**
   * A factory of daemon threads all named {@code rs-<module>-<component>-<id>}: for an executor
   * that keeps one thread (a new thread replacing one that died gets the same name).
   */
  public static ThreadFactory factory(String module, String component, Object id) {
    String name = of(module, component, id);
    return r -> newThread(r, name);
  }

  /**
   * A factory of daemon threads named {@code rs-<module>-<component>-1}, {@code -2}, ... in the
   * order it makes them: for a pool.
   */
  public static ThreadFactory numberedFactory(String module, String component) {
    String prefix = of(module, component);
    AtomicInteger number = new AtomicInteger();
    return r -> newThread(r, prefix + "-" + number.incrementAndGet());
  }

  private static Thread newThread(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    t.setUncaughtExceptionHandler(REPORT_UNCAUGHT);
    return t;
  }

  private static String word(String what, String value) {
    if (value == null || !WORD.matcher(value).matches()) {
      throw new IllegalArgumentException(
          "thread name "
              + what
              + " must be a lower-case word of letters and digits, got \""
              + value
              + "\"");
    }
    return value;
  }
}
