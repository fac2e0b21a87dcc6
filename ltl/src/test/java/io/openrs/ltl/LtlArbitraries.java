package io.openrs.ltl;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/** jqwik generators for every LTL command and value, including the awkward corners. */
public final class LtlArbitraries {
  private LtlArbitraries() {}

  /** Any command of any kind. */
  public static Arbitrary<LtlCommand> commands() {
    return Arbitraries.oneOf(
        inserts(),
        updates(),
        deletes(),
        begins(),
        commits(),
        rollbacks(),
        truncates(),
        ddls(),
        tickets(),
        connects(),
        Arbitraries.integers().between(1, 1_000_000).map(LtlCommand.Connected::new),
        Arbitraries.just(new LtlCommand.GetTruncation()),
        oqids().optional(0.8).map(LtlCommand.Truncation::new));
  }

  public static Arbitrary<TranId> trans() {
    return Arbitraries.bytes()
        .array(byte[].class)
        .ofMinSize(1)
        .ofMaxSize(TranId.MAX_BYTES)
        .map(TranId::of);
  }

  public static Arbitrary<Oqid> oqids() {
    return Arbitraries.bytes()
        .array(byte[].class)
        .ofMinSize(1)
        .ofMaxSize(Oqid.MAX_BYTES)
        .map(Oqid::of);
  }

  /** Identifiers: mostly bare, sometimes needing quotes (spaces, quotes, Unicode, keywords). */
  public static Arbitrary<String> identifiers() {
    Arbitrary<String> bare =
        Arbitraries.strings()
            .withCharRange('a', 'z')
            .withCharRange('A', 'Z')
            .withChars('_')
            .ofMinLength(1)
            .ofMaxLength(12)
            .flatMap(
                head ->
                    Arbitraries.strings()
                        .withCharRange('a', 'z')
                        .withCharRange('0', '9')
                        .withChars('_', '$')
                        .ofMaxLength(8)
                        .map(tail -> head + tail));
    Arbitrary<String> odd =
        Arbitraries.oneOf(
            Arbitraries.of(
                "select",
                "null",
                "after",
                "insert",
                "9lives",
                "a b",
                "we\"ird",
                "Ünïcødé",
                "表",
                "x.y",
                "tab\there",
                "new\nline",
                "back\\slash",
                "😀"),
            unicodeText().filter(s -> !s.isEmpty()));
    return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(8, bare), net.jqwik.api.Tuple.of(2, odd));
  }

  public static Arbitrary<TableName> tables() {
    return Combinators.combine(identifiers(), identifiers()).as(TableName::new);
  }

  /** Text over all of Unicode, with control characters, quotes, backslashes and emoji. */
  public static Arbitrary<String> unicodeText() {
    Arbitrary<String> special =
        Arbitraries.of(
            "", "'", "\\", "\"", "\n", "\r\n", "\t", "\u0000", "\u007f", "\u0085", "\u2028", "😀",
            "é", "日本語", "--", "x'00'", "null");
    Arbitrary<String> any =
        Arbitraries.strings().all().ofMaxLength(40).filter(LtlArbitraries::isUnicode);
    Arbitrary<String> ascii = Arbitraries.strings().ascii().ofMaxLength(40);
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(2, special),
        net.jqwik.api.Tuple.of(4, any),
        net.jqwik.api.Tuple.of(4, ascii),
        net.jqwik.api.Tuple.of(1, ascii.list().ofMaxSize(4).map(l -> String.join("😀\n'", l))));
  }

  static boolean isUnicode(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return false;
      }
    }
    return true;
  }

  public static Arbitrary<Instant> instants() {
    return Arbitraries.longs()
        .between(-62_135_596_800L, 253_402_300_799L)
        .flatMap(
            s ->
                Arbitraries.integers()
                    .between(0, 999_999)
                    .map(us -> Instant.ofEpochSecond(s, us * 1000L)));
  }

  static Arbitrary<LocalDate> dates() {
    Arbitrary<LocalDate> common =
        Arbitraries.longs().between(-1_000_000, 3_000_000).map(LocalDate::ofEpochDay);
    Arbitrary<LocalDate> extreme =
        Arbitraries.of(
            LocalDate.of(-4713, 11, 24),
            LocalDate.of(0, 1, 1),
            LocalDate.of(9999, 12, 31),
            LocalDate.of(10000, 1, 1),
            LocalDate.of(294276, 12, 31),
            LocalDate.of(-999_999_999, 1, 1),
            LocalDate.of(999_999_999, 12, 31),
            LocalDate.of(2024, 2, 29));
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(9, common), net.jqwik.api.Tuple.of(1, extreme));
  }

  static Arbitrary<LocalTime> times() {
    return Arbitraries.longs()
        .between(0, 86_399_999_999L)
        .map(us -> LocalTime.ofNanoOfDay(us * 1000));
  }

  static Arbitrary<BigDecimal> decimals() {
    Arbitrary<BigDecimal> small =
        Combinators.combine(Arbitraries.longs(), Arbitraries.integers().between(-5, 20))
            .as(BigDecimal::valueOf);
    Arbitrary<BigDecimal> big =
        Combinators.combine(
                Arbitraries.bigIntegers()
                    .between(BigInteger.TEN.pow(40).negate(), BigInteger.TEN.pow(40)),
                Arbitraries.integers().between(-50, 100))
            .as(BigDecimal::new);
    Arbitrary<BigDecimal> edge =
        Arbitraries.of(
            new BigDecimal("0"),
            new BigDecimal("0.00"),
            new BigDecimal("-0.5"),
            new BigDecimal("1E+5"),
            new BigDecimal("12345678901234567890.123456789"),
            new BigDecimal(BigInteger.ONE, Integer.MAX_VALUE),
            new BigDecimal(BigInteger.ONE, Integer.MIN_VALUE),
            BigDecimal.valueOf(Long.MIN_VALUE, 3),
            new BigDecimal("9".repeat(1000) + "." + "9".repeat(100)));
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(6, small),
        net.jqwik.api.Tuple.of(3, big),
        net.jqwik.api.Tuple.of(1, edge));
  }

  public static Arbitrary<Value> values() {
    List<Arbitrary<? extends Value>> all = new ArrayList<>();
    all.add(Arbitraries.just(Value.NULL));
    all.add(Arbitraries.just(Value.UNCHANGED));
    all.add(Arbitraries.of(true, false).map(Value.Bool::of));
    all.add(Arbitraries.shorts().map(Value.Int16::new));
    all.add(Arbitraries.integers().map(Value.Int32::new));
    all.add(Arbitraries.longs().map(Value.Int64::new));
    all.add(decimals().map(Value.Decimal::new));
    all.add(
        Arbitraries.oneOf(
                Arbitraries.floats(),
                Arbitraries.of(
                    Float.NaN,
                    Float.POSITIVE_INFINITY,
                    Float.NEGATIVE_INFINITY,
                    -0.0f,
                    Float.MIN_VALUE,
                    Float.MAX_VALUE),
                Arbitraries.integers().map(Float::intBitsToFloat).filter(f -> !Float.isNaN(f)))
            .map(Value.Float32::new));
    all.add(
        Arbitraries.oneOf(
                Arbitraries.doubles(),
                Arbitraries.of(
                    Double.NaN,
                    Double.POSITIVE_INFINITY,
                    Double.NEGATIVE_INFINITY,
                    -0.0,
                    Double.MIN_VALUE,
                    Double.MAX_VALUE),
                Arbitraries.longs().map(Double::longBitsToDouble).filter(d -> !Double.isNaN(d)))
            .map(Value.Float64::new));
    all.add(unicodeText().map(Value.Text::new));
    all.add(Arbitraries.bytes().array(byte[].class).ofMaxSize(64).map(Value.Binary::new));
    all.add(dates().map(Value.Date::new));
    all.add(times().map(Value.Time::new));
    all.add(
        Combinators.combine(dates(), times())
            .as((d, t) -> new Value.Timestamp(LocalDateTime.of(d, t))));
    all.add(
        Combinators.combine(dates(), times(), Arbitraries.integers().between(-18 * 3600, 18 * 3600))
            .as(
                (d, t, o) ->
                    new Value.TimestampTz(
                        OffsetDateTime.of(LocalDateTime.of(d, t), ZoneOffset.ofTotalSeconds(o)))));
    all.add(
        Combinators.combine(Arbitraries.longs(), Arbitraries.longs())
            .as(UUID::new)
            .map(Value.Uuid::new));
    all.add(unicodeText().map(s -> new Value.Json("{\"k\":\"" + s.replace("\"", "") + "\"}")));
    all.add(nonFinites());
    all.add(natives());
    @SuppressWarnings("unchecked")
    Arbitrary<Value> oneOf = (Arbitrary<Value>) (Arbitrary<?>) Arbitraries.oneOf(all);
    return oneOf;
  }

  /** Every non-finite value: NaN and ±infinity of dec, ±infinity of date, ts and tstz. */
  public static Arbitrary<Value.NonFinite> nonFinites() {
    List<Value.NonFinite> all = new ArrayList<>();
    for (Value.NonFinite.Domain d : Value.NonFinite.Domain.values()) {
      for (Value.NonFinite.Bound b : Value.NonFinite.Bound.values()) {
        if (b != Value.NonFinite.Bound.NAN || d == Value.NonFinite.Domain.DEC) {
          all.add(new Value.NonFinite(d, b));
        }
      }
    }
    return Arbitraries.of(all);
  }

  /**
   * Native values: PostgreSQL-like types and texts, and any dialect word, any non-empty type and
   * any text (quotes, escapes, Unicode, empty).
   */
  public static Arbitrary<Value.Native> natives() {
    Arbitrary<Value.Native> typical =
        Arbitraries.of(
            new Value.Native("postgresql", "_int4", "{1,NULL,3}"),
            new Value.Native("postgresql", "_text", "{\"a b\",\"it's\",NULL}"),
            new Value.Native("postgresql", "tstzrange", "[\"2026-01-01 00:00:00+00\",infinity)"),
            new Value.Native("postgresql", "interval", "1 year 2 mons -3 days 04:05:06.7"),
            new Value.Native("postgresql", "timetz", "10:15:30.123456+05:30"),
            new Value.Native("postgresql", "varbit", ""),
            new Value.Native("postgresql", "hstore", "\"k\"=>\"v\\\\\"q\""),
            new Value.Native("mariadb", "set('a','b')", "a,b"));
    Arbitrary<String> dialects =
        Combinators.combine(
                Arbitraries.strings().withCharRange('a', 'z').ofLength(1),
                Arbitraries.strings()
                    .withCharRange('a', 'z')
                    .withCharRange('0', '9')
                    .withChars('_')
                    .ofMaxLength(12))
            .as(String::concat);
    Arbitrary<Value.Native> any =
        Combinators.combine(dialects, unicodeText().filter(s -> !s.isEmpty()), unicodeText())
            .as(Value.Native::new);
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(1, typical), net.jqwik.api.Tuple.of(1, any));
  }

  /** A row image: 1..12 columns with distinct names. */
  public static Arbitrary<List<Column>> images() {
    return Combinators.combine(
            identifiers().list().ofMinSize(1).ofMaxSize(12).uniqueElements(),
            values().list().ofSize(12))
        .as(
            (names, vals) -> {
              Map<String, Column> cols = new LinkedHashMap<>();
              for (int i = 0; i < names.size(); i++) {
                cols.put(names.get(i), new Column(names.get(i), vals.get(i)));
              }
              return List.copyOf(cols.values());
            });
  }

  static Arbitrary<LtlCommand> inserts() {
    return Combinators.combine(trans(), oqids(), tables(), Arbitraries.of(true, false), images())
        .as(LtlCommand.Insert::new);
  }

  static Arbitrary<LtlCommand> updates() {
    return Combinators.combine(trans(), oqids(), tables(), images(), images())
        .as(LtlCommand.Update::new);
  }

  static Arbitrary<LtlCommand> deletes() {
    return Combinators.combine(trans(), oqids(), tables(), images()).as(LtlCommand.Delete::new);
  }

  static Arbitrary<LtlCommand> begins() {
    return Combinators.combine(trans(), oqids(), instants(), unicodeText().optional())
        .as(LtlCommand.Begin::new);
  }

  static Arbitrary<LtlCommand> commits() {
    return Combinators.combine(trans(), oqids(), instants()).as(LtlCommand.Commit::new);
  }

  static Arbitrary<LtlCommand> rollbacks() {
    return Combinators.combine(trans(), oqids()).as(LtlCommand.Rollback::new);
  }

  static Arbitrary<LtlCommand> truncates() {
    return Combinators.combine(trans(), oqids(), tables()).as(LtlCommand.Truncate::new);
  }

  static Arbitrary<LtlCommand> ddls() {
    return Combinators.combine(trans(), oqids(), identifiers().optional(), unicodeText())
        .as(LtlCommand.Ddl::new);
  }

  static Arbitrary<LtlCommand> tickets() {
    return Combinators.combine(trans(), oqids(), instants(), unicodeText().list().ofMaxSize(5))
        .as(LtlCommand.Ticket::new);
  }

  static Arbitrary<LtlCommand> connects() {
    return Combinators.combine(
            identifiers(),
            identifiers(),
            Arbitraries.integers().between(1, 50),
            Arbitraries.integers().between(0, 50),
            unicodeText(),
            unicodeText().optional(),
            unicodeText().optional())
        .as((s, d, min, extra, u, p, a) -> new LtlCommand.Connect(s, d, min, min + extra, u, p, a));
  }
}
