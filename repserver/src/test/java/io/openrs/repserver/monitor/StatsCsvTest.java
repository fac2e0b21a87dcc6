package io.openrs.repserver.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import io.openrs.config.rssd.CounterSample;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class StatsCsvTest {

  private static final Instant T = Instant.parse("2025-01-19T02:17:19.406Z");

  @Test
  void headerThenOneCrlfLinePerSample() {
    String csv =
        StatsCsv.format(
            List.of(
                new CounterSample(T, "SQM", "101:1", "CmdsWritten", 300),
                new CounterSample(T, "SQM", "101:1", "SQMWriteTime", 12.5),
                new CounterSample(T, "SQMR", "101:1 reader=SQT", "SQMRBacklogSeg", 0)));
    assertThat(csv)
        .isEqualTo(
            "sampled_at,module,instance,counter,value\r\n"
                + "2025-01-19T02:17:19.406Z,SQM,101:1,CmdsWritten,300\r\n"
                + "2025-01-19T02:17:19.406Z,SQM,101:1,SQMWriteTime,12.5\r\n"
                + "2025-01-19T02:17:19.406Z,SQMR,101:1 reader=SQT,SQMRBacklogSeg,0\r\n");
  }

  @Test
  void noSamplesIsJustTheHeader() {
    assertThat(StatsCsv.format(List.of()))
        .isEqualTo("sampled_at,module,instance,counter,value\r\n");
  }

  @Test
  void fieldsWithCommasQuotesOrLineBreaksAreQuoted() {
    assertThat(StatsCsv.field("plain")).isEqualTo("plain");
    assertThat(StatsCsv.field("102:1, 0, SQT")).isEqualTo("\"102:1, 0, SQT\"");
    assertThat(StatsCsv.field("say \"hi\"")).isEqualTo("\"say \"\"hi\"\"\"");
    assertThat(StatsCsv.field("two\nlines")).isEqualTo("\"two\nlines\"");
    assertThat(StatsCsv.field("cr\rhere")).isEqualTo("\"cr\rhere\"");
    assertThat(StatsCsv.field("")).isEqualTo("");
  }

  @Test
  void numbersArePlainDecimals() {
    assertThat(StatsCsv.number(1e20)).isEqualTo("100000000000000000000");
    assertThat(StatsCsv.number(0.00001)).isEqualTo("0.00001");
    assertThat(StatsCsv.number(-3.0)).isEqualTo("-3");
    assertThat(StatsCsv.number(-0.0)).isEqualTo("0");
    assertThat(StatsCsv.number(Double.NaN)).isEqualTo("NaN");
  }
}
