package io.openrs.repserver.support;

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
 * Forwards TCP connections on a loopback port to another address, byte for byte: a service that is
 * unreachable at that port until the forwarder starts (tests of waiting for a Kafka cluster). Two
 * daemon threads per connection; closing it closes every connection.
 */
public final class TcpForwarder implements AutoCloseable {

  private final ServerSocket server;
  private final List<Socket> sockets = new ArrayList<>();
  private final Thread acceptor;

  private TcpForwarder(ServerSocket server, String targetHost, int targetPort) {
    this.server = server;
    this.acceptor =
        new Thread(
            () -> {
              while (!server.isClosed()) {
                try {
                  Socket in = server.accept();
                  Socket out = new Socket(targetHost, targetPort);
                  synchronized (sockets) {
                    sockets.add(in);
                    sockets.add(out);
                  }
                  pipe(in, out);
                  pipe(out, in);
                } catch (IOException e) {
                  // closed, or the target refused: the client sees its connection end
                }
              }
            },
            "test-tcp-forwarder");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** Listens on 127.0.0.1:{@code port} and forwards to {@code target} ({@code host:port}). */
  public static TcpForwarder start(int port, String target) throws IOException {
    int colon = target.lastIndexOf(':');
    ServerSocket s = new ServerSocket();
    s.setReuseAddress(true);
    s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    return new TcpForwarder(
        s, target.substring(0, colon), Integer.parseInt(target.substring(colon + 1)));
  }

  private static void pipe(Socket from, Socket to) {
    Thread t =
        new Thread(
            () -> {
              byte[] buf = new byte[16 * 1024];
              try (InputStream in = from.getInputStream();
                  OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buf)) >= 0) {
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
