package io.openrs.pgwire;

import java.util.Objects;

/**
 * One column of a result: its name as clients show it and its type.
 *
 * @param name the column name (any text; shown by psql as the header, by JDBC as the label)
 * @param type the column type
 */
public record PgColumn(String name, PgType type) {
  public PgColumn {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
  }

  /** A column of type {@link PgType#TEXT}. */
  public static PgColumn text(String name) {
    return new PgColumn(name, PgType.TEXT);
  }
}
