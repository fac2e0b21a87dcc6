package io.openrs.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.openrs.ltl.Oqid;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The agent side of a compressed link: the Welcome and the first compressed bytes arrive in one
 * read, and every byte after the Welcome goes through the decompressor, both ways.
 */
class LinkCompressionTest {

  private static final int MAX = WireProtocol.DEFAULT_MAX_FRAME_LENGTH;

  private static EmbeddedChannel agentSide(LinkBytes bytes) {
    EmbeddedChannel ch = new EmbeddedChannel();
    FrameCodec.install(ch.pipeline(), MAX);
    LinkBytes.install(ch.pipeline(), bytes);
    LinkCompression.installAgentSide(ch.pipeline(), MAX);
    return ch;
  }

  private static Frame.Welcome welcome(LtlCompression method) {
    return new Frame.Welcome(
        4, Optional.empty(), new byte[0], Optional.of(new Frame.Liveness(5_000, 15_000)), method);
  }

  /** What the server writes after the Welcome, through {@code method}'s compressor. */
  private static ByteBuf compressed(LtlCompression method, Frame... frames) {
    EmbeddedChannel server = new EmbeddedChannel();
    FrameCodec.install(server.pipeline(), MAX);
    LinkBytes.install(server.pipeline(), new LinkBytes());
    LinkCompression.start(server.pipeline(), method);
    for (Frame f : frames) {
      server.writeAndFlush(f);
    }
    ByteBuf out = Unpooled.buffer();
    for (ByteBuf b; (b = server.readOutbound()) != null; ) {
      out.writeBytes(b);
      b.release();
    }
    return out;
  }

  @ParameterizedTest
  @EnumSource(LtlCompression.class)
  void bytesAfterTheWelcomeInTheSameReadAreDecompressed(LtlCompression method) {
    LinkBytes bytes = new LinkBytes();
    EmbeddedChannel agent = agentSide(bytes);
    byte[] text = "insert tran 0x01 oqid 0x01 s.t after (a=i32 1)\n".repeat(2_000).getBytes();
    ByteBuf plainWelcome = Unpooled.wrappedBuffer(Samples.encode(welcome(method)));
    ByteBuf after =
        compressed(
            method,
            new Frame.BatchAccepted(1, 3),
            new Frame.Heartbeat(),
            new Frame.Truncation(1, Optional.of(Oqid.ofLong(7, 12))),
            new Frame.Error(ErrorCode.SHUTTING_DOWN, new String(text)));
    int wire = plainWelcome.readableBytes() + after.readableBytes();
    agent.writeInbound(Unpooled.wrappedBuffer(plainWelcome, after));

    assertThat((Frame) agent.readInbound()).isEqualTo(welcome(method));
    assertThat((Frame) agent.readInbound()).isEqualTo(new Frame.BatchAccepted(1, 3));
    assertThat((Frame) agent.readInbound()).isEqualTo(new Frame.Heartbeat());
    assertThat((Frame) agent.readInbound())
        .isEqualTo(new Frame.Truncation(1, Optional.of(Oqid.ofLong(7, 12))));
    assertThat((Frame) agent.readInbound()).isInstanceOf(Frame.Error.class);
    assertThat(bytes.wireBytesReceived()).isEqualTo(wire);
    if (method == LtlCompression.NONE) {
      assertThat(bytes.frameBytesReceived()).isEqualTo(wire);
    } else {
      assertThat(bytes.frameBytesReceived())
          .as("repetitive text compresses")
          .isGreaterThan(3L * wire);
    }
    assertThat(agent.pipeline().get(LinkCompression.BOUNDARY_NAME)).isNull();
  }

  @ParameterizedTest
  @EnumSource(
      value = LtlCompression.class,
      names = {"LZ4", "ZSTD"})
  void whatTheAgentWritesAfterTheWelcomeIsCompressed(LtlCompression method) {
    LinkBytes bytes = new LinkBytes();
    EmbeddedChannel agent = agentSide(bytes);
    agent.writeInbound(Unpooled.wrappedBuffer(Samples.encode(welcome(method))));
    assertThat((Frame) agent.readInbound()).isEqualTo(welcome(method));
    byte[] text = "begin tran 0x01 oqid 0x01 time 2026-11-27T10:00:00Z\n".repeat(500).getBytes();
    agent.writeAndFlush(new Frame.Batch(1, text));

    EmbeddedChannel server = new EmbeddedChannel();
    FrameCodec.install(server.pipeline(), MAX);
    LinkBytes.install(server.pipeline(), new LinkBytes());
    LinkCompression.start(server.pipeline(), method);
    for (ByteBuf b; (b = agent.readOutbound()) != null; ) {
      server.writeInbound(b);
    }
    assertThat((Frame) server.readInbound()).isEqualTo(new Frame.Batch(1, text));
    assertThat(bytes.frameBytesSent()).isEqualTo(FrameCodec.HEADER_SIZE + 8 + text.length);
    assertThat(bytes.wireBytesSent()).isLessThan(bytes.frameBytesSent() / 10);
  }

  @ParameterizedTest
  @EnumSource(
      value = LtlCompression.class,
      names = {"LZ4", "ZSTD"})
  void frameDumpFollowsACompressedSessionInBothDirections(LtlCompression method) {
    ByteBuf server = Unpooled.buffer();
    server.writeBytes(Samples.encode(welcome(method)));
    server.writeBytes(compressed(method, new Frame.BatchAccepted(1, 3), new Frame.Heartbeat()));
    String dump = FrameDump.dump(ByteBufUtil.getBytes(server), MAX);
    assertThat(dump)
        .contains("compression=" + method)
        .contains(method.configName() + ", 22 bytes decompressed")
        .contains("BatchAccepted")
        .contains("Heartbeat")
        .endsWith("3 frames in 22 of 22 bytes; end of stream\n");

    ByteBuf agent = Unpooled.buffer();
    agent.writeBytes(Samples.encode(Frame.Hello.of(Samples.CONNECT)));
    agent.writeBytes(compressed(method, new Frame.GetTruncation(7)));
    assertThat(FrameDump.dump(ByteBufUtil.getBytes(agent), MAX, method))
        .contains("Hello[")
        .contains("GetTruncation[requestId=7]")
        .doesNotContain(Samples.PASSWORD);
  }

  @Test
  void framesBeforeTheWelcomePassPlainAndARefusalNeedsNoWelcome() {
    EmbeddedChannel agent = agentSide(new LinkBytes());
    agent.writeInbound(
        Unpooled.wrappedBuffer(
            Samples.encode(new Frame.Error(ErrorCode.ORIGIN_BUSY, "held by a2"))));
    assertThat((Frame) agent.readInbound())
        .isEqualTo(new Frame.Error(ErrorCode.ORIGIN_BUSY, "held by a2"));
    assertThat(agent.pipeline().get(LinkCompression.BOUNDARY_NAME)).isNotNull();
  }

  @Test
  void theServerPicksTheAgentsFirstAllowedMethodAndSkipsUnknownNames() {
    List<LtlCompression> both = List.of(LtlCompression.LZ4, LtlCompression.ZSTD);
    assertThat(LtlCompression.choose(List.of("brotli", "zstd", "lz4"), both))
        .isEqualTo(LtlCompression.ZSTD);
    assertThat(LtlCompression.choose(List.of("zstd", "lz4"), List.of(LtlCompression.LZ4)))
        .isEqualTo(LtlCompression.LZ4);
    assertThat(LtlCompression.choose(List.of("zstd"), List.of(LtlCompression.LZ4)))
        .isEqualTo(LtlCompression.NONE);
    assertThat(LtlCompression.choose(List.of("off", "lz4"), List.of()))
        .isEqualTo(LtlCompression.NONE);
  }
}
