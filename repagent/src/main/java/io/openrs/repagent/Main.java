package io.openrs.repagent;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openrs.runtime.ThreadNames;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code bin/repagent}: runs one replication agent from its configuration file. */
@Command(
    name = "repagent",
    mixinStandardHelpOptions = true,
    description = "Runs an openrs replication agent until stopped (SIGTERM/Ctrl-C).")
public final class Main implements Callable<Integer> {

  @Option(
      names = {"-C", "--config"},
      required = true,
      description = "the configuration file (name = value lines; see docs/repagent.md)")
  Path config;

  @Override
  public Integer call() throws Exception {
    AgentSettings settings;
    try {
      settings = AgentConfigFile.read(config);
    } catch (AgentException e) {
      System.err.println("repagent: " + e.getMessage());
      return 2;
    }
    RepAgent agent = new RepAgent(settings, new SimpleMeterRegistry());
    Runtime.getRuntime()
        .addShutdownHook(
            ThreadNames.factory("repagent", "shutdown", settings.agentName())
                .newThread(
                    () -> {
                      System.out.println("repagent " + settings.agentName() + " shutting down");
                      System.out.flush();
                      agent.close();
                      System.out.println("repagent " + settings.agentName() + " stopped");
                      System.out.flush();
                    }));
    agent.start();
    // The banner only once the log reader covers every later commit (slot created, binlog
    // position fixed): a row committed after it is captured. A failure first prints none.
    CompletableFuture.anyOf(agent.streaming(), agent.terminated()).join();
    if (agent.streaming().isDone()) {
      System.out.println(
          "repagent " + settings.agentName() + " started: origin " + settings.origin());
      System.out.flush();
    }
    agent.terminated().join();
    if (agent.state() == RepAgent.State.FAILED) {
      System.err.println(
          "repagent "
              + settings.agentName()
              + " failed: "
              + agent.failure().map(Throwable::getMessage).orElse("unknown"));
      return 1;
    }
    return 0;
  }

  public static void main(String[] args) {
    // java.util.logging records (the MariaDB binlog client, parts of the JDK) into the same log
    org.slf4j.bridge.SLF4JBridgeHandler.removeHandlersForRootLogger();
    org.slf4j.bridge.SLF4JBridgeHandler.install();
    System.exit(new CommandLine(new Main()).execute(args));
  }
}
