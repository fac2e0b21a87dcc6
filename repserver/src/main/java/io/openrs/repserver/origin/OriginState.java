package io.openrs.repserver.origin;

import io.openrs.ltl.Oqid;
import io.openrs.repserver.nrm.InboundWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What the server knows about one origin (a primary connection with log transfer): the locator made
 * durable in its inbound queue (the secondary truncation point told to its agent), whether log
 * transfer is running, and why it stopped.
 *
 * <p>The durable locator is written only by the inbound queue's writer thread (append futures
 * complete in order) and read by any thread.
 */
public final class OriginState implements InboundWriter.Origin {

  /** Log transfer from the origin: running, or stopped with the reason. */
  public record LogTransfer(boolean running, Optional<String> stoppedBecause) {
    static final LogTransfer RUNNING = new LogTransfer(true, Optional.empty());
  }

  private final int connectionId;
  private final String name;
  private volatile Oqid durableOqid;
  private final AtomicReference<LogTransfer> logTransfer =
      new AtomicReference<>(LogTransfer.RUNNING);

  private final AtomicReference<AgentReport> agentReport = new AtomicReference<>();

  /** The stop an agent was last refused for (whose first refusal was logged). */
  private final AtomicReference<LogTransfer> refusedFor = new AtomicReference<>();

  /**
   * @param connectionId the origin connection's id
   * @param name {@code dataserver.database}
   * @param durableOqid the last locator known durable at start
   */
  public OriginState(int connectionId, String name, Optional<Oqid> durableOqid) {
    this.connectionId = connectionId;
    this.name = name;
    this.durableOqid = durableOqid.orElse(null);
  }

  public int connectionId() {
    return connectionId;
  }

  @Override
  public String name() {
    return name;
  }

  /** The last locator durable in the inbound queue: the secondary truncation point. */
  @Override
  public Optional<Oqid> durableOqid() {
    return Optional.ofNullable(durableOqid);
  }

  /** The writer made everything up to {@code oqid} durable; never moves backwards. */
  @Override
  public void durable(Oqid oqid) {
    Oqid current = durableOqid;
    if (current == null || oqid.compareTo(current) > 0) {
      durableOqid = oqid;
    }
  }

  public LogTransfer logTransfer() {
    return logTransfer.get();
  }

  @Override
  public boolean logTransferRunning() {
    return logTransfer.get().running();
  }

  /** Stops log transfer; the first reason stays. @return whether this call stopped it */
  @Override
  public boolean stopLogTransfer(String reason) {
    return logTransfer.compareAndSet(
        LogTransfer.RUNNING, new LogTransfer(false, Optional.of(reason)));
  }

  /**
   * An agent is refused because log transfer is stopped ({@code stopped}, as read for the refusal).
   *
   * @return whether this is the first refusal of that stop: the server logs it once, an agent that
   *     keeps reconnecting until log transfer is resumed adds nothing
   */
  public boolean firstRefusalFor(LogTransfer stopped) {
    return refusedFor.getAndSet(stopped) != stopped;
  }

  /** Lets log transfer run again ({@code resume log transfer}). */
  public void resumeLogTransfer() {
    logTransfer.set(LogTransfer.RUNNING);
  }

  /** What the origin's agent last reported it does not capture; empty before its first report. */
  public Optional<AgentReport> agentReport() {
    return Optional.ofNullable(agentReport.get());
  }

  /**
   * Keeps the agent's latest report in place of the last one.
   *
   * @return the items of {@code report} that the last report did not hold (all of them for the
   *     first), for the server to log once
   */
  public List<AgentReport.Item> agentReported(AgentReport report) {
    AgentReport last = agentReport.getAndSet(report);
    List<AgentReport.Item> added = new ArrayList<>(report.items());
    if (last != null) {
      added.removeAll(new java.util.HashSet<>(last.items())); // up to 10,000 items each
    }
    return added;
  }

  @Override
  public String toString() {
    return name + " (" + connectionId + ")";
  }
}
