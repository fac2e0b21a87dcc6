package io.openrs.repagent;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;

/**
 * The agent's resume blob: what the server stores for the origin ({@code StoreResume}) and hands
 * back in the next {@code Welcome}, so the agent keeps no state of its own. It holds the Debezium
 * offsets (the log reader's position) and, for MariaDB/MySQL, Debezium's schema history.
 *
 * <pre>
 * offset 0       4         5       6               10          14
 *        +-------+---------+-------+---------------+-----------+------------------------+
 *        | "ORAB"| version | flags | bodyLength    | bodyCrc   | body (deflated when     |
 *        |       |  (u8)   | (u8)  | (u32)         | (u32)     | flags bit 0)            |
 *        +-------+---------+-------+---------------+-----------+------------------------+
 *        |<------------------- HEADER_SIZE = 14 ------------------->|
 *
 * bodyCrc is CRC-32C (Castagnoli) of the body bytes as stored; a blob whose length or CRC does
 * not match is refused as damaged.
 *
 * body (integers big-endian):
 *   offsetCount:u32, then per entry  keyLength:u32 key  valueLength:i32 (-1 = null) value
 *   historyCount:u32, then per record  length:u32 UTF-8 JSON of one schema history record
 * </pre>
 *
 * Keys and values of offsets are the bytes Debezium's offset store is given (JSON of the source
 * partition and offset). Version 1 is this layout; a reader refuses any other version, naming it.
 * An empty blob means "no position": the agent starts as on its first run.
 */
public final class ResumeBlob {

  static final byte[] MAGIC = {'O', 'R', 'A', 'B'};
  static final int VERSION_OFFSET = MAGIC.length;
  static final int FLAGS_OFFSET = VERSION_OFFSET + 1;
  static final int BODY_LENGTH_OFFSET = FLAGS_OFFSET + 1;
  static final int BODY_CRC_OFFSET = BODY_LENGTH_OFFSET + 4;
  static final int HEADER_SIZE = BODY_CRC_OFFSET + 4;

  /** Version 1: offsets and schema history, deflated. */
  static final int VERSION_1 = 1;

  static final int FLAG_DEFLATED = 1;

  /** The largest blob the server keeps (the wire protocol's limit). */
  public static final int MAX_BYTES = 1024 * 1024;

  private static final int MAX_ENTRY = 64 * 1024 * 1024;

  /** What a blob holds. */
  public record Contents(Map<ByteBuffer, ByteBuffer> offsets, List<String> schemaHistory) {
    public Contents {
      offsets = new LinkedHashMap<>(offsets);
      schemaHistory = List.copyOf(schemaHistory);
    }

    public static Contents empty() {
      return new Contents(Map.of(), List.of());
    }
  }

  private ResumeBlob() {}

  /**
   * @throws IOException when the encoded blob exceeds {@link #MAX_BYTES}
   */
  public static byte[] encode(Contents c) throws IOException {
    ByteArrayOutputStream raw = new ByteArrayOutputStream();
    Deflater deflater = new Deflater(Deflater.BEST_SPEED);
    try (DataOutputStream out =
        new DataOutputStream(new DeflaterOutputStream(raw, deflater, 8192))) {
      out.writeInt(c.offsets().size());
      for (Map.Entry<ByteBuffer, ByteBuffer> e : c.offsets().entrySet()) {
        writeBytes(out, e.getKey());
        if (e.getValue() == null) {
          out.writeInt(-1);
        } else {
          writeBytes(out, e.getValue());
        }
      }
      out.writeInt(c.schemaHistory().size());
      for (String h : c.schemaHistory()) {
        byte[] b = h.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
      }
    } finally {
      deflater.end();
    }
    byte[] body = raw.toByteArray();
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(body);
    byte[] blob =
        java.nio.ByteBuffer.allocate(HEADER_SIZE + body.length)
            .put(MAGIC)
            .put((byte) VERSION_1)
            .put((byte) FLAG_DEFLATED)
            .putInt(body.length)
            .putInt((int) crc.getValue())
            .put(body)
            .array();
    if (blob.length > MAX_BYTES) {
      throw new IOException(
          "the resume blob is "
              + blob.length
              + " bytes, more than the server keeps ("
              + MAX_BYTES
              + "); the schema history holds "
              + c.schemaHistory().size()
              + " records");
    }
    return blob;
  }

  /**
   * @throws IOException naming what is wrong: magic, version, or a length past the end
   */
  public static Contents decode(byte[] blob) throws IOException {
    if (blob.length == 0) {
      return Contents.empty();
    }
    if (blob.length < HEADER_SIZE) {
      throw new IOException("resume blob of " + blob.length + " bytes is shorter than its header");
    }
    for (int i = 0; i < MAGIC.length; i++) {
      if (blob[i] != MAGIC[i]) {
        throw new IOException("resume blob does not start with ORAB: not written by this agent");
      }
    }
    int version = blob[VERSION_OFFSET] & 0xff;
    if (version != VERSION_1) {
      throw new IOException(
          "resume blob version " + version + ", this agent reads version " + VERSION_1);
    }
    boolean deflated = (blob[FLAGS_OFFSET] & FLAG_DEFLATED) != 0;
    java.nio.ByteBuffer header = java.nio.ByteBuffer.wrap(blob);
    int bodyLength = header.getInt(BODY_LENGTH_OFFSET);
    if (bodyLength != blob.length - HEADER_SIZE) {
      throw new IOException(
          "resume blob body is "
              + (blob.length - HEADER_SIZE)
              + " bytes, its header says "
              + Integer.toUnsignedString(bodyLength));
    }
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(blob, HEADER_SIZE, bodyLength);
    int stored = header.getInt(BODY_CRC_OFFSET);
    if (stored != (int) crc.getValue()) {
      throw new IOException(
          String.format(
              "resume blob is damaged: stored crc=%08x, computed crc=%08x",
              stored, (int) crc.getValue()));
    }
    java.io.InputStream body =
        new java.io.ByteArrayInputStream(blob, HEADER_SIZE, blob.length - HEADER_SIZE);
    Inflater inflater = new Inflater();
    try (DataInputStream in =
        new DataInputStream(deflated ? new InflaterInputStream(body, inflater) : body)) {
      int n = count(in.readInt(), "offset entries");
      Map<ByteBuffer, ByteBuffer> offsets = new LinkedHashMap<>();
      for (int i = 0; i < n; i++) {
        ByteBuffer key = ByteBuffer.wrap(readBytes(in, in.readInt()));
        int vl = in.readInt();
        offsets.put(key, vl < 0 ? null : ByteBuffer.wrap(readBytes(in, vl)));
      }
      int h = count(in.readInt(), "schema history records");
      List<String> history = new ArrayList<>(h);
      for (int i = 0; i < h; i++) {
        history.add(
            new String(readBytes(in, in.readInt()), java.nio.charset.StandardCharsets.UTF_8));
      }
      return new Contents(offsets, history);
    } catch (java.io.EOFException e) {
      throw new IOException("resume blob is cut short", e);
    } catch (IOException e) {
      if (e.getCause() instanceof DataFormatException) {
        throw new IOException("resume blob body is damaged: " + e.getMessage(), e);
      }
      throw e;
    } finally {
      inflater.end();
    }
  }

  private static void writeBytes(DataOutputStream out, ByteBuffer b) throws IOException {
    ByteBuffer d = b.duplicate();
    out.writeInt(d.remaining());
    byte[] a = new byte[d.remaining()];
    d.get(a);
    out.write(a);
  }

  private static int count(int n, String what) throws IOException {
    if (n < 0 || n > 10_000_000) {
      throw new IOException("resume blob claims " + n + " " + what);
    }
    return n;
  }

  private static byte[] readBytes(DataInputStream in, int length) throws IOException {
    if (length < 0 || length > MAX_ENTRY) {
      throw new IOException("resume blob entry of " + length + " bytes");
    }
    byte[] b = new byte[length];
    in.readFully(b);
    return b;
  }
}
