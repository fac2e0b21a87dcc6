package io.openrs.repagent;

import io.openrs.wire.Frame;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * What the agent does not capture: the tables its start check leaves out and its warnings about the
 * primary, plus the tables it leaves out while streaming. The server learns the whole list in an
 * AgentStatus frame right after each Welcome and again whenever the list changes ({@code admin who,
 * rep}).
 *
 * <p>Thread-safe: the dialect's {@code prepare} sets the start findings on the agent's thread, the
 * mapper adds tables on Debezium's connector thread, the session listens on its own.
 */
final class CaptureStatus {
  private final List<Frame.StatusItem> atStart = new ArrayList<>();
  private final List<Frame.StatusItem> whileStreaming = new ArrayList<>();
  private Consumer<Frame.AgentStatus> listener = s -> {};

  /** Replaces the start check's findings; the tables left out while streaming are forgotten. */
  synchronized void startFindings(List<Frame.StatusItem> found) {
    atStart.clear();
    atStart.addAll(found);
    whileStreaming.clear();
    listener.accept(current());
  }

  /** Adds an item found while streaming and tells the listener, unless it is known already. */
  synchronized void add(Frame.StatusItem item) {
    if (atStart.contains(item) || whileStreaming.contains(item)) {
      return;
    }
    whileStreaming.add(item);
    listener.accept(current());
  }

  /** The whole list now. */
  synchronized Frame.AgentStatus current() {
    List<Frame.StatusItem> all = new ArrayList<>(atStart);
    all.addAll(whileStreaming);
    return new Frame.AgentStatus(
        all.size() > io.openrs.wire.WireProtocol.MAX_STATUS_ITEMS
            ? all.subList(0, io.openrs.wire.WireProtocol.MAX_STATUS_ITEMS)
            : all);
  }

  /**
   * Tells {@code l} the whole list now and at every change from now on, in place of the last
   * listener (the session in use).
   */
  synchronized void listen(Consumer<Frame.AgentStatus> l) {
    listener = l;
    l.accept(current());
  }

  /** Stops telling anyone (the session ended). */
  synchronized void unlisten(Consumer<Frame.AgentStatus> l) {
    if (listener == l) {
      listener = s -> {};
    }
  }

  /** A table left out, with a message cut to the frame's limits. */
  static Frame.StatusItem tableLeftOut(String table, String message) {
    return new Frame.StatusItem(
        Frame.StatusKind.TABLE_NOT_REPLICATED,
        cut(table, io.openrs.wire.WireProtocol.MAX_STATUS_SUBJECT_BYTES),
        cut(message, io.openrs.wire.WireProtocol.MAX_STATUS_MESSAGE_BYTES));
  }

  /** A warning about the whole origin. */
  static Frame.StatusItem warning(String message) {
    return new Frame.StatusItem(
        Frame.StatusKind.WARNING,
        "",
        cut(message, io.openrs.wire.WireProtocol.MAX_STATUS_MESSAGE_BYTES));
  }

  /**
   * {@code s} cut to at most {@code maxBytes} UTF-8 bytes on a character boundary, marked "...".
   */
  static String cut(String s, int maxBytes) {
    if (s.getBytes(java.nio.charset.StandardCharsets.UTF_8).length <= maxBytes) {
      return s;
    }
    StringBuilder b = new StringBuilder();
    int bytes = 0;
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      int n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
      if (bytes + n > maxBytes - 3) {
        break;
      }
      b.appendCodePoint(cp);
      bytes += n;
      i += Character.charCount(cp);
    }
    return b.append("...").toString();
  }
}
