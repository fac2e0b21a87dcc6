package io.openrs.wire;

import io.netty.channel.ChannelHandler;
import io.netty.handler.codec.compression.Lz4FrameDecoder;
import io.netty.handler.codec.compression.Lz4FrameEncoder;
import io.netty.handler.codec.compression.ZstdDecoder;
import io.netty.handler.codec.compression.ZstdEncoder;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * How the bytes of an LTL link are compressed after the {@link Frame.Welcome} (protocol version 4
 * on). The agent offers method names in its connect command, the server picks the first one it
 * allows and names it in the Welcome by {@link #code()} (u8). Each method is a stream of
 * self-delimiting compressed blocks that Netty's codecs write and read: a block is written whenever
 * the sender flushes (every frame is flushed), so compression never delays a frame.
 *
 * <ul>
 *   <li>{@link #LZ4}: the LZ4 frame format of Netty's {@link Lz4FrameEncoder} (blocks of at most 64
 *       KiB with an xxHash32 checksum), over lz4-java; little CPU, about 3-5x on LTL text.
 *   <li>{@link #ZSTD}: Zstandard frames of Netty's {@link ZstdEncoder} (level 3, blocks of at most
 *       64 KiB) over zstd-jni; more CPU, about 5-8x on LTL text. The reader allocates at most 4 MiB
 *       per block, so a hostile peer cannot make it inflate without bound.
 * </ul>
 */
public enum LtlCompression {
  /** Frames as they are. */
  NONE(0, "off"),
  /** LZ4 frames. */
  LZ4(1, "lz4"),
  /** Zstandard frames. */
  ZSTD(2, "zstd");

  /** Bytes compressed in one block, and so the most a receiver buffers for one block: 64 KiB. */
  public static final int BLOCK_SIZE = 64 * 1024;

  /** Zstandard level: 3, zstd's default, the usual balance of speed and ratio. */
  public static final int ZSTD_LEVEL = 3;

  /** Bound on the memory the zstd reader allocates for one block's output: 4 MiB. */
  public static final int ZSTD_MAX_ALLOCATION = 4 * 1024 * 1024;

  private final int code;
  private final String configName;

  LtlCompression(int code, String configName) {
    this.code = code;
    this.configName = configName;
  }

  /** The value in the Welcome's compression field. */
  public int code() {
    return code;
  }

  /** The name in connect commands and parameters ({@code off}, {@code lz4}, {@code zstd}). */
  public String configName() {
    return configName;
  }

  /** The method with wire code {@code code}, or empty for an unknown code. */
  public static Optional<LtlCompression> forCode(int code) {
    for (LtlCompression c : values()) {
      if (c.code == code) {
        return Optional.of(c);
      }
    }
    return Optional.empty();
  }

  /** The method named {@code name} (case-insensitive), or empty for an unknown name. */
  public static Optional<LtlCompression> byName(String name) {
    String n = name.strip().toLowerCase(Locale.ROOT);
    for (LtlCompression c : values()) {
      if (c.configName.equals(n)) {
        return Optional.of(c);
      }
    }
    return Optional.empty();
  }

  /**
   * The server's choice: the first of the agent's {@code offered} names (its preference order) that
   * names a method in {@code allowed}; {@link #NONE} when there is none. Names this code does not
   * know are skipped, so a newer agent may offer more.
   */
  public static LtlCompression choose(List<String> offered, Collection<LtlCompression> allowed) {
    for (String name : offered) {
      Optional<LtlCompression> c = byName(name);
      if (c.isPresent() && c.get() != NONE && allowed.contains(c.get())) {
        return c.get();
      }
    }
    return NONE;
  }

  /** A new compressing handler (one per channel); only for methods other than {@link #NONE}. */
  ChannelHandler newEncoder() {
    return switch (this) {
      case LZ4 -> new Lz4FrameEncoder(false); // the fast compressor, 64 KiB blocks
      case ZSTD -> new ZstdEncoder(ZSTD_LEVEL, BLOCK_SIZE, 32 * 1024 * 1024);
      case NONE -> throw new IllegalStateException("no encoder for " + this);
    };
  }

  /** A new decompressing handler (one per channel); only for methods other than {@link #NONE}. */
  ChannelHandler newDecoder() {
    return switch (this) {
      case LZ4 -> new Lz4FrameDecoder(true);
      case ZSTD -> new ZstdDecoder(ZSTD_MAX_ALLOCATION);
      case NONE -> throw new IllegalStateException("no decoder for " + this);
    };
  }
}
