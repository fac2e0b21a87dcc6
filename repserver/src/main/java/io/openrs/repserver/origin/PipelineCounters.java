package io.openrs.repserver.origin;

import io.openrs.repserver.dist.DistStats;
import io.openrs.repserver.nrm.NrmStats;
import io.openrs.repserver.sqt.SqtStats;

/**
 * The counters one origin's pipeline keeps, handed to whoever publishes them (the server registers
 * them as meters in package {@code monitor}); the pipeline itself knows no meter library.
 *
 * @param instance the origin, {@code dataserver.database}
 * @param agentConnected whether an agent is connected for the origin now
 * @param tablesNotReplicated tables the origin's agent last reported it leaves out
 */
public record PipelineCounters(
    String instance,
    ExecStats exec,
    NrmStats nrm,
    SqtStats sqt,
    DistStats dist,
    LocatorKeeper locator,
    java.util.function.BooleanSupplier agentConnected,
    java.util.function.LongSupplier tablesNotReplicated) {

  /** Where an origin's counters are published while the origin runs. */
  public interface Published extends AutoCloseable {
    /** DIST gave a replicate its first transaction (called on the DIST thread). */
    void replicateAdded(int replicateId);

    /** The origin stopped: its counters are withdrawn. */
    @Override
    void close();
  }
}
