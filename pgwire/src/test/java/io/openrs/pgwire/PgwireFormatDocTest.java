package io.openrs.pgwire;

import static org.assertj.core.api.Assertions.assertThat;

import io.openrs.pgwire.RawPgClient.Message;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The worked examples in docs/formats/pgwire.md are what a live server answers to those bytes, so
 * the page cannot drift from the code.
 */
class PgwireFormatDocTest {
  private static final Path DOC = Path.of("..", "docs", "formats", "pgwire.md");
  private static final Pattern BLOCK =
      Pattern.compile(
          "<!-- example: (\\S+) (frontend|backend) -->\\s*```\\n(.*?)```", Pattern.DOTALL);

  private PgServer server;

  @BeforeEach
  void start() throws IOException {
    server = PgServer.start(PgServerSettings.defaults("127.0.0.1", 0), new TestBackend());
  }

  @AfterEach
  void stop() {
    server.close();
  }

  /** Example name and side to its bytes. */
  static Map<String, byte[]> examples() throws IOException {
    Map<String, byte[]> examples = new LinkedHashMap<>();
    Matcher m = BLOCK.matcher(Files.readString(DOC));
    while (m.find()) {
      examples.put(m.group(1) + " " + m.group(2), bytes(m.group(3)));
    }
    return examples;
  }

  /** A line is quoted UTF-8 text (then a comment), or hex digits then a comment. */
  static byte[] bytes(String block) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (String line : block.split("\n")) {
      String trimmed = line.strip();
      if (trimmed.isEmpty()) {
        continue;
      }
      if (trimmed.startsWith("\"")) {
        int end = trimmed.lastIndexOf('"');
        out.writeBytes(trimmed.substring(1, end).getBytes(StandardCharsets.UTF_8));
      } else {
        out.writeBytes(HexFormat.of().parseHex(trimmed.split("\\s+", 2)[0]));
      }
    }
    return out.toByteArray();
  }

  private static byte[] wire(List<Message> messages) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (Message m : messages) {
      out.write(m.type());
      out.writeBytes(ByteBuffer.allocate(4).putInt(m.body().length + 4).array());
      out.writeBytes(m.body());
    }
    return out.toByteArray();
  }

  @Test
  void everyExampleHasBothSides() throws IOException {
    Map<String, byte[]> examples = examples();
    assertThat(examples.keySet())
        .containsExactly(
            "ssl-request frontend",
            "ssl-request backend",
            "simple-query frontend",
            "simple-query backend",
            "error frontend",
            "error backend",
            "extended-query frontend",
            "extended-query backend");
  }

  @Test
  void theSslRequestExample() throws IOException {
    Map<String, byte[]> examples = examples();
    try (RawPgClient c = new RawPgClient(server.port())) {
      byte[] request = examples.get("ssl-request frontend");
      assertThat(ByteBuffer.wrap(request, 4, 4).getInt())
          .isEqualTo(PgFrameDecoder.SSL_REQUEST_CODE);
      assertThat(c.encryptionRequest(PgFrameDecoder.SSL_REQUEST_CODE))
          .isEqualTo((char) examples.get("ssl-request backend")[0]);
    }
  }

  @Test
  void theSessionExamples() throws Exception {
    Map<String, byte[]> examples = examples();
    for (String name : List.of("simple-query", "error", "extended-query")) {
      try (RawPgClient c = new RawPgClient(server.port())) {
        c.login(TestBackend.ADMIN, TestBackend.ADMIN_PASSWORD);
        c.raw(examples.get(name + " frontend"));
        assertThat(HexFormat.of().formatHex(wire(c.readUntilReady())))
            .as(name)
            .isEqualTo(HexFormat.of().formatHex(examples.get(name + " backend")));
      }
    }
  }
}
