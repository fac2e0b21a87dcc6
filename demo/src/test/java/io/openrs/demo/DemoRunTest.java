package io.openrs.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DemoRunTest {

  @Test
  void aDownDsiOrDistributorStopsTheWaitButAnAgentReconnectingDoesNot() {
    assertThat(DemoRun.stopped(List.of())).isFalse();
    assertThat(DemoRun.stopped(List.of(Map.of("name", "REP AGENT", "state", "Down")))).isFalse();
    assertThat(DemoRun.stopped(List.of(Map.of("name", "DSI", "state", "Suspended")))).isFalse();
    assertThat(DemoRun.stopped(List.of(Map.of("name", "DSI", "state", "Down")))).isTrue();
    assertThat(DemoRun.stopped(List.of(Map.of("name", "DIST", "state", "Down")))).isTrue();
  }
}
