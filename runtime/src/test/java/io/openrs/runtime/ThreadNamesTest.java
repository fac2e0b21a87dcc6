package io.openrs.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.ThreadFactory;
import org.junit.jupiter.api.Test;

class ThreadNamesTest {

  @Test
  void namesFollowRsModuleComponentId() {
    assertThat(ThreadNames.of("pgwire", "accept")).isEqualTo("rs-pgwire-accept");
    assertThat(ThreadNames.of("sqm", "writer", "101:1")).isEqualTo("rs-sqm-writer-101:1");
    assertThat(ThreadNames.of("dsi", "exec", "rds.rdb-2")).isEqualTo("rs-dsi-exec-rds.rdb-2");
    assertThat(ThreadNames.follows("rs-dsi-exec-rds.rdb-2")).isTrue();
    assertThat(ThreadNames.follows("NRM pds.pdb")).isFalse();
    assertThat(ThreadNames.follows("SQT/DIST pds.pdb")).isFalse();
  }

  @Test
  void badPartsAreRefusedNamingThePart() {
    assertThatThrownBy(() -> ThreadNames.of("Dsi", "s"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("module")
        .hasMessageContaining("\"Dsi\"");
    assertThatThrownBy(() -> ThreadNames.of("dsi", "exec-1"))
        .hasMessageContaining("component")
        .hasMessageContaining("\"exec-1\"");
    assertThatThrownBy(() -> ThreadNames.of("dsi", "s", "")).hasMessageContaining("thread id");
  }

  @Test
  void factoriesMakeNamedDaemonThreadsThatReportUncaughtFailures() {
    ThreadFactory single = ThreadNames.factory("repagent", "engine", "pg1");
    Thread a = single.newThread(() -> {});
    assertThat(a.getName()).isEqualTo("rs-repagent-engine-pg1");
    assertThat(a.isDaemon()).isTrue();
    assertThat(a.getUncaughtExceptionHandler()).isSameAs(ThreadNames.REPORT_UNCAUGHT);

    ThreadFactory pool = ThreadNames.numberedFactory("pgwire", "worker");
    assertThat(pool.newThread(() -> {}).getName()).isEqualTo("rs-pgwire-worker-1");
    assertThat(pool.newThread(() -> {}).getName()).isEqualTo("rs-pgwire-worker-2");
  }
}
