package io.openrs.repagent;

import io.openrs.ltl.ByteBuilder;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TranId;
import io.openrs.ltl.text.LtlWriter;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.SequenceInputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Collects one origin transaction as LTL text until its commit, then hands it to the sender in
 * chunks of at most {@code ltl_batch_size} bytes.
 *
 * <p>Why it waits for the commit: an OQID is the transaction's commit position followed by the
 * command's index inside the transaction ({@code docs/ltl.md}), and PostgreSQL tells the commit
 * position only at the end of the transaction. So each command is written with a placeholder
 * position (zero bytes) and its final index, and the position is patched into every line's {@code
 * oqid 0x...} when the commit arrives. The OQID layout is {@code prefixBytes} bytes of commit
 * position, then the index (4 bytes, big-endian; {@code begin} is 0, the commit is the last).
 *
 * <p>Memory stays bounded: once a transaction's text exceeds {@code transaction_buffer_size} it is
 * spilled to a file in {@code data_directory} and read back in chunks at the commit.
 *
 * <p>Not thread-safe: owned by the log reader's (Debezium engine's) thread.
 */
final class TransactionAssembler implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(TransactionAssembler.class);
  private static final byte[] OQID_MARK = " oqid 0x".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
  static final int INDEX_BYTES = 4;

  /** Receives chunks; may block (bounded hand-off to the sender). */
  interface ChunkSink {
    void accept(LtlChunk chunk) throws InterruptedException;
  }

  private final int prefixBytes;
  private final int chunkBytes;
  private final long memoryLimit;
  private final Path spillDirectory;
  private final String spillPrefix;
  private final ChunkSink sink;
  private final AgentCounters counters;
  private final LtlWriter writer = new LtlWriter();
  private final ByteBuilder memory = new ByteBuilder(8192);

  private TranId tran;
  private Instant beginTime;
  private long nextIndex;
  private Path spill;
  private OutputStream spillOut;
  private Oqid lastEmitted;

  /**
   * For the commands whose text is in {@code memory} (none spilled yet): where each line ends and
   * where its {@code " oqid 0x"} mark starts, so the commit patches and cuts without scanning the
   * text again.
   */
  private int[] lineEnds = new int[256];

  private int[] marks = new int[256];
  private int lines;

  TransactionAssembler(
      int prefixBytes,
      int chunkBytes,
      long memoryLimit,
      Path spillDirectory,
      String spillPrefix,
      ChunkSink sink,
      AgentCounters counters) {
    this.prefixBytes = prefixBytes;
    this.chunkBytes = chunkBytes;
    this.memoryLimit = memoryLimit;
    this.spillDirectory = spillDirectory;
    this.spillPrefix = spillPrefix;
    this.sink = sink;
    this.counters = counters;
  }

  /** Builds one command of the open transaction from its transaction id and OQID. */
  interface CommandFactory {
    LtlCommand.InTransaction create(TranId tran, Oqid oqid);
  }

  boolean inTransaction() {
    return tran != null;
  }

  /** The OQID of the last command handed to the sender, if any. */
  Optional<Oqid> lastEmitted() {
    return Optional.ofNullable(lastEmitted);
  }

  /**
   * Opens a transaction. An unfinished one (its end never came, e.g. after the reader restarted
   * inside it) is discarded: the reader replays it whole.
   */
  void begin(TranId tran, Instant time, Optional<String> user) {
    if (this.tran != null) {
      LOG.info("transaction {} was not finished when {} began; discarding it", this.tran, tran);
      abort();
    }
    this.tran = tran;
    this.beginTime = time;
    this.nextIndex = 0;
    write(new LtlCommand.Begin(tran, placeholder(), time, user));
  }

  /** Adds a command to the open transaction. */
  void add(CommandFactory command) {
    if (tran == null) {
      throw new IllegalStateException("no transaction is open");
    }
    write(command.create(tran, placeholder()));
  }

  /**
   * Commits the open transaction at position {@code prefix} (exactly {@code prefixBytes} bytes) and
   * hands it to the sender. A transaction without commands (a heartbeat's, one of tables whose
   * changes are never sent) is sent too, as its begin and commit: the server's truncation point
   * then moves with the restart points the agent releases after it, so the primary's slot is never
   * confirmed past the last commit the server holds (the restart check, docs/repagent.md). The
   * server distributes nothing for it.
   *
   * @return the commit's OQID
   */
  Oqid commit(byte[] prefix, Instant commitTime) throws InterruptedException {
    if (tran == null) {
      throw new IllegalStateException("no transaction is open");
    }
    if (prefix.length != prefixBytes) {
      throw new IllegalArgumentException(
          "commit position of " + prefix.length + " bytes, expected " + prefixBytes);
    }
    write(new LtlCommand.Commit(tran, placeholder(), commitTime));
    try {
      emit(prefix, commitTime);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read back spilled transaction " + spill, e);
    } finally {
      reset();
    }
    return lastEmitted;
  }

  /** Drops the open transaction, if any. */
  void abort() {
    reset();
  }

  @Override
  public void close() {
    reset();
  }

  private void reset() {
    tran = null;
    beginTime = null;
    nextIndex = 0;
    lines = 0;
    memory.reset();
    if (spillOut != null) {
      try {
        spillOut.close();
      } catch (IOException e) {
        LOG.warn("cannot close spill file {}: {}", spill, e.toString());
      }
      spillOut = null;
    }
    if (spill != null) {
      try {
        Files.deleteIfExists(spill);
      } catch (IOException e) {
        LOG.warn("cannot delete spill file {}: {}", spill, e.toString());
      }
      spill = null;
    }
  }

  private Oqid placeholder() {
    byte[] b = new byte[prefixBytes + INDEX_BYTES];
    long index = nextIndex++;
    if (index > 0xFFFF_FFFFL) {
      throw new IllegalStateException("transaction " + tran + " has more than 2^32 commands");
    }
    for (int i = 0; i < INDEX_BYTES; i++) {
      b[prefixBytes + i] = (byte) (index >>> (8 * (INDEX_BYTES - 1 - i)));
    }
    return Oqid.of(b);
  }

  private void write(LtlCommand command) {
    int start = memory.size();
    writer.write(command, memory);
    if (spill == null) {
      if (lines == lineEnds.length) {
        lineEnds = java.util.Arrays.copyOf(lineEnds, lines * 2);
        marks = java.util.Arrays.copyOf(marks, lines * 2);
      }
      lineEnds[lines] = memory.size();
      marks[lines] = mark(memory.array(), start, memory.size() - start);
      lines++;
    }
    if (memory.size() >= memoryLimit) {
      try {
        if (spillOut == null) {
          Files.createDirectories(spillDirectory);
          spill = Files.createTempFile(spillDirectory, spillPrefix, ".ltl");
          spillOut = Files.newOutputStream(spill);
          counters.increment(AgentCounter.RA_TRANSACTIONS_SPILLED);
          LOG.info(
              "transaction {} exceeds transaction_buffer_size ({} bytes): spilling to {}",
              tran,
              memoryLimit,
              spill);
        }
        spillOut.write(memory.array(), 0, memory.size());
        memory.reset();
        lines = 0;
      } catch (IOException e) {
        throw new UncheckedIOException("cannot spill transaction " + tran + " to " + spill, e);
      }
    }
  }

  /** Patches the OQIDs of the transaction's text and sends it in chunks. */
  private void emit(byte[] prefix, Instant commitTime) throws IOException, InterruptedException {
    if (spill == null) {
      emitFromMemory(prefix, commitTime);
    } else {
      emitSpilled(prefix, commitTime);
    }
  }

  /** The whole text is in memory and its lines are known: patch in place, cut whole chunks. */
  private void emitFromMemory(byte[] prefix, Instant commitTime) throws InterruptedException {
    byte[] prefixHex = hex(prefix);
    byte[] a = memory.array();
    int chunkStart = 0;
    int chunkCommands = 0;
    int lineStart = 0;
    for (int i = 0; i < lines; i++) {
      int lineEnd = lineEnds[i];
      if (chunkCommands > 0 && lineEnd - chunkStart > chunkBytes) {
        send(
            java.util.Arrays.copyOfRange(a, chunkStart, lineStart),
            chunkCommands,
            prefix,
            i - 1,
            Optional.empty());
        chunkStart = lineStart;
        chunkCommands = 0;
      }
      System.arraycopy(prefixHex, 0, a, marks[i] + OQID_MARK.length, prefixHex.length);
      chunkCommands++;
      lineStart = lineEnd;
    }
    if (chunkCommands > 0) {
      send(
          java.util.Arrays.copyOfRange(a, chunkStart, lineStart),
          chunkCommands,
          prefix,
          lines - 1,
          Optional.of(commitTime));
    }
  }

  /** Reads the spilled transaction's text back line by line, patches the OQIDs, sends chunks. */
  private void emitSpilled(byte[] prefix, Instant commitTime)
      throws IOException, InterruptedException {
    InputStream in = new ByteArrayInputStream(memory.array(), 0, memory.size());
    if (spillOut != null) {
      spillOut.close();
      spillOut = null;
      in = new SequenceInputStream(Files.newInputStream(spill), in);
    }
    byte[] prefixHex = hex(prefix);
    long index = 0;
    ByteBuilder chunk = new ByteBuilder(Math.min(chunkBytes + 1024, 1 << 20));
    int chunkCommands = 0;
    byte[] buf = new byte[64 * 1024];
    int len = 0;
    try (InputStream input = in) {
      while (true) {
        int n = input.read(buf, len, buf.length - len);
        boolean eof = n < 0;
        if (!eof) {
          len += n;
        }
        int start = 0;
        for (int i = 0; i < len; i++) {
          if (buf[i] != '\n') {
            continue;
          }
          int lineLength = i + 1 - start;
          if (chunkCommands > 0 && chunk.size() + lineLength > chunkBytes) {
            send(chunk.toByteArray(), chunkCommands, prefix, index - 1, Optional.empty());
            chunk.reset();
            chunkCommands = 0;
          }
          int at = chunk.size();
          chunk.append(buf, start, lineLength);
          patch(chunk.array(), at, lineLength, prefixHex);
          chunkCommands++;
          index++;
          start = i + 1;
        }
        System.arraycopy(buf, start, buf, 0, len - start);
        len -= start;
        if (eof) {
          if (len != 0) {
            throw new IOException("transaction text ends inside a line");
          }
          break;
        }
        if (len == buf.length) {
          buf = java.util.Arrays.copyOf(buf, buf.length * 2);
        }
      }
    }
    if (chunkCommands > 0) {
      send(chunk.toByteArray(), chunkCommands, prefix, index - 1, Optional.of(commitTime));
    }
  }

  private void send(
      byte[] text, int commands, byte[] prefix, long lastIndex, Optional<Instant> commit)
      throws InterruptedException {
    Oqid last = oqid(prefix, lastIndex);
    sink.accept(new LtlChunk(text, commands, last, commit));
    lastEmitted = last;
  }

  /** {@code prefix} followed by {@code index} as 4 bytes. */
  static Oqid oqid(byte[] prefix, long index) {
    byte[] b = java.util.Arrays.copyOf(prefix, prefix.length + INDEX_BYTES);
    for (int i = 0; i < INDEX_BYTES; i++) {
      b[prefix.length + i] = (byte) (index >>> (8 * (INDEX_BYTES - 1 - i)));
    }
    return Oqid.of(b);
  }

  private void patch(byte[] a, int lineStart, int lineLength, byte[] prefixHex) {
    int at = mark(a, lineStart, lineLength);
    System.arraycopy(prefixHex, 0, a, at + OQID_MARK.length, prefixHex.length);
  }

  /** Where the line's {@code " oqid 0x"} mark starts (it comes before any value). */
  private int mark(byte[] a, int lineStart, int lineLength) {
    int end = lineStart + lineLength - OQID_MARK.length;
    for (int i = lineStart; i <= end; i++) {
      if (a[i] == ' ' && a[i + 1] == 'o' && matches(a, i)) {
        return i;
      }
    }
    throw new IllegalStateException("an LTL line without ' oqid 0x': " + tran);
  }

  private static boolean matches(byte[] a, int at) {
    for (int j = 0; j < OQID_MARK.length; j++) {
      if (a[at + j] != OQID_MARK[j]) {
        return false;
      }
    }
    return true;
  }

  private static byte[] hex(byte[] bytes) {
    byte[] out = new byte[bytes.length * 2];
    for (int i = 0; i < bytes.length; i++) {
      out[2 * i] = HEX[(bytes[i] >> 4) & 0xf];
      out[2 * i + 1] = HEX[bytes[i] & 0xf];
    }
    return out;
  }

  /** When the open transaction began (for logs). */
  Optional<Instant> beginTime() {
    return Optional.ofNullable(beginTime);
  }
}
