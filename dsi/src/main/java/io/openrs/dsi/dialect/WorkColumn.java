package io.openrs.dsi.dialect;

import java.util.Objects;
import java.util.Optional;

/**
 * One column of an HVAR work table: its name there and the replicate table's column whose type it
 * takes, or none for a {@code bigint} bookkeeping column (a count, an ordinal).
 *
 * @param name the column's name in the work table
 * @param source the replicate column it copies the type of; empty for {@code bigint}
 */
public record WorkColumn(String name, Optional<String> source) {
  public WorkColumn {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(source, "source");
  }

  /** A column named and typed as the replicate's column {@code column}. */
  public static WorkColumn of(String column) {
    return new WorkColumn(column, Optional.of(column));
  }

  /** A column {@code name} typed as the replicate's column {@code column}. */
  public static WorkColumn as(String name, String column) {
    return new WorkColumn(name, Optional.of(column));
  }

  /** A {@code bigint} column. */
  public static WorkColumn bigint(String name) {
    return new WorkColumn(name, Optional.empty());
  }
}
