package io.openrs.bench.comparison;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The benchmark's comparison and statistics catch what they are there to catch. */
class StatsTest {

  @Test
  void equalDigestsShowNoDifference() {
    Map<String, String> p = Map.of("a", "3:123", "b", "0:0");
    assertTrue(Stats.differences(p, Map.of("a", "3:123", "b", "0:0")).isEmpty());
  }

  @Test
  void aChangedRowAMissingRowAndAMissingTableDiffer() {
    Map<String, String> p = Map.of("a", "3:123", "b", "2:77", "c", "1:5");
    Map<String, String> r = Map.of("a", "3:124", "b", "1:70", "d", "1:5");
    Map<String, String> d = Stats.differences(p, r);
    assertEquals(List.of("a", "b", "c", "d"), List.copyOf(d.keySet()));
    assertEquals("primary 3:123, replicate 3:124", d.get("a"));
    assertEquals("primary 1:5, replicate null", d.get("c"));
    assertEquals("primary null, replicate 1:5", d.get("d"));
  }

  @Test
  void medianMinMaxAndRatio() {
    Stats.Summary odd = Stats.summarize(List.of(5.0, 1.0, 3.0));
    assertEquals(new Stats.Summary(3.0, 1.0, 5.0, 3), odd);
    Stats.Summary even = Stats.summarize(List.of(4.0, 1.0, 2.0, 10.0));
    assertEquals(3.0, even.median());
    assertEquals(2.0, Stats.summarize(List.of(6.0)).ratioTo(Stats.summarize(List.of(3.0))));
    assertThrows(IllegalArgumentException.class, () -> Stats.summarize(List.of()));
  }

  @Test
  void lagPercentilesFromTheHistogram() {
    Histogram h = Stats.lagHistogram();
    for (int ms = 1; ms <= 100; ms++) {
      h.recordValue(ms * 1000L); // microseconds
    }
    Stats.Lag l = Stats.lag(h);
    assertEquals(50.0, l.p50Ms(), 0.1);
    assertEquals(99.0, l.p99Ms(), 0.1);
    assertEquals(100.0, l.maxMs(), 0.1);
    assertEquals(100, l.samples());
    assertThrows(IllegalStateException.class, () -> Stats.lag(Stats.lagHistogram()));
  }

  @Test
  void rotationAlternatesTheOrder() {
    assertEquals(
        List.of("b", "c", "a"), NativeComparisonBenchmark.rotate(List.of("a", "b", "c"), 1));
  }
}
