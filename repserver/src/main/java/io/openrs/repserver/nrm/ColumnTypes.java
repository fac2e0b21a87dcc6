package io.openrs.repserver.nrm;

import io.openrs.ltl.Value;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The datatypes a replication definition may declare for a column and which LTL values each
 * accepts. Declared types are written as a DBA writes them ({@code int}, {@code varchar(40)},
 * {@code numeric(12,2)}, {@code timestamp with time zone}); length, precision and scale are not
 * checked here (the replicate enforces them).
 */
public final class ColumnTypes {

  /** A family of declared types and the value kinds it accepts. */
  public enum Family {
    INTEGER(
        Value.Int16.class,
        Value.Int32.class,
        Value.Int64.class,
        Value.Decimal.class,
        Value.Bool.class),
    DECIMAL(Value.Decimal.class, Value.Int16.class, Value.Int32.class, Value.Int64.class),
    FLOAT(
        Value.Float32.class,
        Value.Float64.class,
        Value.Decimal.class,
        Value.Int16.class,
        Value.Int32.class,
        Value.Int64.class),
    TEXT(Value.Text.class),
    BINARY(Value.Binary.class),
    BOOLEAN(Value.Bool.class, Value.Int16.class, Value.Int32.class),
    DATE(Value.Date.class),
    TIME(Value.Time.class),
    TIMESTAMP(Value.Timestamp.class),
    TIMESTAMPTZ(Value.TimestampTz.class),
    UUID(Value.Uuid.class, Value.Text.class),
    JSON(Value.Json.class, Value.Text.class);

    private final Set<Class<? extends Value>> accepted;

    @SafeVarargs
    Family(Class<? extends Value>... accepted) {
      this.accepted = Set.of(accepted);
    }

    /**
     * Whether a value of this kind may go into a column of this family. Null always may; so may a
     * value in the source database's own text form ({@link Value.Native}: the replicate's type
     * reads it, or the DSI refuses it naming the column); NaN and infinities where the family's
     * type has them.
     */
    public boolean accepts(Value v) {
      return v instanceof Value.Null
          || v instanceof Value.Unchanged
          || v instanceof Value.Native
          || accepted.contains(v.getClass())
          || (v instanceof Value.NonFinite n && hasNonFinite(n.domain()));
    }

    private boolean hasNonFinite(Value.NonFinite.Domain domain) {
      return switch (this) {
        case DECIMAL, FLOAT -> domain == Value.NonFinite.Domain.DEC;
        case DATE -> domain == Value.NonFinite.Domain.DATE;
        case TIMESTAMP -> domain == Value.NonFinite.Domain.TS;
        case TIMESTAMPTZ -> domain == Value.NonFinite.Domain.TSTZ;
        default -> false;
      };
    }
  }

  private static final Map<String, Family> FAMILIES =
      Map.ofEntries(
          Map.entry("tinyint", Family.INTEGER),
          Map.entry("smallint", Family.INTEGER),
          Map.entry("int", Family.INTEGER),
          Map.entry("integer", Family.INTEGER),
          Map.entry("bigint", Family.INTEGER),
          Map.entry("mediumint", Family.INTEGER),
          Map.entry("int2", Family.INTEGER),
          Map.entry("int4", Family.INTEGER),
          Map.entry("int8", Family.INTEGER),
          Map.entry("unsigned int", Family.INTEGER),
          Map.entry("unsigned bigint", Family.DECIMAL),
          Map.entry("numeric", Family.DECIMAL),
          Map.entry("decimal", Family.DECIMAL),
          Map.entry("money", Family.DECIMAL),
          Map.entry("smallmoney", Family.DECIMAL),
          Map.entry("float", Family.FLOAT),
          Map.entry("real", Family.FLOAT),
          Map.entry("double", Family.FLOAT),
          Map.entry("double precision", Family.FLOAT),
          Map.entry("float4", Family.FLOAT),
          Map.entry("float8", Family.FLOAT),
          Map.entry("char", Family.TEXT),
          Map.entry("varchar", Family.TEXT),
          Map.entry("character", Family.TEXT),
          Map.entry("character varying", Family.TEXT),
          Map.entry("nchar", Family.TEXT),
          Map.entry("nvarchar", Family.TEXT),
          Map.entry("unichar", Family.TEXT),
          Map.entry("univarchar", Family.TEXT),
          Map.entry("text", Family.TEXT),
          Map.entry("unitext", Family.TEXT),
          Map.entry("tinytext", Family.TEXT),
          Map.entry("mediumtext", Family.TEXT),
          Map.entry("longtext", Family.TEXT),
          Map.entry("enum", Family.TEXT),
          Map.entry("set", Family.TEXT),
          Map.entry("binary", Family.BINARY),
          Map.entry("varbinary", Family.BINARY),
          Map.entry("image", Family.BINARY),
          Map.entry("bytea", Family.BINARY),
          Map.entry("blob", Family.BINARY),
          Map.entry("tinyblob", Family.BINARY),
          Map.entry("mediumblob", Family.BINARY),
          Map.entry("longblob", Family.BINARY),
          Map.entry("bit", Family.BOOLEAN),
          Map.entry("boolean", Family.BOOLEAN),
          Map.entry("bool", Family.BOOLEAN),
          Map.entry("date", Family.DATE),
          Map.entry("time", Family.TIME),
          Map.entry("time without time zone", Family.TIME),
          Map.entry("datetime", Family.TIMESTAMP),
          Map.entry("smalldatetime", Family.TIMESTAMP),
          Map.entry("bigdatetime", Family.TIMESTAMP),
          Map.entry("timestamp", Family.TIMESTAMP),
          Map.entry("timestamp without time zone", Family.TIMESTAMP),
          Map.entry("timestamptz", Family.TIMESTAMPTZ),
          Map.entry("timestamp with time zone", Family.TIMESTAMPTZ),
          Map.entry("uuid", Family.UUID),
          Map.entry("uniqueidentifier", Family.UUID),
          Map.entry("json", Family.JSON),
          Map.entry("jsonb", Family.JSON));

  private ColumnTypes() {}

  /** The family of a declared type, if it is one this server knows. */
  public static Optional<Family> familyOf(String declaredType) {
    String t = declaredType.trim().toLowerCase(Locale.ROOT);
    int paren = t.indexOf('(');
    if (paren >= 0) {
      int close = t.indexOf(')', paren);
      t = (t.substring(0, paren) + (close >= 0 ? t.substring(close + 1) : "")).trim();
    }
    t = t.replaceAll("\\s+", " ");
    return Optional.ofNullable(FAMILIES.get(t));
  }

  /** Every declared type name this server knows, for error messages. */
  public static Set<String> knownTypes() {
    return FAMILIES.keySet();
  }
}
