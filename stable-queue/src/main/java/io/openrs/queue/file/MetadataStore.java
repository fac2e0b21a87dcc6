package io.openrs.queue.file;

import io.openrs.queue.QueueCorruptedException;
import io.openrs.queue.QueueException;
import io.openrs.queue.QueueId;
import io.openrs.queue.QueuePosition;
import io.openrs.queue.QueueType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * Keeps a queue's {@link QueueMetadata} in two alternating copies ({@code .meta.0}, {@code
 * .meta.1}) so that a crash while rewriting one leaves the other intact (H2 file headers). A save
 * overwrites the copy with the older generation and forces it; a load takes the valid copy with the
 * highest generation. All integers big-endian:
 *
 * <pre>
 * offset size field
 *  0     4    magic          0x4F52534D ("ORSM")
 *  4     2    version        1 (first format)
 *  6     2    reserved       0
 *  8     4    crc            CRC32C of bytes [12, 16 + bodyLength)
 * 12     4    bodyLength     bytes of body, at most MAX_BODY_BYTES
 * 16          HEADER_SIZE
 * body: generation i64, queueNumber i32, queueType u8, blockSize i32, segmentSize i64,
 *       firstSegment i64, readerCount i32, then per reader:
 *       nameLength u16, name UTF-8, hasConfirmed u8, segment i64, block i32, row i32
 * </pre>
 *
 * <p>Thread-safe: {@link #save} is synchronized; callers build the snapshot inside it.
 */
final class MetadataStore {

  static final int MAGIC = 0x4F52534D;

  /** 1: first format. */
  static final short VERSION_1 = 1;

  static final int MAGIC_OFFSET = 0;
  static final int VERSION_OFFSET = MAGIC_OFFSET + 4;
  static final int RESERVED_OFFSET = VERSION_OFFSET + 2;
  static final int CRC_OFFSET = RESERVED_OFFSET + 2;
  static final int BODY_LENGTH_OFFSET = CRC_OFFSET + 4;
  static final int HEADER_SIZE = BODY_LENGTH_OFFSET + 4;
  static final int MAX_BODY_BYTES = 16 * 1024 * 1024;

  private final QueueId queue;
  private final Path[] copies;
  private long generation;

  MetadataStore(Path stateDirectory, QueueId queue) {
    this.queue = queue;
    this.copies =
        new Path[] {
          stateDirectory.resolve(SegmentFiles.metadataFileName(queue, 0)),
          stateDirectory.resolve(SegmentFiles.metadataFileName(queue, 1))
        };
  }

  boolean exists() {
    return Files.exists(copies[0]) || Files.exists(copies[1]);
  }

  /** The newest valid copy; empty if neither file exists; an error if both exist but are bad. */
  synchronized Optional<QueueMetadata> load() {
    QueueMetadata best = null;
    List<String> problems = new ArrayList<>();
    boolean anyFile = false;
    for (Path copy : copies) {
      byte[] bytes;
      try {
        bytes = Files.readAllBytes(copy);
      } catch (NoSuchFileException e) {
        continue;
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + copy, e);
      }
      anyFile = true;
      try {
        QueueMetadata m = decode(ByteBuffer.wrap(bytes));
        if (best == null || m.generation() > best.generation()) {
          best = m;
        }
      } catch (IllegalStateException e) {
        problems.add(copy + ": " + e.getMessage());
      }
    }
    if (best == null && anyFile) {
      throw new QueueCorruptedException(
          queue, 0, copies[0], 0, "no valid metadata copy: " + String.join("; ", problems));
    }
    if (best != null) {
      generation = best.generation();
    }
    return Optional.ofNullable(best);
  }

  /** Writes {@code snapshot} (its generation is replaced by the next one) and forces it. */
  synchronized void save(QueueMetadata snapshot) {
    long next = generation + 1;
    QueueMetadata m =
        new QueueMetadata(
            next,
            snapshot.queue(),
            snapshot.blockSizeBytes(),
            snapshot.segmentSizeBytes(),
            snapshot.firstSegment(),
            snapshot.readers());
    ByteBuffer bytes = encode(m);
    Path target = copies[(int) (next % 2)];
    boolean created = Files.notExists(target);
    try (FileChannel ch =
        FileChannel.open(
            target,
            Set.of(
                StandardOpenOption.CREATE,
                StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING),
            PrivateModes.file(target))) {
      while (bytes.hasRemaining()) {
        ch.write(bytes);
      }
      ch.force(true);
    } catch (IOException e) {
      throw new QueueException(queue, "cannot write metadata " + target, e);
    }
    if (created) {
      // The new directory entry must survive a crash too (each copy is created once).
      try {
        SegmentFiles.forceDirectory(target.getParent());
      } catch (IOException e) {
        throw new QueueException(queue, "cannot force " + target.getParent(), e);
      }
    }
    generation = next;
  }

  /** Renames both copies to {@code .deleted} (first step of dropping the queue). */
  synchronized void markDeleted() throws IOException {
    for (Path copy : copies) {
      if (Files.exists(copy)) {
        Files.move(
            copy,
            copy.resolveSibling(copy.getFileName() + SegmentFiles.DELETED_SUFFIX),
            StandardCopyOption.ATOMIC_MOVE);
      }
    }
    SegmentFiles.forceDirectory(copies[0].getParent());
  }

  /** Deletes the {@code .deleted} copies (last step of dropping the queue). */
  synchronized void deleteMarked() throws IOException {
    for (Path copy : copies) {
      Files.deleteIfExists(copy.resolveSibling(copy.getFileName() + SegmentFiles.DELETED_SUFFIX));
    }
  }

  static ByteBuffer encode(QueueMetadata m) {
    ByteBuffer body = ByteBuffer.allocate(64 + m.readers().size() * 300);
    body.putLong(m.generation());
    body.putInt(m.queue().number());
    body.put((byte) m.queue().type().code());
    body.putInt(m.blockSizeBytes());
    body.putLong(m.segmentSizeBytes());
    body.putLong(m.firstSegment());
    body.putInt(m.readers().size());
    for (QueueMetadata.ReaderMark r : m.readers()) {
      byte[] name = r.name().getBytes(StandardCharsets.UTF_8);
      body.putShort((short) name.length);
      body.put(name);
      body.put((byte) (r.confirmed().isPresent() ? 1 : 0));
      QueuePosition p = r.confirmed().orElse(new QueuePosition(0, 0, 0));
      body.putLong(p.segment());
      body.putInt(p.block());
      body.putInt(p.row());
    }
    body.flip();
    ByteBuffer out = ByteBuffer.allocate(HEADER_SIZE + body.remaining());
    out.putInt(MAGIC_OFFSET, MAGIC);
    out.putShort(VERSION_OFFSET, VERSION_1);
    out.putShort(RESERVED_OFFSET, (short) 0);
    out.putInt(BODY_LENGTH_OFFSET, body.remaining());
    out.position(HEADER_SIZE);
    out.put(body);
    CRC32C crc = new CRC32C();
    crc.update(out.array(), BODY_LENGTH_OFFSET, out.capacity() - BODY_LENGTH_OFFSET);
    out.putInt(CRC_OFFSET, (int) crc.getValue());
    out.position(0);
    return out;
  }

  /** Decodes and checks one copy; {@link IllegalStateException} with the numbers if damaged. */
  static QueueMetadata decode(ByteBuffer in) {
    if (in.remaining() < HEADER_SIZE) {
      throw new IllegalStateException(
          "only " + in.remaining() + " bytes, header needs " + HEADER_SIZE);
    }
    int magic = in.getInt(MAGIC_OFFSET);
    if (magic != MAGIC) {
      throw new IllegalStateException(String.format("magic=0x%08X, expected 0x%08X", magic, MAGIC));
    }
    short version = in.getShort(VERSION_OFFSET);
    if (version != VERSION_1) {
      throw new IllegalStateException("metadata version " + version + ", this build reads 1..1");
    }
    int bodyLength = in.getInt(BODY_LENGTH_OFFSET);
    if (bodyLength < 0 || bodyLength > MAX_BODY_BYTES || HEADER_SIZE + bodyLength > in.limit()) {
      throw new IllegalStateException(
          "bodyLength=" + bodyLength + " with " + (in.limit() - HEADER_SIZE) + " bytes present");
    }
    CRC32C crc = new CRC32C();
    ByteBuffer covered = in.duplicate();
    covered.position(BODY_LENGTH_OFFSET).limit(HEADER_SIZE + bodyLength);
    crc.update(covered);
    int stored = in.getInt(CRC_OFFSET);
    if (stored != (int) crc.getValue()) {
      throw new IllegalStateException(
          String.format("stored crc=0x%08X, computed crc=0x%08X", stored, (int) crc.getValue()));
    }
    ByteBuffer body = in.duplicate();
    body.position(HEADER_SIZE).limit(HEADER_SIZE + bodyLength);
    try {
      long generation = body.getLong();
      QueueId queue = new QueueId(body.getInt(), QueueType.ofCode(body.get()));
      int blockSize = body.getInt();
      long segmentSize = body.getLong();
      long firstSegment = body.getLong();
      int readerCount = body.getInt();
      if (readerCount < 0 || readerCount > bodyLength / 20) {
        throw new IllegalStateException("readerCount=" + readerCount);
      }
      List<QueueMetadata.ReaderMark> readers = new ArrayList<>(readerCount);
      for (int i = 0; i < readerCount; i++) {
        byte[] name = new byte[Short.toUnsignedInt(body.getShort())];
        body.get(name);
        boolean has = body.get() != 0;
        QueuePosition p = new QueuePosition(body.getLong(), body.getInt(), body.getInt());
        readers.add(
            new QueueMetadata.ReaderMark(
                new String(name, StandardCharsets.UTF_8), has ? Optional.of(p) : Optional.empty()));
      }
      return new QueueMetadata(generation, queue, blockSize, segmentSize, firstSegment, readers);
    } catch (java.nio.BufferUnderflowException | IllegalArgumentException e) {
      throw new IllegalStateException("malformed body: " + e, e);
    }
  }
}
