package io.openrs.queue;

import java.util.Locale;

/** {@code sqm_write_flush}: when a write counts as durable. */
public enum WriteFlush {
  /** Force written blocks to the device (fdatasync) before acknowledging them. */
  ON,
  /** Acknowledge once the blocks are in the operating system's cache. Lost on an OS crash. */
  OFF,
  /**
   * Direct I/O ({@code O_DIRECT}) plus a force before acknowledging; refused at configuration time
   * where the JDK or the file system does not allow it.
   */
  DIO;

  /** Parses the configuration value {@code on}, {@code off} or {@code dio} (any case). */
  public static WriteFlush parse(String text) {
    return switch (text.trim().toLowerCase(Locale.ROOT)) {
      case "on" -> ON;
      case "off" -> OFF;
      case "dio" -> DIO;
      default ->
          throw new InvalidSettingException(
              "sqm_write_flush", text, "one of 'on', 'off', 'dio'", null);
    };
  }

  /** The configuration value: {@code on}, {@code off} or {@code dio}. */
  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}
