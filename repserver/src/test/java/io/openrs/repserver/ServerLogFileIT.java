package io.openrs.repserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.openrs.repserver.support.ServerProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server as shipped logs to stdout and to its rolling file in the same format (its own
 * logback.xml, not the tests'), in the directory {@code openrs.log.dir} names.
 */
class ServerLogFileIT {

  @TempDir Path dir;

  @Test
  void theServerLogsToItsRollingFileAsToStdout() throws Exception {
    Path config =
        ServerProcess.writeConfig(
            dir,
            List.of(
                "rs_name = LOG_RS",
                "data_directory = .",
                "listen_address = 127.0.0.1",
                "ltl_port = " + ServerProcess.freePort(),
                "prometheus_port = 0",
                "admin_port = 0",
                "sqm_segment_size = 4194304",
                "partition.p1 = p1 64m"));
    Path logs = dir.resolve("logs");
    Path shipped = Path.of("target", "classes", "logback.xml").toAbsolutePath();
    try (ServerProcess server =
        ServerProcess.launch(
            config,
            List.of("-Dlogback.configurationFile=" + shipped, "-Dopenrs.log.dir=" + logs))) {
      server.awaitReady(Duration.ofSeconds(60));
      Path file = logs.resolve("repserver.log");
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  Files.exists(file)
                      && Files.readString(file, StandardCharsets.UTF_8)
                          .contains("created administrator sa in the RSSD"));
      String line =
          Files.readAllLines(file, StandardCharsets.UTF_8).stream()
              .filter(l -> l.contains("created administrator sa in the RSSD"))
              .findFirst()
              .orElseThrow();
      assertThat(line)
          .matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3} INFO  \\[.+\\] .+");
      assertThat(server.printed(line)).as("the same line on stdout").isTrue();
    }
  }
}
