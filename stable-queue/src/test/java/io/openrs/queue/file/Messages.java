package io.openrs.queue.file;

import io.openrs.queue.QueueMessage;
import io.openrs.queue.QueueReader;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/** Deterministic test messages that carry their own identity and can be verified. */
final class Messages {

  private Messages() {}

  /** A message of {@code size} (>= 12) bytes encoding {@code id}, filled from a seeded random. */
  static byte[] make(long id, int size) {
    byte[] b = new byte[Math.max(12, size)];
    ByteBuffer.wrap(b).putLong(id).putInt(b.length);
    Random r = new Random(id * 31 + b.length);
    for (int i = 12; i < b.length; i++) {
      b[i] = (byte) r.nextInt();
    }
    return b;
  }

  /** The id of a message made by {@link #make}, after checking every byte. */
  static long verify(byte[] b) {
    ByteBuffer buf = ByteBuffer.wrap(b);
    long id = buf.getLong();
    int size = buf.getInt();
    if (size != b.length) {
      throw new AssertionError("message " + id + " has length " + b.length + ", says " + size);
    }
    byte[] expected = make(id, size);
    if (!java.util.Arrays.equals(b, expected)) {
      throw new AssertionError("message " + id + " content differs");
    }
    return id;
  }

  /** Reads everything currently durable. */
  static List<QueueMessage> drain(QueueReader r) {
    List<QueueMessage> out = new ArrayList<>();
    for (int i = 0; i < 10_000_000; i++) {
      Optional<QueueMessage> m = r.poll();
      if (m.isEmpty()) {
        return out;
      }
      out.add(m.get());
    }
    throw new AssertionError("reader never ran dry");
  }

  /** Reads exactly {@code n} messages, waiting for each up to 10 s. */
  static List<QueueMessage> read(QueueReader r, int n) throws InterruptedException {
    List<QueueMessage> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(
          r.poll(Duration.ofSeconds(10))
              .orElseThrow(() -> new AssertionError("no message after " + out.size())));
    }
    return out;
  }
}
