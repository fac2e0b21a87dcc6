package io.openrs.repserver.dsi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TicketStampsTest {
  private static final String EXEC = "EXEC=2026-11-21T10:00:00.000100Z";
  private static final String DIST = "DIST=2026-11-21T10:00:00.000300Z";

  @Test
  void theTailHoldsTheModulesStamps() {
    TicketStamps s = TicketStamps.of(List.of("run 7", "h2", EXEC, "B=4096", DIST));

    assertEquals(List.of("run 7", "h2", "B=4096"), s.userHeaders());
    assertEquals(
        Map.of(
            "exec", Instant.parse("2026-11-21T10:00:00.000100Z"),
            "dist", Instant.parse("2026-11-21T10:00:00.000300Z")),
        s.times());
  }

  @Test
  void aHeaderThatLooksLikeAStampStaysTheDbas() {
    String fake = "EXEC=2000-01-01T00:00:00Z";
    TicketStamps s = TicketStamps.of(List.of(fake, "DIST=2000-01-01T00:00:00Z", EXEC, "B=1", DIST));

    assertEquals(List.of(fake, "DIST=2000-01-01T00:00:00Z", "B=1"), s.userHeaders());
    assertEquals(Instant.parse("2026-11-21T10:00:00.000100Z"), s.times().get("exec"));
    assertEquals(Instant.parse("2026-11-21T10:00:00.000300Z"), s.times().get("dist"));
  }

  @Test
  void withoutTheWholeTailNothingIsReadAsAStamp() {
    List<String> headers = List.of("h1", EXEC, DIST);

    TicketStamps s = TicketStamps.of(headers);

    assertEquals(headers, s.userHeaders());
    assertEquals(Map.of(), s.times());
  }

  @Test
  void theDsiTimeIsThePartOfItsHeaderThatNamesIt() {
    assertEquals(
        Instant.parse("2026-11-21T10:00:01Z"),
        TicketStamps.dsiTime("DSI_T=12;DSI=2026-11-21T10:00:01Z;DSI_C=3"));
    assertNull(TicketStamps.dsiTime("DSI_T=12"));
  }
}
