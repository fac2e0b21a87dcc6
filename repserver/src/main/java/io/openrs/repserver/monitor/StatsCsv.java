package io.openrs.repserver.monitor;

import io.openrs.config.rssd.CounterSample;
import java.math.BigDecimal;
import java.util.List;

/**
 * {@code rs_dump_stats}: saved counter samples as comma-separated text for spreadsheets (RFC 4180):
 * a header line, one line per sample, CRLF line ends, fields quoted when they hold a comma, a
 * double quote or a line break (quotes doubled).
 *
 * <p>Columns: {@code sampled_at} (ISO-8601 UTC, e.g. {@code 2025-01-19T02:17:19.406Z}), {@code
 * module}, {@code instance}, {@code counter}, {@code value} (plain decimal, no exponent; {@code
 * NaN} and {@code Infinity} spelled so).
 */
public final class StatsCsv {

  /** The header line's fields. */
  public static final List<String> COLUMNS =
      List.of("sampled_at", "module", "instance", "counter", "value");

  private static final String EOL = "\r\n";

  private StatsCsv() {}

  /** The CSV text of {@code samples}, in the order given. */
  public static String format(List<CounterSample> samples) {
    StringBuilder b = new StringBuilder(64 + samples.size() * 48);
    b.append(String.join(",", COLUMNS)).append(EOL);
    for (CounterSample s : samples) {
      b.append(s.sampledAt())
          .append(',')
          .append(field(s.module()))
          .append(',')
          .append(field(s.instance()))
          .append(',')
          .append(field(s.counter()))
          .append(',')
          .append(number(s.value()))
          .append(EOL);
    }
    return b.toString();
  }

  /** {@code value} quoted if RFC 4180 requires it. */
  static String field(String value) {
    boolean quote = false;
    for (int i = 0; i < value.length() && !quote; i++) {
      char c = value.charAt(i);
      quote = c == ',' || c == '"' || c == '\r' || c == '\n';
    }
    return quote ? '"' + value.replace("\"", "\"\"") + '"' : value;
  }

  /** A plain decimal: {@code 42}, {@code 0.5}, never {@code 4.2E1}. */
  static String number(double v) {
    if (Double.isNaN(v) || Double.isInfinite(v)) {
      return Double.toString(v);
    }
    if (v == 0) {
      return "0";
    }
    return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
  }
}
