package io.openrs.pgwire;

/**
 * The column types a {@link PgBackend} may return, with the PostgreSQL type OIDs clients know them
 * by. Values go out in text format unless the client asks for binary in Bind (every type here has a
 * binary form too). Which Java values each type takes is in {@link PgResult}.
 */
public enum PgType {
  /** {@code text}: any value, sent as its {@code toString()}. */
  TEXT(25, "text", -1),
  /** {@code int4}: Integer (or any integral number that fits 32 bits). */
  INT4(23, "int4", 4),
  /** {@code int8}: Long (or any integral number that fits 64 bits). */
  INT8(20, "int8", 8),
  /** {@code float8}: Double (or any Number). */
  FLOAT8(701, "float8", 8),
  /** {@code numeric}: BigDecimal (or any Number). */
  NUMERIC(1700, "numeric", -1),
  /** {@code bool}: Boolean. */
  BOOL(16, "bool", 1),
  /**
   * {@code timestamptz}: Instant, OffsetDateTime or ZonedDateTime; shown in the session's TimeZone.
   */
  TIMESTAMPTZ(1184, "timestamptz", 8),
  /** {@code bytea}: byte[]; text form is PostgreSQL's hex format {@code \x0a1b}. */
  BYTEA(17, "bytea", -1);

  private final int oid;
  private final String typeName;
  private final int typeLength;

  PgType(int oid, String typeName, int typeLength) {
    this.oid = oid;
    this.typeName = typeName;
    this.typeLength = typeLength;
  }

  /** The type's OID in PostgreSQL's catalog ({@code pg_type.oid}), as sent in RowDescription. */
  public int oid() {
    return oid;
  }

  /** PostgreSQL's name of the type ({@code pg_type.typname}). */
  public String typeName() {
    return typeName;
  }

  /** {@code pg_type.typlen}: bytes of the binary form, -1 for variable length. */
  public int typeLength() {
    return typeLength;
  }
}
