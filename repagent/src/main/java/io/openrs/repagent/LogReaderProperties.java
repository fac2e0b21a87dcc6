package io.openrs.repagent;

import java.util.Map;
import java.util.Properties;

/**
 * The properties of Debezium's embedded engine with which the agent reads a primary's log: the
 * connector's (per source, {@link SourceDialect#connectorProperties}), the record shape the agent's
 * mapping relies on (transaction metadata, precise decimals, microsecond times, binary as bytes),
 * {@code scan_sleep_max_ms}, heartbeats, and the {@code debezium.*} parameters last. Offsets and
 * schema history are not here: the agent keeps them at the server ({@link AgentSession}), a
 * benchmark of Debezium alone in memory. Benchmarks build Debezium alone from this, so their
 * baseline reads the log exactly as the agent does.
 */
public final class LogReaderProperties {
  private LogReaderProperties() {}

  /** The log reader's properties for {@code settings}, {@code debezium.*} parameters applied. */
  public static Properties of(AgentSettings settings) {
    Properties p = withoutOverrides(settings, SourceDialect.of(settings));
    applyOverrides(p, settings);
    return p;
  }

  /** Everything but the {@code debezium.*} parameters (the agent adds its storage in between). */
  static Properties withoutOverrides(AgentSettings settings, SourceDialect dialect) {
    Properties p = dialect.connectorProperties();
    p.setProperty("name", settings.agentName());
    p.setProperty("topic.prefix", AgentSession.topicPrefix(settings));
    p.setProperty("provide.transaction.metadata", "true");
    p.setProperty("tombstones.on.delete", "false");
    p.setProperty("decimal.handling.mode", "precise");
    p.setProperty("time.precision.mode", "adaptive_time_microseconds");
    p.setProperty("binary.handling.mode", "bytes");
    p.setProperty("poll.interval.ms", Long.toString(settings.scanSleepMax().toMillis()));
    if (!settings.heartbeatInterval().isZero()) {
      p.setProperty(
          "heartbeat.interval.ms", Long.toString(settings.heartbeatInterval().toMillis()));
    }
    return p;
  }

  /** The {@code debezium.*} parameters, over whatever {@code p} holds. */
  static void applyOverrides(Properties p, AgentSettings settings) {
    for (Map.Entry<String, String> e : settings.debezium().entrySet()) {
      p.setProperty(e.getKey(), e.getValue());
    }
  }
}
