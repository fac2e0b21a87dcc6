package io.openrs.repserver.support;

import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.wire.LtlClient;
import io.openrs.wire.WireProtocol;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** What a test playing a replication agent against a real server needs to resume as one does. */
public final class AgentReplay {

  private AgentReplay() {}

  /** Connects to the LTL port as origin {@code pds.pdb}, user {@code sa}. */
  public static LtlClient connect(int port, String agentName) throws Exception {
    return LtlClient.connect(
        "127.0.0.1",
        port,
        new LtlCommand.Connect(
            "pds",
            "pdb",
            WireProtocol.MIN_VERSION,
            WireProtocol.MAX_VERSION,
            "sa",
            TestServers.ADMIN_PASSWORD,
            Optional.of(agentName)),
        Duration.ofSeconds(30));
  }

  /**
   * Where an agent resumes: the first command of the transaction that holds the first command after
   * the truncation point (an agent replays whole transactions from its log; the server drops the
   * prefix it already has).
   */
  public static int resumeIndex(List<LtlCommand> stream, Optional<Oqid> point) {
    if (point.isEmpty()) {
      return 0;
    }
    int lastBegin = 0;
    for (int i = 0; i < stream.size(); i++) {
      LtlCommand.InTransaction c = (LtlCommand.InTransaction) stream.get(i);
      if (c instanceof LtlCommand.Begin) {
        lastBegin = i;
      }
      if (c.oqid().compareTo(point.get()) > 0) {
        return lastBegin;
      }
    }
    return stream.size();
  }

  /** The later of two OQIDs, either of which may be absent. */
  public static Optional<Oqid> max(Optional<Oqid> a, Optional<Oqid> b) {
    if (a.isEmpty()) {
      return b;
    }
    if (b.isEmpty()) {
      return a;
    }
    return a.get().compareTo(b.get()) >= 0 ? a : b;
  }
}
