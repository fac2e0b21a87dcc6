package io.openrs.repagent;

import java.lang.management.ManagementFactory;
import java.util.Set;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Whether the Debezium log reader of one agent is streaming: its streaming metrics MBean ({@code
 * debezium.<connector>:type=connector-metrics,context=streaming,server=<topic prefix>}, Debezium's
 * documented monitoring interface) says {@code Connected}.
 *
 * <p>Debezium sets that only once the position every later commit is read from is fixed:
 * PostgreSQL's coordinator sets it when streaming starts, after the task's start created the
 * replication slot when it was missing (the slot keeps every later commit, also those made before
 * the replication stream is opened); MariaDB/MySQL's binlog client is connected at the position of
 * the resume offset or of the (schema) snapshot. So a commit made after {@link #isStreaming} first
 * answered true is read. Before, the agent said "started" before the slot existed, and rows written
 * right after that line were never captured.
 */
final class LogReaderStreaming {

  private LogReaderStreaming() {}

  /** True when the streaming MBean of {@code topicPrefix}'s connector exists and is connected. */
  static boolean isStreaming(String topicPrefix) {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    try {
      Set<ObjectName> names =
          server.queryNames(
              new ObjectName(
                  "debezium.*:type=connector-metrics,context=streaming,server="
                      + topicPrefix
                      + ",*"),
              null);
      for (ObjectName n : names) {
        if (Boolean.TRUE.equals(server.getAttribute(n, "Connected"))) {
          return true;
        }
      }
      return false;
    } catch (JMException e) {
      return false; // unregistered between query and read: not streaming (any more)
    }
  }
}
