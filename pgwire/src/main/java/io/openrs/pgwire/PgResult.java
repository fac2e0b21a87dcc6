package io.openrs.pgwire;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * What one command returned: a table (columns and rows) or only a command tag, plus notices for the
 * client.
 *
 * <p>Values in rows, by column type: {@link PgType#TEXT} any object (its {@code toString()});
 * {@link PgType#INT4} Integer, {@link PgType#INT8} Long (other integral numbers that fit are
 * accepted); {@link PgType#FLOAT8} Double; {@link PgType#NUMERIC} BigDecimal; {@link PgType#BOOL}
 * Boolean; {@link PgType#TIMESTAMPTZ} Instant, OffsetDateTime or ZonedDateTime; {@link
 * PgType#BYTEA} byte[]; {@code null} for SQL NULL in any column. A value that does not fit its
 * column fails the command with SQLSTATE XX000 when it is sent.
 *
 * @param columns the columns; empty for a command that returns no table
 * @param rows the rows, each with one value per column; empty when there are no columns
 * @param commandTag the CommandComplete tag ({@code "SELECT 3"}, {@code "CREATE CONNECTION"}...)
 * @param notices messages sent to the client as NoticeResponse (severity NOTICE) before the result
 */
public record PgResult(
    List<PgColumn> columns, List<List<Object>> rows, String commandTag, List<String> notices) {

  public PgResult {
    columns = List.copyOf(columns);
    Objects.requireNonNull(commandTag, "commandTag");
    if (commandTag.isEmpty() || commandTag.indexOf('\0') >= 0) {
      throw new IllegalArgumentException("commandTag must be non-empty text without NUL");
    }
    List<List<Object>> copy = new ArrayList<>(rows.size());
    for (int i = 0; i < rows.size(); i++) {
      List<Object> row = rows.get(i);
      if (row.size() != columns.size()) {
        throw new IllegalArgumentException(
            "row "
                + i
                + " has "
                + row.size()
                + " values, but there are "
                + columns.size()
                + " columns");
      }
      copy.add(Collections.unmodifiableList(new ArrayList<>(row)));
    }
    rows = Collections.unmodifiableList(copy);
    notices = List.copyOf(notices);
  }

  /** A result without notices. */
  public PgResult(List<PgColumn> columns, List<List<Object>> rows, String commandTag) {
    this(columns, rows, commandTag, List.of());
  }

  /** A command that returns no table, only its tag (e.g. {@code "SUSPEND CONNECTION"}). */
  public static PgResult command(String tag) {
    return new PgResult(List.of(), List.of(), tag, List.of());
  }

  /** A table; the tag is {@code "SELECT <row count>"}, as for a PostgreSQL query. */
  public static PgResult rows(List<PgColumn> columns, List<List<Object>> rows) {
    return new PgResult(columns, rows, "SELECT " + rows.size(), List.of());
  }

  /** This result with one more notice. */
  public PgResult withNotice(String notice) {
    List<String> all = new ArrayList<>(notices);
    all.add(Objects.requireNonNull(notice, "notice"));
    return new PgResult(columns, rows, commandTag, all);
  }

  /** This result with another tag. */
  public PgResult withCommandTag(String tag) {
    return new PgResult(columns, rows, tag, notices);
  }

  /** Whether this result is a table (has columns). */
  public boolean hasColumns() {
    return !columns.isEmpty();
  }
}
