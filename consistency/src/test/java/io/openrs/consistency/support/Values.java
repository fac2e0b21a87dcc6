package io.openrs.consistency.support;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Random;
import java.util.UUID;

/**
 * Random values of every column type from one seeded {@link Random}, within what every database of
 * the scenario can store: with a MariaDB side, timestamps with time zone stay in 1970..2038
 * (MariaDB's TIMESTAMP), floating-point values are finite and dates are years 1000..9999; with
 * PostgreSQL only, NaN, infinities and -0.0 appear too.
 */
public final class Values {

  /** Characters of generated text: quotes, backslash, controls, accents, CJK, emoji. */
  private static final String[] PIECES = {
    "a", "b", "c", "x", "y", "z", "Q", "0", "7", " ", " ", "'", "\"", "\\", "\n", "\t", "\r", "%",
    "_", ",", ";", "é", "ß", "Ω", "中", "文", "😀", "𝄞", "\u00a0", "|", "{", "}", "[", "]"
  };

  private static final long MICROS_PER_DAY = 86_400_000_000L;

  private final Random random;
  private final boolean postgresOnly;

  public Values(Random random, boolean postgresOnly) {
    this.random = random;
    this.postgresOnly = postgresOnly;
  }

  public Random random() {
    return random;
  }

  public boolean chance(int oneIn) {
    return random.nextInt(oneIn) == 0;
  }

  public int between(int lowInclusive, int highInclusive) {
    return lowInclusive + random.nextInt(highInclusive - lowInclusive + 1);
  }

  /** A value for a column of type {@code c}, null one time in {@code nullOneIn} (0: never). */
  public Object of(Schema.Column c, int nullOneIn) {
    if (!c.notNull() && nullOneIn > 0 && chance(nullOneIn)) {
      return null;
    }
    switch (c.type()) {
      case SMALLINT:
        return (short) (random.nextInt(65536) - 32768);
      case INT:
        return chance(10) ? (chance(2) ? Integer.MIN_VALUE : Integer.MAX_VALUE) : random.nextInt();
      case BIGINT:
        return random.nextLong();
      case NUMERIC:
        return numeric(c.length(), c.scale());
      case DOUBLE:
        return dbl();
      case REAL:
        return flt();
      case BOOL:
        return random.nextBoolean();
      case DATE:
        return date();
      case TIME:
        return LocalTime.ofNanoOfDay((Math.floorMod(random.nextLong(), MICROS_PER_DAY)) * 1000);
      case TIMESTAMP:
        return timestamp();
      case TIMESTAMPTZ:
        return timestampTz();
      case VARCHAR:
        return text(random.nextInt(c.length() + 1), c.length());
      case CHAR:
        return word(1 + random.nextInt(c.length()));
      case TEXT:
        return text(random.nextInt(120), Integer.MAX_VALUE);
      case BYTES:
        return bytes(random.nextInt(200));
      case UUID:
        return uuid();
      default:
        throw new IllegalStateException(c.type().name());
    }
  }

  /** A numeric(precision, scale) value, sometimes at the limits or zero. */
  public BigDecimal numeric(int precision, int scale) {
    BigInteger limit = BigInteger.TEN.pow(precision).subtract(BigInteger.ONE);
    int pick = random.nextInt(12);
    BigInteger unscaled;
    if (pick == 0) {
      unscaled = limit;
    } else if (pick == 1) {
      unscaled = limit.negate();
    } else if (pick == 2) {
      unscaled = BigInteger.ZERO;
    } else {
      int digits = 1 + random.nextInt(precision);
      unscaled = new BigInteger(digits * 4, random).mod(BigInteger.TEN.pow(digits));
      if (random.nextBoolean()) {
        unscaled = unscaled.negate();
      }
    }
    return new BigDecimal(unscaled, scale);
  }

  private double dbl() {
    int pick = random.nextInt(20);
    if (postgresOnly && pick == 0) {
      double[] special = {
        Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -0.0, Double.MIN_VALUE
      };
      return special[random.nextInt(special.length)];
    }
    if (pick == 1) {
      return random.nextBoolean() ? Double.MAX_VALUE : -Double.MAX_VALUE;
    }
    return (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(40) - 20);
  }

  private float flt() {
    int pick = random.nextInt(20);
    if (postgresOnly && pick == 0) {
      float[] special = {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, -0.0f};
      return special[random.nextInt(special.length)];
    }
    return (float) ((random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(20) - 10));
  }

  /** Years 1000..9999 (MariaDB's DATE), mostly 1900..2100. */
  public LocalDate date() {
    LocalDate low = chance(8) ? LocalDate.of(1000, 1, 1) : LocalDate.of(1900, 1, 1);
    LocalDate high = chance(8) ? LocalDate.of(9999, 12, 31) : LocalDate.of(2100, 12, 31);
    return LocalDate.ofEpochDay(
        low.toEpochDay() + (long) (random.nextDouble() * (high.toEpochDay() - low.toEpochDay())));
  }

  private LocalDateTime timestamp() {
    return date().atStartOfDay().plusNanos(Math.floorMod(random.nextLong(), MICROS_PER_DAY) * 1000);
  }

  /** An instant with microseconds; MariaDB's TIMESTAMP range unless PostgreSQL only. */
  private OffsetDateTime timestampTz() {
    long lowSecond = postgresOnly && chance(5) ? -30_000_000_000L : 86_400L;
    long highSecond = postgresOnly && chance(5) ? 200_000_000_000L : 2_147_000_000L;
    long second = lowSecond + (long) (random.nextDouble() * (highSecond - lowSecond));
    int micros = random.nextInt(1_000_000);
    return OffsetDateTime.ofInstant(
        java.time.Instant.ofEpochSecond(second, micros * 1000L), ZoneOffset.UTC);
  }

  /** {@code length} characters (code points) of mixed text, at most {@code max}. */
  public String text(int length, int max) {
    StringBuilder b = new StringBuilder();
    int n = 0;
    while (n < Math.min(length, max)) {
      b.append(PIECES[random.nextInt(PIECES.length)]);
      n++;
    }
    return b.toString();
  }

  /** Letters and digits only. */
  public String word(int length) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < length; i++) {
      b.append(
          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
              .charAt(random.nextInt(62)));
    }
    return b.toString();
  }

  /** Text of {@code kib} KiB and more that does not compress much (stored out of line). */
  public String largeText(int kib) {
    StringBuilder b = new StringBuilder(kib * 1024 + 64);
    while (b.length() < kib * 1024) {
      b.append(word(1 + random.nextInt(12)));
      b.append(random.nextInt(40) == 0 ? "\n" : random.nextInt(30) == 0 ? " é中😀 " : " ");
    }
    return b.toString();
  }

  public byte[] bytes(int length) {
    byte[] b = new byte[length];
    random.nextBytes(b);
    return b;
  }

  public UUID uuid() {
    long msb = (random.nextLong() & ~0xF000L) | 0x4000L;
    long lsb = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
    return new UUID(msb, lsb);
  }
}
