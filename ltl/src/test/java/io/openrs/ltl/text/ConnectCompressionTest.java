package io.openrs.ltl.text;

import static org.assertj.core.api.Assertions.assertThat;

import io.openrs.ltl.LtlCommand;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The connect command's compression clause (protocol version 4): parsed, written, optional. */
class ConnectCompressionTest {

  private final LtlParser parser = new LtlParser();
  private final LtlWriter writer = new LtlWriter();

  @Test
  void theOfferIsParsedInTheAgentsOrderAndWrittenBack() throws Exception {
    String text =
        "connect source pg1.sales versions 2-4 user 'ra' password 'pw' agent 'a1'"
            + " compression 'zstd, lz4,brotli'";
    LtlCommand.Connect c = (LtlCommand.Connect) parser.parseAll(text).get(0);
    assertThat(c.compression()).containsExactly("zstd", "lz4", "brotli");
    assertThat(c.agent()).contains("a1");
    assertThat(writer.toText(c))
        .isEqualTo(
            "connect source pg1.sales versions 2-4 user 'ra' password 'pw' agent 'a1'"
                + " compression 'zstd,lz4,brotli'");
    assertThat(c.toString()).contains("compression=zstd,lz4,brotli").doesNotContain("pw");
  }

  @Test
  void withoutTheClauseNothingIsOfferedAndNothingIsWritten() throws Exception {
    LtlCommand.Connect c =
        (LtlCommand.Connect)
            parser.parseAll("connect source pg1.sales versions 1-3 user 'ra' password 'pw'").get(0);
    assertThat(c.compression()).isEmpty();
    assertThat(writer.toText(c)).doesNotContain("compression");
    assertThat(
            new LtlCommand.Connect(
                    "a", "b", 1, 4, "u", Optional.of("p"), Optional.empty(), List.of("lz4"))
                .compression())
        .containsExactly("lz4");
  }
}
