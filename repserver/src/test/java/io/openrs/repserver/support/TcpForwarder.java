package io.openrs.repserver.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * A TCP proxy on a loopback port for tests: forwards every connection to another address, byte for
 * byte, and records every byte the clients write as it crossed the link. Tests use it to look for
 * what must never be on the wire, and to make a service reachable at a port only from some moment
 * on. Two daemon threads per connection; closing it closes every connection.
 */
public final class TcpForwarder implements AutoCloseable {

  private final ServerSocket server;
  private final String targetHost;
  private final int targetPort;
  private final ByteArrayOutputStream fromClients = new ByteArrayOutputStream();
  private final List<Socket> sockets = new ArrayList<>();

  private TcpForwarder(ServerSocket server, String targetHost, int targetPort) {
    this.server = server;
    this.targetHost = targetHost;
    this.targetPort = targetPort;
    Thread acceptor = new Thread(this::acceptLoop, "test-tcp-forwarder");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /**
   * Listens on 127.0.0.1:{@code port} (0: any free port) and forwards to {@code target} ({@code
   * host:port}).
   */
  public static TcpForwarder start(int port, String target) throws IOException {
    int colon = target.lastIndexOf(':');
    ServerSocket s = new ServerSocket();
    s.setReuseAddress(true);
    s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    return new TcpForwarder(
        s, target.substring(0, colon), Integer.parseInt(target.substring(colon + 1)));
  }

  /** The port it listens on. */
  public int port() {
    return server.getLocalPort();
  }

  /** Every byte clients wrote through it so far. */
  public byte[] bytesFromClients() {
    synchronized (fromClients) {
      return fromClients.toByteArray();
    }
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        Socket out = new Socket(targetHost, targetPort);
        synchronized (sockets) {
          sockets.add(client);
          sockets.add(out);
        }
        pipe(client, out, true);
        pipe(out, client, false);
      } catch (IOException e) {
        // closed, or the target refused: the client sees its connection end
      }
    }
  }

  private void pipe(Socket from, Socket to, boolean record) {
    Thread t =
        new Thread(
            () -> {
              byte[] buf = new byte[16 * 1024];
              try (InputStream in = from.getInputStream();
                  OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buf)) >= 0) {
                  if (record) {
                    synchronized (fromClients) {
                      fromClients.write(buf, 0, n);
                    }
                  }
                  out.write(buf, 0, n);
                  out.flush();
                }
              } catch (IOException e) {
                // either side closed
              } finally {
                closeQuietly(from);
                closeQuietly(to);
              }
            },
            "test-tcp-forwarder-pipe");
    t.setDaemon(true);
    t.start();
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException e) {
      // already closed
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
    synchronized (sockets) {
      sockets.forEach(TcpForwarder::closeQuietly);
    }
  }
}
