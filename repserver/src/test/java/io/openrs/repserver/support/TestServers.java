package io.openrs.repserver.support;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openrs.config.param.ParameterValues;
import io.openrs.config.param.Scope;
import io.openrs.config.rssd.RssdSettings;
import io.openrs.queue.file.PartitionSpec;
import io.openrs.repserver.ReplicationServer;
import io.openrs.repserver.ServerSettings;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Starts real servers for tests: files in a temporary directory, embedded RSSD, port 0. */
public final class TestServers {

  public static final String ADMIN_PASSWORD = "test-admin-secret";

  private TestServers() {}

  /** Settings for a server in {@code dir} with {@code overrides} over the test defaults. */
  public static ServerSettings settings(Path dir, Map<String, String> overrides) {
    return settings(dir, overrides, 512L * 1024 * 1024);
  }

  /** {@link #settings(Path, Map)} with a partition {@code p1} of {@code partitionBytes}. */
  public static ServerSettings settings(
      Path dir, Map<String, String> overrides, long partitionBytes) {
    Map<String, String> p = new HashMap<>();
    p.put("ltl_port", "0");
    p.put("admin_port", "0");
    p.put("listen_address", "127.0.0.1");
    p.put("sqm_segment_size", String.valueOf(4 * 1024 * 1024));
    p.put("sqm_write_flush", "off");
    p.putAll(overrides);
    return new ServerSettings(
        "TEST_RS",
        dir,
        ParameterValues.of(Scope.SERVER, p),
        List.of(new PartitionSpec("p1", dir.resolve("p1"), partitionBytes)),
        RssdSettings.embedded(dir),
        Optional.of(ADMIN_PASSWORD.toCharArray()));
  }

  public static ReplicationServer start(Path dir, Map<String, String> overrides) throws Exception {
    return start(dir, overrides, new SimpleMeterRegistry());
  }

  public static ReplicationServer start(
      Path dir, Map<String, String> overrides, MeterRegistry registry) throws Exception {
    return ReplicationServer.start(settings(dir, overrides), registry);
  }
}
