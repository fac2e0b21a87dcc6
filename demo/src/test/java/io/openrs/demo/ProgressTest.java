package io.openrs.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ProgressTest {

  @Test
  void totalsAreSummedByModuleAndCounterOverInstancesAndThreads() {
    Map<String, Double> totals =
        Progress.totals(
            List.of(
                Map.of("module", "DSIEXEC", "counter", "InsertsRead", "total", "10"),
                Map.of("module", "DSIEXEC", "counter", "InsertsRead", "total", "5"),
                Map.of("module", "REPAGENT", "counter", "CmdsRecv", "total", "7")));
    assertThat(totals)
        .containsEntry("DSIEXEC.InsertsRead", 15.0)
        .containsEntry("REPAGENT.CmdsRecv", 7.0);
  }

  @Test
  void aLineShowsRatesBetweenTwoSamplesBacklogAndTheLastTicket() {
    Progress p = new Progress("101:1", "102:0");
    Progress.Sample a =
        new Progress.Sample(
            0,
            100,
            Map.of(Progress.RA_IN, 1000.0, Progress.DIST_READ, 500.0, Progress.DSI_OUT, 400.0),
            Map.of(),
            Optional.empty());
    Progress.Sample b =
        new Progress.Sample(
            2_000_000_000L,
            700,
            Map.of(Progress.RA_IN, 5000.0, Progress.DIST_READ, 2500.0, Progress.DSI_OUT, 2400.0),
            Map.of("101:1", 0L, "102:0", 131072L),
            Optional.of(new Progress.Ticket("demo;t3;B=12;DSI=x", 41.6)));
    String line = p.line("workload", Duration.ofSeconds(12), a, b);
    assertThat(line)
        .contains("12s")
        .contains("workload")
        .contains(" 300 ")
        .contains(" 2,000 ")
        .contains(" 1,000 ")
        .contains("0 B / 128.0 KiB")
        .contains("42 ms (t3)");
    assertThat(p.header()).contains("backlog 101:1 / 102:0").contains("last rs_ticket");
  }

  @Test
  void bytesAreShownInBinaryUnits() {
    assertThat(Progress.bytes(0)).isEqualTo("0 B");
    assertThat(Progress.bytes(1023)).isEqualTo("1023 B");
    assertThat(Progress.bytes(1536)).isEqualTo("1.5 KiB");
    assertThat(Progress.bytes(3L * 1024 * 1024)).isEqualTo("3.0 MiB");
    assertThat(Progress.bytes(5L * 1024 * 1024 * 1024)).isEqualTo("5.00 GiB");
  }

  @Test
  void aTicketsNameIsItsSecondHeader() {
    assertThat(new Progress.Ticket("demo;end;B=790;DSI=t", 1).name()).isEqualTo("end");
  }
}
