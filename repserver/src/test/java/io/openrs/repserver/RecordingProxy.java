package io.openrs.repserver;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * A TCP proxy on 127.0.0.1 for tests: forwards every connection to {@code 127.0.0.1:targetPort} and
 * records every byte the clients write, as it crossed the link, so a test can look for what must
 * never be there.
 */
final class RecordingProxy implements AutoCloseable {
  private final ServerSocket listener;
  private final int targetPort;
  private final ByteArrayOutputStream fromClients = new ByteArrayOutputStream();
  private final List<Socket> sockets = new ArrayList<>();
  private final Thread acceptor;

  RecordingProxy(int targetPort) throws IOException {
    this.targetPort = targetPort;
    this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    this.acceptor = new Thread(this::acceptLoop, "test-recording-proxy");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  int port() {
    return listener.getLocalPort();
  }

  /** Every byte clients wrote through the proxy so far. */
  byte[] bytesFromClients() {
    synchronized (fromClients) {
      return fromClients.toByteArray();
    }
  }

  private void acceptLoop() {
    try {
      while (true) {
        Socket client = listener.accept();
        Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
        synchronized (sockets) {
          sockets.add(client);
          sockets.add(server);
        }
        pump(client.getInputStream(), server.getOutputStream(), true);
        pump(server.getInputStream(), client.getOutputStream(), false);
      }
    } catch (IOException closed) {
      // The listener was closed.
    }
  }

  private void pump(InputStream in, OutputStream out, boolean record) {
    Thread t =
        new Thread(
            () -> {
              byte[] buf = new byte[8192];
              try (in;
                  out) {
                int n;
                while ((n = in.read(buf)) > 0) {
                  if (record) {
                    synchronized (fromClients) {
                      fromClients.write(buf, 0, n);
                    }
                  }
                  out.write(buf, 0, n);
                  out.flush();
                }
              } catch (IOException e) {
                // One side closed.
              }
            },
            "test-recording-proxy-pump");
    t.setDaemon(true);
    t.start();
  }

  @Override
  public void close() throws IOException {
    listener.close();
    synchronized (sockets) {
      for (Socket s : sockets) {
        s.close();
      }
    }
  }
}
