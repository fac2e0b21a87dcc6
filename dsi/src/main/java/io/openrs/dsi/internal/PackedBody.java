package io.openrs.dsi.internal;

import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.LtlCommand.InTransaction;
import io.openrs.ltl.packed.OriginEnvelope;
import io.openrs.ltl.packed.PackedDecoder;
import io.openrs.ltl.packed.PackedFormatException;
import io.openrs.ltl.packed.PackedRowReader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The commands of a held transaction (between begin and commit) in their packed form, as read from
 * the outbound queue: the packed commands of its messages, envelopes stripped, back to back in one
 * array ({@link io.openrs.ltl.packed.PackedFormat}). HVAR holds transactions this way from DSI-S to
 * the end of their group: in the hand-off and while the group keeps them for a fallback they take
 * about their queue bytes in one object, where decoded commands take some forty objects and ten
 * times the bytes each, which every young collection would copy. The compiler reads the row
 * commands in place ({@link #rows}); continuous mode decodes them ({@link #decode}).
 *
 * <p>DSI-S has read every command's frame (that is how it found the run's boundaries) and decoded
 * the ones that are not rows; a row's body is first read and checked where it is compiled or
 * decoded. Also kept: how many commands of each kind it holds, so the counters and the grouping
 * rules need no decoding. Immutable.
 */
final class PackedBody {
  private final byte[] bytes;
  private final int length;
  private final int commands;
  private final int inserts;
  private final int updates;
  private final int deletes;
  private final boolean ddl;
  private final boolean truncate;

  private PackedBody(
      byte[] bytes,
      int length,
      int commands,
      int inserts,
      int updates,
      int deletes,
      boolean ddl,
      boolean truncate) {
    this.bytes = bytes;
    this.length = length;
    this.commands = commands;
    this.inserts = inserts;
    this.updates = updates;
    this.deletes = deletes;
    this.ddl = ddl;
    this.truncate = truncate;
  }

  /** Commands held. */
  int commands() {
    return commands;
  }

  int inserts() {
    return inserts;
  }

  int updates() {
    return updates;
  }

  int deletes() {
    return deletes;
  }

  /** True if a DDL command is among them. */
  boolean hasDdl() {
    return ddl;
  }

  /** True if a truncate is among them. */
  boolean hasTruncate() {
    return truncate;
  }

  /** Bytes of the packed commands. */
  int length() {
    return length;
  }

  /** About the heap it takes: the array and this object. */
  long heapBytes() {
    return bytes.length + 64L;
  }

  /** {@code reader}, reset on the commands (to read them in place, once). */
  PackedRowReader rows(PackedRowReader reader) {
    try {
      return reader.reset(bytes, 0, length);
    } catch (PackedFormatException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The commands, decoded afresh at each call (nothing decoded is kept here).
   *
   * @throws IllegalStateException if the bytes do not decode to the commands DSI-S framed
   */
  List<InTransaction> decode() {
    List<InTransaction> out = new ArrayList<>(commands);
    try {
      new PackedDecoder()
          .decodeAll(
              bytes,
              0,
              length,
              c -> {
                if (!(c instanceof InTransaction in)) {
                  throw new IllegalStateException("a packed body holds " + c);
                }
                out.add(in);
              });
    } catch (PackedFormatException e) {
      throw new IllegalStateException("a held transaction does not decode: " + e, e);
    }
    if (out.size() != commands) {
      throw new IllegalStateException(
          "a held transaction decoded to " + out.size() + " commands, " + commands + " were read");
    }
    return out;
  }

  /**
   * Collects one transaction's commands at a time. Not thread-safe: owned by DSI-S. Keeps one
   * buffer between transactions (up to {@link #RETAINED_MAX_BYTES}).
   */
  static final class Builder {
    private static final int INITIAL_BYTES = 16 * 1024;

    /** A buffer grown past this is handed on or dropped with its transaction, not kept. */
    static final int RETAINED_MAX_BYTES = 1024 * 1024;

    private byte[] buf = new byte[INITIAL_BYTES];
    private int length;
    private int commands;
    private int inserts;
    private int updates;
    private int deletes;
    private boolean ddl;
    private boolean truncate;

    /**
     * Adds the row command of kind {@code kind} the origin envelope {@code message} holds (exactly
     * its packed form after the envelope's header).
     */
    void addRow(byte[] message, PackedRowReader.Kind kind) {
      copy(message);
      switch (kind) {
        case INSERT -> inserts++;
        case UPDATE -> updates++;
        case DELETE -> deletes++;
        default -> throw new IllegalArgumentException("not a row command: " + kind);
      }
    }

    private void copy(byte[] message) {
      int n = message.length - OriginEnvelope.HEADER_SIZE;
      if (buf.length - length < n) {
        buf = Arrays.copyOf(buf, Math.max(length + n, buf.length * 2));
      }
      System.arraycopy(message, OriginEnvelope.HEADER_SIZE, buf, length, n);
      length += n;
      commands++;
    }

    /**
     * Adds {@code cmd}, read from the origin envelope {@code message} (which holds exactly its
     * packed form after the envelope's header).
     */
    void add(byte[] message, InTransaction cmd) {
      copy(message);
      if (cmd instanceof LtlCommand.Insert) {
        inserts++;
      } else if (cmd instanceof LtlCommand.Update) {
        updates++;
      } else if (cmd instanceof LtlCommand.Delete) {
        deletes++;
      } else if (cmd instanceof LtlCommand.Ddl) {
        ddl = true;
      } else if (cmd instanceof LtlCommand.Truncate) {
        truncate = true;
      }
    }

    /** Commands added since the last {@link #build} or {@link #reset}. */
    int commands() {
      return commands;
    }

    /** The commands added, as one body; the builder starts empty again. */
    PackedBody build() {
      byte[] out;
      if (buf.length <= RETAINED_MAX_BYTES) {
        out = Arrays.copyOf(buf, length);
      } else {
        // a large transaction: hand the buffer on when it is mostly full rather than hold a second
        // copy of it for a moment; either way the next transaction starts with a small buffer
        out = length >= buf.length - buf.length / 4 ? buf : Arrays.copyOf(buf, length);
        buf = new byte[INITIAL_BYTES];
      }
      PackedBody b =
          new PackedBody(out, length, commands, inserts, updates, deletes, ddl, truncate);
      reset();
      return b;
    }

    /** Forgets the commands added (a dropped run). */
    void reset() {
      if (buf.length > RETAINED_MAX_BYTES) {
        buf = new byte[INITIAL_BYTES];
      }
      length = 0;
      commands = 0;
      inserts = 0;
      updates = 0;
      deletes = 0;
      ddl = false;
      truncate = false;
    }
  }
}
