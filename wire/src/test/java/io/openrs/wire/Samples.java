package io.openrs.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/** Frames of every type, with the edge values of each field, for codec tests. */
final class Samples {
  private Samples() {}

  static final String PASSWORD = "s3cr3t-Pa55word";

  static final LtlCommand.Connect CONNECT =
      new LtlCommand.Connect(
          "pg1", "sales", 1, 1, "ra_sales", PASSWORD, Optional.of("repagent-pg1"));

  static final Oqid OQID = Oqid.parse("0x00000000016b3a400000002a");

  static final Oqid LONGEST_OQID = Oqid.of(new byte[Oqid.MAX_BYTES]);

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static List<Frame> all() {
    return List.of(
        Frame.Hello.of(CONNECT),
        new Frame.Hello(new byte[0]),
        new Frame.Welcome(1, Optional.of(OQID), utf8("{\"lsn\":\"0/16B3A40\"}")),
        new Frame.Welcome(1, Optional.empty(), new byte[0]),
        new Frame.Welcome(
            Integer.MAX_VALUE,
            Optional.of(LONGEST_OQID),
            new byte[] {0, -1},
            Optional.of(new Frame.Liveness(Integer.MAX_VALUE - 1, Integer.MAX_VALUE))),
        new Frame.Welcome(3, Optional.empty(), new byte[0], Optional.of(new Frame.Liveness(1, 2))),
        new Frame.Heartbeat(),
        new Frame.Batch(1, utf8("rollback tran 0x02f1 oqid 0x016b3a482d\n")),
        new Frame.Batch(Long.MAX_VALUE, new byte[0]),
        new Frame.BatchAccepted(7, 12),
        new Frame.BatchAccepted(1, 0),
        new Frame.BatchRejected(
            8, 2, 3, 38, Optional.of(Oqid.parse("0x016b3a482c")), "expected 'oqid', found 'oqdi'"),
        new Frame.BatchRejected(
            Long.MAX_VALUE, Integer.MAX_VALUE, 1, 1, Optional.empty(), "ünïcødé ✓ 𝄞"),
        new Frame.BatchRejected(2, 0, 1, 1, Optional.of(LONGEST_OQID), ""),
        new Frame.GetTruncation(1),
        new Frame.GetTruncation(-1),
        new Frame.Truncation(1, Optional.of(OQID)),
        new Frame.Truncation(0, Optional.empty()),
        new Frame.StoreResume(OQID, utf8("{\"lsn\":\"0/16B3A40\"}")),
        new Frame.StoreResume(Oqid.of(new byte[] {1}), new byte[0]),
        new Frame.Error(ErrorCode.ORIGIN_BUSY, "pg1.sales is held by agent repagent-pg2"),
        new Frame.Error(ErrorCode.INTERNAL, ""),
        new Frame.ScramClientFirst(
            "SCRAM-SHA-256", utf8("n,,n=ra_sales,r=fyko+d2lbbFgONRv9qkxdawL")),
        new Frame.ScramClientFirst("x".repeat(WireProtocol.MAX_MECHANISM_LENGTH), new byte[0]),
        new Frame.ScramServerFirst(
            utf8("r=fyko+d2lbbFgONRv9qkxdawL3rfcNHYJY1ZVvWVs7j,s=QSXCR+Q6sek8bf92,i=4096")),
        new Frame.ScramServerFirst(new byte[0]),
        new Frame.ScramClientFinal(
            utf8("c=biws,r=abc,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=")),
        new Frame.ScramServerFinal(utf8("v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=")),
        new Frame.ScramServerFinal(new byte[] {0, -1}),
        new Frame.AgentStatus(List.of()),
        new Frame.AgentStatus(
            List.of(
                new Frame.StatusItem(
                    Frame.StatusKind.TABLE_NOT_REPLICATED,
                    "sales.\"Ünïcødé 𝄞\"",
                    "columns \"A\", a differ only by case"),
                new Frame.StatusItem(Frame.StatusKind.WARNING, "", ""),
                new Frame.StatusItem(
                    Frame.StatusKind.WARNING,
                    "x".repeat(WireProtocol.MAX_STATUS_SUBJECT_BYTES),
                    "y".repeat(2000)))));
  }

  static byte[] encode(Frame frame) {
    ByteBuf buf =
        FrameCodec.encode(frame, ByteBufAllocator.DEFAULT, WireProtocol.MAX_MAX_FRAME_LENGTH);
    try {
      return ByteBufUtil.getBytes(buf);
    } finally {
      buf.release();
    }
  }

  /** A frame with an arbitrary type and body, bypassing the encoder's checks. */
  static byte[] raw(int type, byte[] body) {
    byte[] b = new byte[FrameCodec.HEADER_SIZE + body.length];
    int length = body.length + 1;
    b[0] = (byte) (length >>> 24);
    b[1] = (byte) (length >>> 16);
    b[2] = (byte) (length >>> 8);
    b[3] = (byte) length;
    b[4] = (byte) type;
    System.arraycopy(body, 0, b, FrameCodec.HEADER_SIZE, body.length);
    return b;
  }
}
