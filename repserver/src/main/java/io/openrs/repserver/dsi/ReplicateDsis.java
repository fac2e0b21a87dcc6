package io.openrs.repserver.dsi;

import io.micrometer.core.instrument.MeterRegistry;
import io.openrs.config.param.ParameterValues;
import io.openrs.config.rssd.ConnectionDef;
import io.openrs.config.rssd.ConnectionState;
import io.openrs.config.rssd.Rssd;
import io.openrs.dsi.DsiConnection;
import io.openrs.dsi.DsiSettings;
import io.openrs.dsi.DsiState;
import io.openrs.dsi.ErrorClass;
import io.openrs.dsi.OriginProfiles;
import io.openrs.queue.StableQueue;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The DSIs of the server's replicate connections, one {@link DsiConnection} per connection that is
 * the replicate of a subscription. A DSI starts applying when its connection is active in the RSSD
 * and waits SUSPENDED otherwise; {@code suspend connection} and {@code resume connection [skip
 * transaction]} drive it, and a resume reads the connection's parameters again (values changed by
 * {@code alter connection} take effect then).
 *
 * <p>Lifecycle calls come from admin sessions and are serialized here; {@link #state} and {@link
 * #all} may be called from any thread.
 */
public final class ReplicateDsis implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ReplicateDsis.class);

  private final Rssd rssd;
  private final ParameterValues serverParameters;
  private final MeterRegistry registry;
  private final Function<String, Optional<ErrorClass>> errorClasses;
  private final Map<Integer, DsiConnection> dsis = new ConcurrentHashMap<>();

  /**
   * @param errorClasses the error class of a name ({@code create error class}), empty if unknown
   */
  public ReplicateDsis(
      Rssd rssd,
      ParameterValues serverParameters,
      MeterRegistry registry,
      Function<String, Optional<ErrorClass>> errorClasses) {
    this.rssd = rssd;
    this.serverParameters = serverParameters;
    this.registry = registry;
    this.errorClasses = errorClasses;
  }

  /**
   * Makes sure connection {@code c} has its DSI: started if the connection is active, SUSPENDED
   * otherwise. Does nothing if it has one.
   *
   * @throws IllegalArgumentException if the connection's settings cannot make a DSI (a missing
   *     server, port or user; an unknown error class)
   */
  public synchronized void ensure(ConnectionDef c, StableQueue outbound) {
    if (!dsis.containsKey(c.id())) {
      create(c, outbound, c.state() == ConnectionState.ACTIVE);
    }
  }

  private DsiConnection create(ConnectionDef c, StableQueue outbound, boolean start) {
    DsiSettings settings = settings(c);
    ServerDsiSink sink = new ServerDsiSink(rssd, c.id(), c.name());
    OriginProfiles origins = DsiTargets.originProfiles(rssd);
    DsiConnection dsi =
        start
            ? DsiConnection.start(
                DsiTargets.target(c, rssd.secrets()), outbound, settings, sink, registry, origins)
            : DsiConnection.createSuspended(
                DsiTargets.target(c, rssd.secrets()), outbound, settings, sink, registry, origins);
    dsis.put(c.id(), dsi);
    LOG.info(
        "DSI {} (connection {}) {}: {} thread(s)",
        c.name(),
        c.id(),
        start ? "started" : "created suspended",
        settings.numThreads());
    return dsi;
  }

  /** The settings of {@code c} as they are in the RSSD now. */
  DsiSettings settings(ConnectionDef c) {
    ParameterValues values = DsiTargets.parameters(c, serverParameters);
    DsiSettings s = TableParameters.apply(DsiSettings.from(values), c.properties());
    String className = values.getString("error_class");
    if (!className.isEmpty()) {
      ErrorClass ec =
          errorClasses
              .apply(className)
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "connection "
                              + c.name()
                              + " names error class '"
                              + className
                              + "', which does not exist (create error class)"));
      s = s.withErrorClass(ec);
    }
    return s;
  }

  /** {@code suspend connection}: returns once the transaction in hand has ended. */
  public synchronized void suspend(int connectionId) {
    DsiConnection d = dsis.get(connectionId);
    if (d != null) {
      d.suspend();
    }
  }

  /**
   * {@code resume connection}: applies again with the connection's current parameters; with {@code
   * skipTransaction} the first transaction not yet applied goes to the exceptions log instead.
   *
   * @throws IllegalStateException for a skip while the DSI is running
   */
  public synchronized void resume(ConnectionDef c, StableQueue outbound, boolean skipTransaction) {
    DsiConnection d = dsis.get(c.id());
    if (d == null) {
      d = create(c, outbound, false);
    }
    if (skipTransaction) {
      if (d.state().status() == DsiState.Status.RUNNING) {
        throw new IllegalStateException(
            "connection "
                + c.name()
                + " is applying; skip transaction is for a connection that is down or suspended"
                + " (suspend connection to "
                + c.name()
                + " first)");
      }
      d.resumeSkippingTransaction();
    } else {
      d.resume(settings(c));
    }
  }

  /** The DSI state of connection {@code connectionId}, if it has a DSI. */
  public Optional<DsiState> state(int connectionId) {
    return Optional.ofNullable(dsis.get(connectionId)).map(DsiConnection::state);
  }

  /** Every DSI by connection id, in id order. */
  public Map<Integer, DsiConnection> all() {
    return new TreeMap<>(dsis);
  }

  /** Stops and forgets the DSI of a dropped connection. */
  public synchronized void drop(int connectionId) {
    DsiConnection d = dsis.remove(connectionId);
    if (d != null) {
      d.close();
    }
  }

  /** Stops every DSI after its transaction in hand. */
  @Override
  public synchronized void close() {
    for (DsiConnection d : dsis.values()) {
      try {
        d.close();
      } catch (RuntimeException e) {
        LOG.warn("closing DSI {} failed", d.target().name(), e);
      }
    }
    dsis.clear();
  }
}
