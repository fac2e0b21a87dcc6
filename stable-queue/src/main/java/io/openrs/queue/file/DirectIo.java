package io.openrs.queue.file;

import com.sun.nio.file.ExtendedOpenOption;
import io.openrs.queue.InvalidSettingException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** {@code sqm_write_flush=dio}: direct I/O through the JDK's {@code ExtendedOpenOption.DIRECT}. */
final class DirectIo {

  private DirectIo() {}

  static OpenOption directOption() {
    return ExtendedOpenOption.DIRECT;
  }

  /**
   * Proves at configuration time that direct I/O works in {@code directory}: writes one aligned
   * block to a probe file opened with {@code O_DIRECT}.
   *
   * @throws InvalidSettingException naming {@code sqm_write_flush} and the reason otherwise
   */
  static void check(Path directory, int blockSize) {
    Path probe = directory.resolve("dio-probe" + SegmentFiles.TMP_SUFFIX);
    try {
      int align = (int) Files.getFileStore(directory).getBlockSize();
      if (blockSize % align != 0) {
        throw new IOException(
            "block_size " + blockSize + " is not a multiple of the file system block " + align);
      }
      try (FileChannel ch =
          FileChannel.open(
              probe,
              StandardOpenOption.CREATE,
              StandardOpenOption.WRITE,
              StandardOpenOption.DELETE_ON_CLOSE,
              ExtendedOpenOption.DIRECT)) {
        ByteBuffer block = ByteBuffer.allocateDirect(blockSize + align).alignedSlice(align);
        block.limit(blockSize);
        ch.write(block, 0);
      }
    } catch (IOException | UnsupportedOperationException e) {
      throw new InvalidSettingException(
          "sqm_write_flush",
          "dio",
          "'on' or 'off' here: direct I/O is not available in " + directory + " (" + e + ")",
          e);
    }
  }
}
