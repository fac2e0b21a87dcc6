package io.openrs.repserver;

import io.micrometer.core.instrument.MeterRegistry;
import io.openrs.repserver.monitor.MonitorRegistries;
import io.openrs.runtime.ThreadNames;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code bin/repserver}: starts a replication server from its configuration file. */
@Command(
    name = "repserver",
    mixinStandardHelpOptions = true,
    description = "Starts the openrs replication server and runs until stopped (SIGTERM/Ctrl-C).")
public final class Main implements Callable<Integer> {

  private static final Logger LOG = LoggerFactory.getLogger(Main.class);

  @Option(
      names = {"-C", "--config"},
      required = true,
      description = "the configuration file (name = value lines; see docs/parameters.md)")
  Path config;

  @Override
  public Integer call() throws Exception {
    ServerSettings settings;
    try {
      settings = ServerConfigFile.read(config);
    } catch (IllegalArgumentException e) {
      System.err.println("repserver: " + e.getMessage());
      return 2;
    }
    MeterRegistry registry = MonitorRegistries.prometheus();
    ReplicationServer server;
    try {
      server = ReplicationServer.start(settings, registry, () -> System.exit(0));
    } catch (RuntimeException | java.io.IOException e) {
      System.err.println("repserver: cannot start: " + e.getMessage());
      LOG.error("start failed", e);
      return 1;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Thread hook =
        ThreadNames.factory("repserver", "shutdown", settings.name())
            .newThread(
                () -> {
                  System.out.println("repserver " + settings.name() + " shutting down");
                  System.out.flush();
                  try {
                    server.close();
                  } catch (RuntimeException e) {
                    System.out.println("repserver " + settings.name() + " shutdown failed: " + e);
                    e.printStackTrace(System.out);
                  }
                  System.out.println("repserver " + settings.name() + " stopped");
                  System.out.flush();
                  stopped.countDown();
                });
    hook.setDaemon(false);
    Runtime.getRuntime().addShutdownHook(hook);
    // Machine-readable start line for scripts and tests.
    System.out.println(
        "repserver "
            + settings.name()
            + " ready: ltl_port="
            + server.ltlPort()
            + " admin_port="
            + server.adminPort()
            + server.prometheusPort().stream()
                .mapToObj(p -> " prometheus_port=" + p)
                .findFirst()
                .orElse(""));
    System.out.flush();
    stopped.await();
    return 0;
  }

  public static void main(String[] args) {
    // java.util.logging records (the MariaDB binlog client, parts of the JDK) into the same log
    org.slf4j.bridge.SLF4JBridgeHandler.removeHandlersForRootLogger();
    org.slf4j.bridge.SLF4JBridgeHandler.install();
    System.exit(new CommandLine(new Main()).execute(args));
  }
}
