package io.openrs.repagent;

import java.util.ArrayList;
import java.util.List;

/**
 * One replication server's LTL listener, {@code host:port} ({@code [v6-address]:port} for an IPv6
 * literal).
 */
public record ServerAddress(String host, int port) {

  public ServerAddress {
    if (host == null || host.isBlank()) {
      throw new IllegalArgumentException("a server address needs a host");
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("port " + port + " of " + host + " is not in 1..65535");
    }
  }

  /**
   * A comma-separated list of {@code host:port} addresses (blank entries are not allowed, an empty
   * text is an empty list).
   *
   * @throws IllegalArgumentException naming the entry that is not {@code host:port}
   */
  public static List<ServerAddress> parseList(String text) {
    List<ServerAddress> list = new ArrayList<>();
    if (text.isBlank()) {
      return list;
    }
    for (String entry : text.split(",", -1)) {
      list.add(parse(entry.strip()));
    }
    return list;
  }

  /**
   * {@code host:port} or {@code [v6-address]:port}.
   *
   * @throws IllegalArgumentException naming the text when it is not one
   */
  public static ServerAddress parse(String text) {
    int colon = text.lastIndexOf(':');
    if (colon <= 0 || colon == text.length() - 1) {
      throw new IllegalArgumentException("'" + text + "' is not host:port");
    }
    String host = text.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    } else if (host.indexOf(':') >= 0) {
      throw new IllegalArgumentException(
          "'" + text + "' is not host:port (write an IPv6 address in brackets: [::1]:11752)");
    }
    int port;
    try {
      port = Integer.parseInt(text.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + text + "' is not host:port: the port is no number");
    }
    try {
      return new ServerAddress(host, port);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("'" + text + "': " + e.getMessage());
    }
  }

  @Override
  public String toString() {
    return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
  }
}
