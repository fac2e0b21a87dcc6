package io.openrs.config.param;

/**
 * How a parameter's text is read. Values are text in the start-up file, in RCL commands and in the
 * RSSD; {@link Parameter#normalize} turns accepted text into one canonical form.
 */
public enum ParamType {
  /** A decimal integer within the parameter's range; the unit is in {@link Parameter#unit()}. */
  INTEGER("integer"),
  /**
   * A count of bytes: a decimal integer, optionally followed by {@code k}, {@code m} or {@code g}
   * (any case; binary multiples: {@code 64k} = 65536). Canonical form: plain bytes.
   */
  BYTES("bytes"),
  /** {@code on} or {@code off}; {@code true}/{@code false} are accepted too. Canonical: on/off. */
  BOOLEAN("on/off"),
  /** One of the parameter's allowed values, any case. Canonical: lower case. */
  ENUM("enum"),
  /**
   * A comma-separated list of distinct allowed values, or {@code none} alone. Canonical: lower
   * case, in the order of the allowed values, joined by commas without blanks.
   */
  ENUM_SET("list"),
  /** Free text; where the parameter has a range, it bounds the length in characters. */
  STRING("string"),
  /** A decimal integer number of milliseconds within the parameter's range. */
  DURATION_MS("milliseconds"),
  /** A file system path; a relative one is resolved against the start-up file's directory. */
  PATH("path");

  private final String label;

  ParamType(String label) {
    this.label = label;
  }

  /** The word used in the docs' tables. */
  public String label() {
    return label;
  }

  /** Integer-valued: INTEGER, BYTES and DURATION_MS have a numeric range. */
  public boolean isNumeric() {
    return this == INTEGER || this == BYTES || this == DURATION_MS;
  }
}
