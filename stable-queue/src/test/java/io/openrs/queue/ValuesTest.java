package io.openrs.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ValuesTest {

  @Test
  void queueIdRoundTripsAndOrders() {
    assertThat(QueueId.parse("101:1")).isEqualTo(QueueId.inbound(101));
    assertThat(QueueId.outbound(7).toString()).isEqualTo("7:0");
    assertThat(QueueId.outbound(7)).isLessThan(QueueId.inbound(7));
    assertThatThrownBy(() -> QueueId.parse("101:2")).hasMessageContaining("0 (outbound) or 1");
    assertThatThrownBy(() -> QueueId.parse("x")).hasMessageContaining("<number>:<0|1>");
  }

  @Test
  void positionRoundTripsAndOrdersBySegmentBlockRow() {
    QueuePosition p = QueuePosition.parse("12.3.7");
    assertThat(p).isEqualTo(new QueuePosition(12, 3, 7));
    assertThat(p.toString()).isEqualTo("12.3.7");
    assertThat(new QueuePosition(1, 0, 0)).isGreaterThan(new QueuePosition(0, 63, 99));
    assertThat(new QueuePosition(1, 2, 0)).isGreaterThan(new QueuePosition(1, 1, 99));
    assertThat(new QueuePosition(1, 2, 3).isAfter(new QueuePosition(1, 2, 2))).isTrue();
    assertThatThrownBy(() -> QueuePosition.parse("1.2"))
        .hasMessageContaining("<segment>.<block>.<row>");
    assertThatThrownBy(() -> new QueuePosition(-1, 0, 0)).hasMessageContaining(">= 0");
  }

  @Test
  void settingsNameTheParameterAndItsRange() {
    QueueSettings d = QueueSettings.defaults();
    assertThat(d.blockSizeBytes()).isEqualTo(128 * 1024);
    assertThat(d.blocksPerSegment()).isEqualTo(512);
    assertThatThrownBy(() -> d.withBlockSizeBytes(8192))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("block_size = '8192'")
        .hasMessageContaining("16384, 32768, 65536, 131072 or 262144");
    assertThatThrownBy(() -> d.withBlockSizeBytes(48 * 1024)).hasMessageContaining("block_size");
    assertThatThrownBy(() -> d.withPageSizeBlocks(65))
        .hasMessageContaining("sqm_page_size = '65'")
        .hasMessageContaining("1..64");
    assertThatThrownBy(() -> d.withCacheSizeBytes(100)).hasMessageContaining("sqm_cache_size");
    assertThatThrownBy(() -> d.withWriteRequestLimitBytes(1000))
        .hasMessageContaining("exec_sqm_write_request_limit");
    assertThatThrownBy(() -> d.withSegmentSizeBytes(1024 * 1024 + 1))
        .hasMessageContaining("sqm_segment_size")
        .hasMessageContaining("multiple of block_size");
    assertThatThrownBy(() -> WriteFlush.parse("sometimes"))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("sqm_write_flush");
    assertThat(WriteFlush.parse("DIO")).isEqualTo(WriteFlush.DIO);
    assertThat(d.withCacheSizeBytes(0).cacheSizeBytes()).isZero();
  }
}
