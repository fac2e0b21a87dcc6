package io.openrs.wire;

import io.netty.channel.EventLoopGroup;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything an {@link LtlClient} is configured with. Start from {@link #defaults(String, int)} and
 * change what differs with the {@code with...} methods; the constructor checks every field and
 * reports every problem at once.
 *
 * @param host the server's host name or address
 * @param port the server's LTL port
 * @param connectTimeout bound on TCP connect plus handshake (Hello sent, Welcome received)
 * @param closeTimeout bound on {@link LtlClient#close()} waiting for unanswered batches, and then
 *     on each shutdown step
 * @param maxFrameLength largest frame length sent or accepted; at most what the server accepts
 * @param maxInFlightBatches unanswered batches at most; {@link LtlClient#sendBatch} blocks beyond
 * @param maxInFlightBytes unanswered LTL text bytes at most; {@link LtlClient#sendBatch} blocks
 *     beyond (a single batch larger than this is sent alone, when nothing else is in flight)
 * @param eventLoopGroup a shared NIO group to run the connection on (the owner shuts it down);
 *     empty: the client starts its own single-thread group and shuts it down on close
 * @param tls whether and how the link is encrypted ({@link ClientTls#OFF}: plaintext)
 */
public record LtlClientSettings(
    String host,
    int port,
    Duration connectTimeout,
    Duration closeTimeout,
    int maxFrameLength,
    int maxInFlightBatches,
    long maxInFlightBytes,
    Optional<EventLoopGroup> eventLoopGroup,
    ClientTls tls) {

  /** Connect plus handshake: 30 s. */
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(30);

  /** Wait for answers on close: 10 s. */
  public static final Duration DEFAULT_CLOSE_TIMEOUT = Duration.ofSeconds(10);

  /** Unanswered batches: 64. */
  public static final int DEFAULT_MAX_IN_FLIGHT_BATCHES = 64;

  /** Unanswered LTL text: 64 MiB. */
  public static final long DEFAULT_MAX_IN_FLIGHT_BYTES = 64L * 1024 * 1024;

  public LtlClientSettings {
    List<String> problems = new ArrayList<>();
    if (host == null || host.isBlank()) {
      problems.add("host must be given");
    }
    if (port < 1 || port > 65535) {
      problems.add("port must be 1..65535, got " + port);
    }
    if (connectTimeout == null || connectTimeout.isNegative() || connectTimeout.isZero()) {
      problems.add("connectTimeout must be positive, got " + connectTimeout);
    }
    if (closeTimeout == null || closeTimeout.isNegative()) {
      problems.add("closeTimeout must be >= 0, got " + closeTimeout);
    }
    try {
      WireProtocol.checkMaxFrameLength(maxFrameLength);
    } catch (IllegalArgumentException e) {
      problems.add(e.getMessage());
    }
    if (maxInFlightBatches < 1) {
      problems.add("maxInFlightBatches must be >= 1, got " + maxInFlightBatches);
    }
    if (maxInFlightBytes < 1) {
      problems.add("maxInFlightBytes must be >= 1, got " + maxInFlightBytes);
    }
    if (eventLoopGroup == null) {
      problems.add("eventLoopGroup must be given (Optional.empty() for a group of its own)");
    }
    if (tls == null) {
      problems.add("tls must be given (ClientTls.OFF for plaintext)");
    }
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException("bad LTL client settings: " + String.join("; ", problems));
    }
  }

  /** Defaults for everything but where the server is. */
  public static LtlClientSettings defaults(String host, int port) {
    return new LtlClientSettings(
        host,
        port,
        DEFAULT_CONNECT_TIMEOUT,
        DEFAULT_CLOSE_TIMEOUT,
        WireProtocol.DEFAULT_MAX_FRAME_LENGTH,
        DEFAULT_MAX_IN_FLIGHT_BATCHES,
        DEFAULT_MAX_IN_FLIGHT_BYTES,
        Optional.empty(),
        ClientTls.OFF);
  }

  /** These settings with another bound on connect plus handshake. */
  public LtlClientSettings withConnectTimeout(Duration connectTimeout) {
    return new LtlClientSettings(
        host,
        port,
        connectTimeout,
        closeTimeout,
        maxFrameLength,
        maxInFlightBatches,
        maxInFlightBytes,
        eventLoopGroup,
        tls);
  }

  /** These settings with another bound on waiting in {@link LtlClient#close()}. */
  public LtlClientSettings withCloseTimeout(Duration closeTimeout) {
    return new LtlClientSettings(
        host,
        port,
        connectTimeout,
        closeTimeout,
        maxFrameLength,
        maxInFlightBatches,
        maxInFlightBytes,
        eventLoopGroup,
        tls);
  }

  /** These settings with another maximum frame length (at most the server's). */
  public LtlClientSettings withMaxFrameLength(int maxFrameLength) {
    return new LtlClientSettings(
        host,
        port,
        connectTimeout,
        closeTimeout,
        maxFrameLength,
        maxInFlightBatches,
        maxInFlightBytes,
        eventLoopGroup,
        tls);
  }

  /** Bounds on unanswered batches: how many and how many bytes of LTL text. */
  public LtlClientSettings withMaxInFlight(int maxInFlightBatches, long maxInFlightBytes) {
    return new LtlClientSettings(
        host,
        port,
        connectTimeout,
        closeTimeout,
        maxFrameLength,
        maxInFlightBatches,
        maxInFlightBytes,
        eventLoopGroup,
        tls);
  }

  /** Runs the connection on {@code group} (a NIO group), which the caller owns and shuts down. */
  public LtlClientSettings withEventLoopGroup(EventLoopGroup group) {
    return new LtlClientSettings(
        host,
        port,
        connectTimeout,
        closeTimeout,
        maxFrameLength,
        maxInFlightBatches,
        maxInFlightBytes,
        Optional.of(Objects.requireNonNull(group, "group")),
        tls);
  }

  /** These settings with the link encrypted as {@code tls} says. */
  public LtlClientSettings withTls(ClientTls tls) {
    return new LtlClientSettings(
        host,
        port,
        connectTimeout,
        closeTimeout,
        maxFrameLength,
        maxInFlightBatches,
        maxInFlightBytes,
        eventLoopGroup,
        Objects.requireNonNull(tls, "tls"));
  }
}
