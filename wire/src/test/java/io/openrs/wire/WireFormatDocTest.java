package io.openrs.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The worked examples in docs/formats/ltl-wire.md are what the encoder writes, and the layout drawn
 * there is the one drawn in {@link FrameCodec}.
 */
class WireFormatDocTest {
  private static final Path DOC = Path.of("..", "docs", "formats", "ltl-wire.md");

  static Map<String, Frame> examples() {
    Map<String, Frame> m = new LinkedHashMap<>();
    m.put(
        "Hello",
        Frame.Hello.of(
            new LtlCommand.Connect("pg1", "sales", 1, 1, "ra", "pw", Optional.of("a1"))));
    m.put(
        "Welcome",
        new Frame.Welcome(
            1,
            Optional.of(Oqid.parse("0x00000000016b3a400000002a")),
            Samples.utf8("{\"lsn\":\"0/16B3A40\"}")));
    m.put(
        "Batch",
        new Frame.Batch(
            1,
            Samples.utf8(
                "commit tran 0x02f1 oqid 0x016b3a482d time 2026-11-21T10:15:30.125001Z\n")));
    m.put("BatchAccepted", new Frame.BatchAccepted(1, 1));
    m.put(
        "BatchRejected",
        new Frame.BatchRejected(
            2, 1, 2, 38, Optional.of(Oqid.parse("0x016b3a482e")), "expected 'oqid', found 'oqdi'"));
    m.put("GetTruncation", new Frame.GetTruncation(5));
    m.put("Truncation", new Frame.Truncation(5, Optional.empty()));
    m.put(
        "StoreResume",
        new Frame.StoreResume(Oqid.parse("0x016b3a482d"), Samples.utf8("{\"lsn\":\"0/16B3A48\"}")));
    m.put("Error", new Frame.Error(ErrorCode.ORIGIN_BUSY, "held by a2"));
    m.put(
        "Welcome v3",
        new Frame.Welcome(
            3, Optional.empty(), new byte[0], Optional.of(new Frame.Liveness(5_000, 15_000))));
    m.put("Heartbeat", new Frame.Heartbeat());
    // Version 4 login; the SCRAM messages are RFC 7677's example (user "user", password "pencil").
    m.put(
        "Hello v4",
        Frame.Hello.of(
            new LtlCommand.Connect(
                "pg1",
                "sales",
                4,
                4,
                "ra",
                Optional.empty(),
                Optional.of("a1"),
                List.of("lz4", "zstd"))));
    m.put(
        "Welcome v4",
        new Frame.Welcome(
            4,
            Optional.empty(),
            new byte[0],
            Optional.of(new Frame.Liveness(5_000, 15_000)),
            LtlCompression.LZ4));
    m.put(
        "ScramClientFirst",
        new Frame.ScramClientFirst(
            "SCRAM-SHA-256", Samples.utf8("n,,n=user,r=rOprNGfwEbeRWgbNEkqO")));
    m.put(
        "ScramServerFirst",
        new Frame.ScramServerFirst(
            Samples.utf8(
                "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096")));
    m.put(
        "ScramClientFinal",
        new Frame.ScramClientFinal(
            Samples.utf8(
                "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
                    + "p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=")));
    m.put(
        "ScramServerFinal",
        new Frame.ScramServerFinal(Samples.utf8("v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=")));
    m.put(
        "AgentStatus",
        new Frame.AgentStatus(
            List.of(
                new Frame.StatusItem(
                    Frame.StatusKind.TABLE_NOT_REPLICATED, "sales.t", "timetz column c"))));
    return m;
  }

  @Test
  void everyWorkedExampleIsWhatTheEncoderWrites() throws Exception {
    String doc = Files.readString(DOC);
    Map<String, Frame> examples = examples();
    assertThat(examples.values().stream().map(Frame::type).distinct()).hasSize(15);
    for (Map.Entry<String, Frame> e : examples.entrySet()) {
      String marker = "<!-- frame: " + e.getKey() + " -->";
      assertThat(doc).contains(marker);
      int open = doc.indexOf("```\n", doc.indexOf(marker)) + 4;
      String block = doc.substring(open, doc.indexOf("```", open));
      assertThat(HexFormat.of().formatHex(bytesOf(block)))
          .as("example %s", e.getKey())
          .isEqualTo(HexFormat.of().formatHex(Samples.encode(e.getValue())));
    }
  }

  /** A line is quoted UTF-8 text, or hex digits up to two spaces followed by a description. */
  private static byte[] bytesOf(String block) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    block
        .lines()
        .forEach(
            line -> {
              if (line.startsWith("\"")) {
                out.writeBytes(Samples.utf8(line.substring(1, line.lastIndexOf('"'))));
              } else {
                int end = line.indexOf("  ");
                out.writeBytes(HexFormat.of().parseHex(end < 0 ? line : line.substring(0, end)));
              }
            });
    return out.toByteArray();
  }

  @Test
  void theDocDrawsTheLayoutOfTheCodecClassComment() throws Exception {
    String doc = Files.readString(DOC);
    String source =
        Files.readString(Path.of("src", "main", "java", "io", "openrs", "wire", "FrameCodec.java"));
    String drawing =
        source
            .substring(source.indexOf("<pre>") + 6, source.indexOf("</pre>"))
            .lines()
            .map(l -> l.replaceFirst("^ \\* ?", ""))
            .map(l -> l.replace("&lt;", "<").replace("&gt;", ">"))
            .reduce((a, b) -> a + "\n" + b)
            .orElseThrow()
            .strip();
    assertThat(doc).contains(drawing);
  }
}
