package io.openrs.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.openrs.ltl.LtlCommand;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The frame records, error codes and protocol constants. */
class FrameTest {

  @Test
  void helloCarriesTheConnectCommandAsLtlText() {
    Frame.Hello hello = Frame.Hello.of(Samples.CONNECT);
    assertThat(new String(hello.connectText(), java.nio.charset.StandardCharsets.UTF_8))
        .isEqualTo(
            "connect source pg1.sales versions 1-1 user 'ra_sales' password '"
                + Samples.PASSWORD
                + "' agent 'repagent-pg1'");
    assertThat(hello.parse()).isEqualTo(Samples.CONNECT);
  }

  @Test
  void helloToStringNeverShowsThePassword() {
    Frame.Hello good = Frame.Hello.of(Samples.CONNECT);
    assertThat(good.toString())
        .doesNotContain(Samples.PASSWORD)
        .contains("password=***")
        .contains("pg1.sales");
    // malformed: the password is not quoted, so the parser would quote it as "found"
    Frame.Hello bad =
        new Frame.Hello(
            Samples.utf8(
                "connect source pg1.sales versions 1-1 user 'ra' password " + Samples.PASSWORD));
    assertThat(bad.toString())
        .doesNotContain(Samples.PASSWORD)
        .isEqualTo(
            "Hello[" + bad.connectText().length + " bytes, not a well-formed connect command]");
  }

  @Test
  void aMalformedHelloIsAProtocolErrorThatDoesNotQuoteTheText() {
    Frame.Hello bad =
        new Frame.Hello(
            Samples.utf8(
                "connect source pg1.sales versions 1-1 user 'ra' password " + Samples.PASSWORD));
    assertThatThrownBy(bad::parse)
        .isInstanceOf(WireProtocolException.class)
        .hasMessageStartingWith(
            "the Hello frame holds no well-formed connect command: at line 1, column 58")
        .hasNoCause()
        .satisfies(e -> assertThat(e.toString()).doesNotContain(Samples.PASSWORD));
  }

  @Test
  void aHelloMustHoldExactlyOneConnectCommand() {
    assertThatThrownBy(() -> new Frame.Hello(Samples.utf8("get truncation")).parse())
        .isInstanceOf(WireProtocolException.class)
        .hasMessage(
            "the Hello frame must hold exactly one connect command, it holds a GetTruncation command");
    assertThatThrownBy(() -> new Frame.Hello(new byte[0]).parse())
        .isInstanceOf(WireProtocolException.class)
        .hasMessage("the Hello frame must hold exactly one connect command, it holds 0 commands");
    String twice =
        new String(
            Frame.Hello.of(Samples.CONNECT).connectText(), java.nio.charset.StandardCharsets.UTF_8);
    assertThatThrownBy(() -> new Frame.Hello(Samples.utf8(twice + "\n" + twice)).parse())
        .hasMessageEndingWith("it holds 2 commands");
  }

  @Test
  void framesWithArraysCompareByContent() {
    for (Frame f : Samples.all()) {
      Frame copy =
          FrameCodec.decode(
              io.netty.buffer.Unpooled.wrappedBuffer(Samples.encode(f)),
              WireProtocol.MAX_MAX_FRAME_LENGTH);
      assertThat(copy).isEqualTo(f).hasSameHashCodeAs(f).isNotSameAs(f);
      assertThat(copy.toString()).isEqualTo(f.toString());
    }
    assertThat(new Frame.Batch(1, new byte[] {1})).isNotEqualTo(new Frame.Batch(1, new byte[] {2}));
  }

  @Test
  void toStringShowsSizesNotPayloads() {
    assertThat(new Frame.Batch(3, Samples.utf8("rollback tran 0x01 oqid 0x02\n")))
        .hasToString("Batch[sequence=3, ltlText=29 bytes]");
    assertThat(new Frame.Welcome(1, Optional.empty(), new byte[5]))
        .hasToString("Welcome[version=1, truncationPoint=none, resumeBlob=5 bytes]");
    assertThat(new Frame.StoreResume(Samples.OQID, new byte[2]))
        .hasToString("StoreResume[coveredUpTo=0x00000000016b3a400000002a, blob=2 bytes]");
  }

  @Test
  void recordsRefuseValuesTheWireCannotCarry() {
    assertThatThrownBy(() -> new Frame.Batch(0, new byte[0])).hasMessageContaining("start at 1");
    assertThatThrownBy(() -> new Frame.BatchAccepted(1, -1)).hasMessageContaining("commandsTaken");
    assertThatThrownBy(() -> new Frame.BatchRejected(1, 0, 0, 1, Optional.empty(), ""))
        .hasMessageContaining("1-based");
    assertThatThrownBy(() -> new Frame.Welcome(0, Optional.empty(), new byte[0]))
        .hasMessageContaining("protocol version");
    assertThatThrownBy(() -> new Frame.Welcome(3, Optional.empty(), new byte[0]))
        .hasMessageContaining("a version 3 Welcome must carry the heartbeat interval");
    assertThatThrownBy(
            () ->
                new Frame.Welcome(
                    2, Optional.empty(), new byte[0], Optional.of(new Frame.Liveness(1, 2))))
        .hasMessageContaining("a version 2 Welcome carries no heartbeat interval");
    assertThatThrownBy(() -> new Frame.Liveness(100, 100))
        .hasMessageContaining("idle timeout must exceed the heartbeat interval 100 ms");
    assertThatThrownBy(
            () ->
                new Frame.StoreResume(
                    Samples.OQID, new byte[WireProtocol.MAX_RESUME_BLOB_BYTES + 1]))
        .hasMessageContaining("at most 1048576 bytes");
  }

  @Test
  void errorCodesAreStableAndUnique() {
    assertThat(Arrays.stream(ErrorCode.values()).mapToInt(ErrorCode::code))
        .containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
    assertThat(ErrorCode.AUTHENTICATION_FAILED.code()).isEqualTo(1);
    assertThat(ErrorCode.UNKNOWN_ORIGIN.code()).isEqualTo(2);
    assertThat(ErrorCode.UNSUPPORTED_VERSION.code()).isEqualTo(3);
    assertThat(ErrorCode.TOO_MANY_CONNECTIONS.code()).isEqualTo(4);
    assertThat(ErrorCode.PROTOCOL_ERROR.code()).isEqualTo(5);
    assertThat(ErrorCode.LOG_TRANSFER_STOPPED.code()).isEqualTo(6);
    assertThat(ErrorCode.ORIGIN_BUSY.code()).isEqualTo(7);
    assertThat(ErrorCode.SHUTTING_DOWN.code()).isEqualTo(8);
    assertThat(ErrorCode.INTERNAL.code()).isEqualTo(9);
    assertThat(ErrorCode.PERMISSION_DENIED.code()).isEqualTo(10);
    Set<ErrorCode> retryable = new HashSet<>();
    for (ErrorCode c : ErrorCode.values()) {
      assertThat(ErrorCode.forCode(c.code())).contains(c);
      if (c.retryable()) {
        retryable.add(c);
      }
    }
    assertThat(retryable)
        .containsExactlyInAnyOrder(
            ErrorCode.TOO_MANY_CONNECTIONS, ErrorCode.ORIGIN_BUSY, ErrorCode.SHUTTING_DOWN);
    assertThat(ErrorCode.forCode(0)).isEmpty();
    assertThat(ErrorCode.forCode(11)).isEmpty();
    assertThat(ErrorCode.forCode(-1)).isEmpty();
    assertThat(ErrorCode.forCode(0x1_0000_0001L)).isEmpty();
  }

  @Test
  void versionNegotiationPicksTheHighestSharedVersion() {
    assertThat(WireProtocol.VERSION).isEqualTo(5);
    assertThat(WireProtocol.negotiate(1, 1)).isEqualTo(OptionalInt.of(1));
    assertThat(WireProtocol.negotiate(1, 6)).isEqualTo(OptionalInt.of(5));
    assertThat(WireProtocol.negotiate(2, 2)).isEqualTo(OptionalInt.of(2));
    assertThat(WireProtocol.negotiate(2, 3)).isEqualTo(OptionalInt.of(3));
    assertThat(WireProtocol.negotiate(2, 4)).isEqualTo(OptionalInt.of(4));
    assertThat(WireProtocol.negotiate(4, 4)).isEqualTo(OptionalInt.of(4));
    assertThat(WireProtocol.negotiate(4, 5)).isEqualTo(OptionalInt.of(5));
    assertThat(WireProtocol.negotiate(5, 6)).isEqualTo(OptionalInt.of(5));
    assertThat(WireProtocol.negotiate(6, 7)).isEmpty();
  }

  @Test
  void rejectedExceptionCarriesTheCode() {
    LtlRejectedException e = new LtlRejectedException(ErrorCode.ORIGIN_BUSY, "held by a2");
    assertThat(e.code()).isEqualTo(ErrorCode.ORIGIN_BUSY);
    assertThat(e.retryable()).isTrue();
    assertThat(e.serverMessage()).isEqualTo("held by a2");
    assertThat(e)
        .hasMessage("server refused the agent: ORIGIN_BUSY (code 7, retryable): held by a2");
  }

  @Test
  void theDumpToolListsFramesAndWhereTheStreamStops() {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    List<Frame> frames =
        List.of(Frame.Hello.of(Samples.CONNECT), new Frame.Batch(1, Samples.utf8("x\n")));
    frames.forEach(f -> out.writeBytes(Samples.encode(f)));
    byte[] whole = out.toByteArray();
    int helloLength = Samples.encode(frames.get(0)).length;
    String dump = FrameDump.dump(Arrays.copyOf(whole, whole.length - 1), 1024);
    assertThat(dump)
        .contains(
            "offset 0 length " + (helloLength - 4) + " type 0x01 Hello[Connect[origin=pg1.sales")
        .doesNotContain(Samples.PASSWORD)
        .contains(
            "1 frames in "
                + helloLength
                + " of "
                + (whole.length - 1)
                + " bytes; incomplete frame at offset "
                + helloLength
                + ": 14 bytes of 15 announced");
    assertThat(FrameDump.dump(Samples.raw(0x33, new byte[0]), 1024))
        .isEqualTo(
            "0 frames in 0 of 5 bytes; unreadable at offset 0: unknown frame type 0x33 (frame length 1)\n");
    assertThat(FrameDump.dump(whole, 1024))
        .endsWith(
            "2 frames in " + whole.length + " of " + whole.length + " bytes; end of stream\n");
  }

  @Test
  void theConnectRecordHidesThePasswordToo() {
    LtlCommand.Connect c = Samples.CONNECT;
    assertThat(c.toString()).doesNotContain(Samples.PASSWORD);
  }
}
