package io.openrs.repserver.dsi;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Splits an applied {@code rs_ticket}'s headers into the DBA's headers and the modules' time
 * stamps.
 *
 * <p>The headers arrive as {@code <h1> ... <hn> EXEC=<instant> B=<bytes> DIST=<instant>}: EXEC
 * appends its two, then DIST its one, always at the end. Only that tail is read as stamps, so a DBA
 * header that happens to look like {@code EXEC=<instant>} stays a header. A ticket without the full
 * tail (none should exist) keeps every header as the DBA's and has no EXEC or DIST time.
 *
 * @param userHeaders the DBA's headers and EXEC's {@code B=<bytes>}, in order
 * @param times {@code exec} and {@code dist} when the tail held them
 */
record TicketStamps(List<String> userHeaders, Map<String, Instant> times) {
  private static final String EXEC = "EXEC=";
  private static final String BYTES = "B=";
  private static final String DIST = "DIST=";

  TicketStamps {
    userHeaders = List.copyOf(userHeaders);
    times = Collections.unmodifiableMap(new HashMap<>(times));
  }

  static TicketStamps of(List<String> headers) {
    int n = headers.size();
    if (n >= 3 && headers.get(n - 2).startsWith(BYTES)) {
      Instant exec = instant(headers.get(n - 3), EXEC);
      Instant dist = instant(headers.get(n - 1), DIST);
      if (exec != null && dist != null) {
        List<String> user = new ArrayList<>(headers.subList(0, n - 3));
        user.add(headers.get(n - 2));
        return new TicketStamps(user, Map.of("exec", exec, "dist", dist));
      }
    }
    return new TicketStamps(headers, Map.of());
  }

  /** The DSI's {@code DSI=<instant>} part of its {@code ;}-separated header, if it has one. */
  static Instant dsiTime(String dsiHeader) {
    for (String part : dsiHeader.split(";")) {
      Instant t = instant(part, "DSI=");
      if (t != null) {
        return t;
      }
    }
    return null;
  }

  private static Instant instant(String header, String prefix) {
    if (!header.startsWith(prefix)) {
      return null;
    }
    try {
      return Instant.parse(header.substring(prefix.length()));
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
