package io.openrs.pgwire;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A blocking, byte-level PostgreSQL protocol client for tests that need to send exactly the
 * messages (or the damage) they mean: startup packets, SCRAM by hand, extended-query sequences.
 */
final class RawPgClient implements Closeable {
  private final Socket socket;
  private final DataInputStream in;
  private final DataOutputStream out;
  int processId;
  int secretKey;
  final Map<String, String> parameterStatus = new LinkedHashMap<>();

  /** A backend message. */
  record Message(char type, byte[] body) {
    /** The NUL-terminated fields of an ErrorResponse/NoticeResponse by code. */
    Map<Character, String> fields() {
      Map<Character, String> fields = new LinkedHashMap<>();
      int i = 0;
      while (i < body.length && body[i] != 0) {
        char code = (char) body[i++];
        int end = i;
        while (body[end] != 0) {
          end++;
        }
        fields.put(code, new String(body, i, end - i, StandardCharsets.UTF_8));
        i = end + 1;
      }
      return fields;
    }

    /** The whole body as one string without the trailing NUL (CommandComplete). */
    String text() {
      int end = body.length > 0 && body[body.length - 1] == 0 ? body.length - 1 : body.length;
      return new String(body, 0, end, StandardCharsets.UTF_8);
    }

    /** The values of a DataRow; null for NULL. */
    List<byte[]> values() {
      ByteBuffer b = ByteBuffer.wrap(body);
      int n = b.getShort();
      List<byte[]> values = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        int len = b.getInt();
        if (len < 0) {
          values.add(null);
        } else {
          byte[] v = new byte[len];
          b.get(v);
          values.add(v);
        }
      }
      return values;
    }

    /** The column names of a RowDescription. */
    List<String> columnNames() {
      ByteBuffer b = ByteBuffer.wrap(body);
      int n = b.getShort();
      List<String> names = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        int start = b.position();
        while (b.get() != 0) {
          // scan to NUL
        }
        names.add(new String(body, start, b.position() - start - 1, StandardCharsets.UTF_8));
        b.position(b.position() + 18);
      }
      return names;
    }

    /** The format codes of a RowDescription. */
    List<Integer> columnFormats() {
      ByteBuffer b = ByteBuffer.wrap(body);
      int n = b.getShort();
      List<Integer> formats = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        while (b.get() != 0) {
          // scan to NUL
        }
        b.position(b.position() + 16);
        formats.add((int) b.getShort());
      }
      return formats;
    }

    @Override
    public String toString() {
      if (type == 'E' || type == 'N') {
        return type + fields().toString();
      }
      return type + "[" + body.length + "]";
    }
  }

  RawPgClient(int port) throws IOException {
    socket = new Socket("127.0.0.1", port);
    socket.setSoTimeout(30_000);
    in = new DataInputStream(socket.getInputStream());
    out = new DataOutputStream(socket.getOutputStream());
  }

  // ---- sending -------------------------------------------------------------------------------

  /** The socket's stream, for tests that write a message by hand in pieces. */
  OutputStream output() {
    return out;
  }

  void raw(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  void startup(int protocol, Map<String, String> parameters) throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    for (Map.Entry<String, String> p : parameters.entrySet()) {
      cstring(body, p.getKey());
      cstring(body, p.getValue());
    }
    body.write(0);
    out.writeInt(8 + body.size());
    out.writeInt(protocol);
    out.write(body.toByteArray());
    out.flush();
  }

  void startup(String user) throws IOException {
    startup(3 << 16, Map.of("user", user, "database", "rssd"));
  }

  /** An 8-byte request (SSLRequest, GSSENCRequest) and the one-byte answer. */
  char encryptionRequest(int code) throws IOException {
    out.writeInt(8);
    out.writeInt(code);
    out.flush();
    return (char) in.readUnsignedByte();
  }

  void send(char type, byte[] body) throws IOException {
    out.writeByte(type);
    out.writeInt(4 + body.length);
    out.write(body);
    out.flush();
  }

  void query(String sql) throws IOException {
    send('Q', cstring(sql));
  }

  void parse(String name, String sql, int... oids) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    cstring(b, name);
    cstring(b, sql);
    DataOutputStream d = new DataOutputStream(b);
    d.writeShort(oids.length);
    for (int oid : oids) {
      d.writeInt(oid);
    }
    send('P', b.toByteArray());
  }

  /** Bind with text parameters (null = NULL) and the given result formats. */
  void bind(String portal, String statement, List<String> values, int... resultFormats)
      throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    cstring(b, portal);
    cstring(b, statement);
    DataOutputStream d = new DataOutputStream(b);
    d.writeShort(0);
    d.writeShort(values.size());
    for (String v : values) {
      if (v == null) {
        d.writeInt(-1);
      } else {
        byte[] bytes = v.getBytes(StandardCharsets.UTF_8);
        d.writeInt(bytes.length);
        d.write(bytes);
      }
    }
    d.writeShort(resultFormats.length);
    for (int f : resultFormats) {
      d.writeShort(f);
    }
    send('B', b.toByteArray());
  }

  void describe(char kind, String name) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    b.write(kind);
    cstring(b, name);
    send('D', b.toByteArray());
  }

  void execute(String portal, int maxRows) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    cstring(b, portal);
    new DataOutputStream(b).writeInt(maxRows);
    send('E', b.toByteArray());
  }

  void close(char kind, String name) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    b.write(kind);
    cstring(b, name);
    send('C', b.toByteArray());
  }

  void sync() throws IOException {
    send('S', new byte[0]);
  }

  void flush() throws IOException {
    send('H', new byte[0]);
  }

  void terminate() throws IOException {
    send('X', new byte[0]);
  }

  static byte[] cstring(String s) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    cstring(b, s);
    return b.toByteArray();
  }

  static void cstring(ByteArrayOutputStream b, String s) {
    b.writeBytes(s.getBytes(StandardCharsets.UTF_8));
    b.write(0);
  }

  // ---- receiving -----------------------------------------------------------------------------

  Message read() throws IOException {
    char type = (char) in.readUnsignedByte();
    int length = in.readInt();
    byte[] body = new byte[length - 4];
    in.readFully(body);
    Message m = new Message(type, body);
    if (type == 'S') {
      String[] kv = m.text().split("\0", 2);
      parameterStatus.put(kv[0], kv.length > 1 ? kv[1] : "");
    }
    return m;
  }

  /** Messages up to and including ReadyForQuery. */
  List<Message> readUntilReady() throws IOException {
    List<Message> messages = new ArrayList<>();
    Message m;
    do {
      m = read();
      messages.add(m);
    } while (m.type() != 'Z');
    return messages;
  }

  /** The first message from the server, or null when it closed the connection without one. */
  Message firstReplyOrEnd() throws IOException {
    try {
      return read();
    } catch (EOFException | java.net.SocketException e) {
      return null;
    }
  }

  /** Whether the server closed the connection (reads to end of stream). */
  boolean closedByServer() throws IOException {
    try {
      while (in.read() >= 0) {
        // drain what is left
      }
      return true;
    } catch (EOFException | java.net.SocketException e) {
      return true;
    }
  }

  // ---- login ---------------------------------------------------------------------------------

  /** Startup and SCRAM-SHA-256 as a client does; returns the messages after AuthenticationOk. */
  List<Message> login(String user, String password) throws IOException {
    startup(user);
    Message sasl = read();
    if (sasl.type() != 'R' || ByteBuffer.wrap(sasl.body()).getInt() != 10) {
      throw new IOException("expected AuthenticationSASL, got " + sasl);
    }
    return scram(password);
  }

  List<Message> scram(String password) throws IOException {
    byte[] nonceBytes = new byte[18];
    new SecureRandom().nextBytes(nonceBytes);
    String clientNonce = Base64.getEncoder().encodeToString(nonceBytes);
    String bare = "n=,r=" + clientNonce;
    byte[] first = ("n,," + bare).getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    cstring(b, PgScram.MECHANISM);
    new DataOutputStream(b).writeInt(first.length);
    b.writeBytes(first);
    send('p', b.toByteArray());
    Message cont = read();
    if (cont.type() != 'R') {
      return List.of(cont);
    }
    String serverFirst = new String(cont.body(), 4, cont.body().length - 4, StandardCharsets.UTF_8);
    Map<String, String> attrs = new LinkedHashMap<>();
    for (String a : serverFirst.split(",")) {
      attrs.put(a.substring(0, 1), a.substring(2));
    }
    byte[] salted =
        PgScram.saltedPassword(
            password, Base64.getDecoder().decode(attrs.get("s")), Integer.parseInt(attrs.get("i")));
    byte[] clientKey = PgScram.hmac(salted, "Client Key");
    byte[] storedKey = PgScram.sha256(clientKey);
    String withoutProof = "c=biws,r=" + attrs.get("r");
    String authMessage = bare + "," + serverFirst + "," + withoutProof;
    byte[] signature = PgScram.hmac(storedKey, authMessage);
    byte[] proof = new byte[32];
    for (int i = 0; i < 32; i++) {
      proof[i] = (byte) (clientKey[i] ^ signature[i]);
    }
    send(
        'p',
        (withoutProof + ",p=" + Base64.getEncoder().encodeToString(proof))
            .getBytes(StandardCharsets.UTF_8));
    List<Message> after = new ArrayList<>();
    Message m;
    do {
      m = read();
      after.add(m);
      if (m.type() == 'K') {
        ByteBuffer k = ByteBuffer.wrap(m.body());
        processId = k.getInt();
        secretKey = k.getInt();
      }
    } while (m.type() != 'Z' && m.type() != 'E');
    return after;
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
