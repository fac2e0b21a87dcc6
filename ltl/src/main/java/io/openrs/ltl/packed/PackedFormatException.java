package io.openrs.ltl.packed;

/** A packed command that cannot be decoded: names the offset in the message and what was wrong. */
public final class PackedFormatException extends Exception {
  private static final long serialVersionUID = 1L;

  private final long offset;

  public PackedFormatException(long offset, String problem) {
    super("malformed packed LTL command at byte " + offset + ": " + problem);
    this.offset = offset;
  }

  /** Byte offset within the decoded buffer where the problem was found. */
  public long offset() {
    return offset;
  }
}
