package io.openrs.repagent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.openrs.ltl.Column;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Value;
import io.openrs.repagent.support.AgentHarness;
import io.openrs.repagent.support.TestPostgres;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * {@code rs_standby_servers}: the agent goes round its list of servers, moving to the next one at
 * once when the server in use cannot be reached or goes away, and resumes wherever it lands from
 * that server's truncation point, without loss or duplicates.
 */
class StandbyServersIT {

  /** Shorter than half the retry back-off the tests set: reached only if no back-off applied. */
  private static final Duration WITHOUT_BACKOFF = Duration.ofSeconds(25);

  private static final Duration WAIT = Duration.ofSeconds(90);

  private static final Map<String, String> LONG_BACKOFF =
      Map.of("retry_min_backoff_ms", "60000", "retry_max_backoff_ms", "60000");

  @TempDir Path dir;
  private AgentHarness h;
  private final ListAppender<ILoggingEvent> events = new ListAppender<>();
  private final ch.qos.logback.classic.Logger agentLog =
      (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(RepAgent.class);

  @BeforeEach
  void setUp() throws Exception {
    h = new AgentHarness(dir);
    events.start();
    agentLog.addAppender(events);
  }

  @AfterEach
  void tearDown() throws Exception {
    agentLog.detachAppender(events);
    h.close();
  }

  /** A loopback port nothing listens on (bound once, then released). */
  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private List<String> logged() {
    return events.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
  }

  private List<Integer> replicatedIds() throws Exception {
    List<Integer> ids = new ArrayList<>();
    for (LtlCommand.InTransaction c : h.outboundChanges()) {
      if (c instanceof LtlCommand.Insert i) {
        for (Column col : i.after()) {
          if (col.name().equals("id")) {
            ids.add(((Value.Int32) col.value()).value());
          }
        }
      }
    }
    return ids;
  }

  private void insert(int from, int to) throws Exception {
    for (int i = from; i <= to; i++) {
      TestPostgres.exec("INSERT INTO " + h.schema + ".t VALUES (" + i + ", 'row " + i + "')");
    }
  }

  @Test
  void anUnreachableFirstServerIsPassedOverWithoutWaiting() throws Exception {
    int nobody = freePort();
    h.startServer();
    TestPostgres.exec("CREATE TABLE " + h.schema + ".t (id int PRIMARY KEY, v text)");
    java.util.HashMap<String, String> config = new java.util.HashMap<>(LONG_BACKOFF);
    config.put("rs_port", Integer.toString(nobody));
    config.put("rs_standby_servers", "127.0.0.1:" + h.server.ltlPort());
    RepAgent agent = h.startAgent(config);

    await().atMost(WITHOUT_BACKOFF).until(() -> agent.state() == RepAgent.State.REPLICATING);
    insert(1, 3);
    await().atMost(WITHOUT_BACKOFF).until(() -> replicatedIds().size() == 3);

    assertThat(replicatedIds()).containsExactly(1, 2, 3);
    assertThat(logged())
        .anyMatch(
            m ->
                m.contains("server 127.0.0.1:" + nobody + ": server unreachable")
                    && m.contains("trying server 127.0.0.1:" + h.server.ltlPort() + " now"));
  }

  @Test
  void whenItsServerGoesTheAgentResumesAtTheNextWithoutLossOrDuplicates() throws Exception {
    int first = freePort();
    int second = freePort();
    h.serverOverride("ltl_port", Integer.toString(first));
    h.startServer();
    TestPostgres.exec("CREATE TABLE " + h.schema + ".t (id int PRIMARY KEY, v text)");
    // While no server answers, every round of the list ends in the harness's short back-off.
    java.util.HashMap<String, String> config = new java.util.HashMap<>();
    config.put("rs_port", Integer.toString(first));
    config.put("rs_standby_servers", "127.0.0.1:" + second);
    RepAgent agent = h.startAgent(config);
    await().atMost(WAIT).until(() -> agent.state() == RepAgent.State.REPLICATING);
    insert(1, 50);
    await().atMost(WAIT).until(() -> replicatedIds().size() == 50);

    // The server goes; the same RSSD and queues come back on the second address (as a standby
    // that took over would), while the primary keeps writing.
    h.stopServer();
    insert(51, 100);
    h.serverOverride("ltl_port", Integer.toString(second));
    h.startServer();
    insert(101, 150);

    await().atMost(WAIT).until(() -> replicatedIds().size() >= 150);
    List<Integer> expected = new ArrayList<>();
    for (int i = 1; i <= 150; i++) {
      expected.add(i);
    }
    assertThat(replicatedIds()).containsExactlyElementsOf(expected);
    assertThat(agent.state()).isEqualTo(RepAgent.State.REPLICATING);
    assertThat(logged())
        .anyMatch(m -> m.contains("replicating through server 127.0.0.1:" + second));
  }
}
