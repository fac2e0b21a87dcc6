package io.openrs.repserver.monitor;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.openrs.runtime.ThreadNames;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.zip.GZIPOutputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP endpoint Prometheus scrapes ({@code prometheus_port}), on the JDK's HTTP server:
 *
 * <ul>
 *   <li>{@code GET /metrics}: every meter in the Prometheus text format 0.0.4, or OpenMetrics 1.0
 *       when the {@code Accept} header asks for {@code application/openmetrics-text}; gzip when
 *       {@code Accept-Encoding} allows it;
 *   <li>{@code GET /health}: {@code 200 ok} while the endpoint runs;
 *   <li>any other path: 404; another method: 405.
 * </ul>
 *
 * <p>One thread, {@code rs-repserver-prometheus-<port>}, serves requests one at a time (a scrape
 * reads every meter; they are cheap). No authentication: bind it to an address only the monitoring
 * network reaches.
 */
public final class PrometheusEndpoint implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(PrometheusEndpoint.class);

  static final String TEXT_004 = "text/plain; version=0.0.4; charset=utf-8";
  static final String OPENMETRICS = "application/openmetrics-text; version=1.0.0; charset=utf-8";

  private final HttpServer server;
  private final ExecutorService executor;
  private final PrometheusMeterRegistry registry;
  private boolean closed;

  private PrometheusEndpoint(
      HttpServer server, ExecutorService executor, PrometheusMeterRegistry registry) {
    this.server = server;
    this.executor = executor;
    this.registry = registry;
  }

  /**
   * Binds {@code host:port} and starts serving.
   *
   * @param host the address to bind ({@code listen_address}); {@code 0.0.0.0} for every interface
   * @param port the port; 0 takes a free one (tests), see {@link #port()}
   * @throws IOException if the address cannot be bound
   */
  public static PrometheusEndpoint start(String host, int port, PrometheusMeterRegistry registry)
      throws IOException {
    Objects.requireNonNull(registry, "registry");
    HttpServer server;
    try {
      server = HttpServer.create(new InetSocketAddress(host, port), 16);
    } catch (IOException e) {
      throw new IOException(
          "cannot bind the Prometheus endpoint to " + host + ":" + port + ": " + e.getMessage(), e);
    }
    int bound = server.getAddress().getPort();
    ExecutorService executor =
        Executors.newSingleThreadExecutor(ThreadNames.factory("repserver", "prometheus", bound));
    PrometheusEndpoint endpoint = new PrometheusEndpoint(server, executor, registry);
    server.createContext("/", endpoint::handle);
    server.setExecutor(executor);
    server.start();
    LOG.info("Prometheus endpoint listening on http://{}:{}/metrics", host, bound);
    return endpoint;
  }

  /** The port bound. */
  public int port() {
    return server.getAddress().getPort();
  }

  /** The address bound. */
  public InetSocketAddress address() {
    return server.getAddress();
  }

  /** Stops serving; idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    server.stop(0);
    executor.shutdownNow();
    LOG.info("Prometheus endpoint on port {} stopped", port());
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      String method = exchange.getRequestMethod();
      if (!path.equals("/metrics") && !path.equals("/health")) {
        send(exchange, 404, "text/plain; charset=utf-8", "not found: " + path + "\n", false);
        return;
      }
      boolean head = method.equals("HEAD");
      if (!head && !method.equals("GET")) {
        exchange.getResponseHeaders().set("Allow", "GET, HEAD");
        send(exchange, 405, "text/plain; charset=utf-8", method + " not allowed\n", false);
        return;
      }
      if (path.equals("/health")) {
        send(exchange, 200, "text/plain; charset=utf-8", "ok\n", head);
        return;
      }
      String contentType = wantsOpenMetrics(exchange) ? OPENMETRICS : TEXT_004;
      String body;
      try {
        body = registry.scrape(contentType);
      } catch (RuntimeException e) {
        LOG.warn("Prometheus scrape failed", e);
        send(exchange, 500, "text/plain; charset=utf-8", "scrape failed: " + e + "\n", head);
        return;
      }
      send(exchange, 200, contentType, body, head);
    }
  }

  private static boolean wantsOpenMetrics(HttpExchange exchange) {
    List<String> accept = exchange.getRequestHeaders().get("Accept");
    return accept != null
        && accept.stream()
            .anyMatch(a -> a.toLowerCase(Locale.ROOT).contains("application/openmetrics-text"));
  }

  private static boolean acceptsGzip(HttpExchange exchange) {
    List<String> enc = exchange.getRequestHeaders().get("Accept-Encoding");
    return enc != null && enc.stream().anyMatch(e -> e.toLowerCase(Locale.ROOT).contains("gzip"));
  }

  private static void send(
      HttpExchange exchange, int status, String contentType, String body, boolean head)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    if (status == 200 && acceptsGzip(exchange)) {
      ByteArrayOutputStream buf = new ByteArrayOutputStream(bytes.length / 4 + 64);
      try (GZIPOutputStream gz = new GZIPOutputStream(buf)) {
        gz.write(bytes);
      }
      bytes = buf.toByteArray();
      exchange.getResponseHeaders().set("Content-Encoding", "gzip");
    }
    exchange.getResponseHeaders().set("Content-Type", contentType);
    if (head) {
      exchange.sendResponseHeaders(status, -1);
      return;
    }
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
