package io.openrs.repagent;

import static org.assertj.core.api.Assertions.assertThat;

import io.openrs.ltl.Oqid;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class SenderTest {

  @Test
  void theRejectedLineNamesItsOqid() {
    byte[] text =
        ("begin tran 0x01 oqid 0x0a00 time 2026-11-21T10:15:30Z\n"
                + "insert tran 0x01 oqid 0x0a01 s.t after (id=i32 1)\n"
                + "commit tran 0x01 oqid 0x0a02 time 2026-11-21T10:15:30Z\n")
            .getBytes(StandardCharsets.UTF_8);
    assertThat(Sender.oqidAtLine(text, 1)).contains(Oqid.parse("0x0a00"));
    assertThat(Sender.oqidAtLine(text, 2)).contains(Oqid.parse("0x0a01"));
    assertThat(Sender.oqidAtLine(text, 3)).contains(Oqid.parse("0x0a02"));
    assertThat(Sender.oqidAtLine(text, 9)).isEmpty();
  }
}
