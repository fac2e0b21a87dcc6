package io.openrs.repserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openrs.config.param.ParameterCatalog;
import io.openrs.config.param.ParameterValues;
import io.openrs.config.param.Scope;
import io.openrs.config.rssd.RssdSettings;
import io.openrs.queue.file.PartitionSpec;
import io.openrs.repserver.support.TestServers;
import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A server started with the defaults listens on the loopback only. */
class ListenAddressIT {
  @TempDir Path dir;

  @Test
  void theDefaultListenAddressIsTheLoopback() {
    assertThat(ParameterCatalog.standard().require("listen_address").defaultLabel())
        .isEqualTo("127.0.0.1");
    assertThat(ParameterValues.of(Scope.SERVER, Map.of()).getString("listen_address"))
        .isEqualTo("127.0.0.1");
  }

  @Test
  void aServerWithTheDefaultsCannotBeReachedOnTheHostsOtherAddresses() throws Exception {
    Optional<InetAddress> other = nonLoopbackAddress();
    assumeTrue(other.isPresent(), "the host has no non-loopback IPv4 address");
    ServerSettings settings =
        new ServerSettings(
            "TEST_RS",
            dir,
            ParameterValues.of(
                Scope.SERVER,
                Map.of(
                    "ltl_port", "0",
                    "admin_port", "0",
                    "sqm_segment_size", String.valueOf(4 * 1024 * 1024),
                    "sqm_write_flush", "off")),
            List.of(new PartitionSpec("p1", dir.resolve("p1"), 512L * 1024 * 1024)),
            RssdSettings.embedded(dir),
            Optional.of(TestServers.ADMIN_PASSWORD.toCharArray()));
    try (ReplicationServer server = ReplicationServer.start(settings, new SimpleMeterRegistry())) {
      for (int port : new int[] {server.ltlPort(), server.adminPort()}) {
        try (Socket s = new Socket()) {
          s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5_000);
        }
        assertThatThrownBy(
                () -> {
                  try (Socket s = new Socket()) {
                    s.connect(new InetSocketAddress(other.get(), port), 5_000);
                  }
                })
            .as("port %d on %s", port, other.get())
            .isInstanceOf(ConnectException.class);
      }
    }
  }

  private static Optional<InetAddress> nonLoopbackAddress() throws Exception {
    for (NetworkInterface nif : Collections.list(NetworkInterface.getNetworkInterfaces())) {
      if (!nif.isUp() || nif.isLoopback()) {
        continue;
      }
      for (InetAddress a : Collections.list(nif.getInetAddresses())) {
        if (a instanceof Inet4Address && !a.isLoopbackAddress()) {
          return Optional.of(a);
        }
      }
    }
    return Optional.empty();
  }
}
