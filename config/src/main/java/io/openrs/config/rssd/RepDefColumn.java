package io.openrs.config.rssd;

import java.util.Objects;

/**
 * A column of a table replication definition.
 *
 * @param name the column name at the primary
 * @param type the declared datatype text as written in the repdef, e.g. {@code int}, {@code
 *     varchar(40)}, {@code numeric(12,2)}, {@code timestamp}
 * @param replicateName the column name at the replicate ({@code col as rcol}); {@code null} means
 *     the same as {@code name}
 */
public record RepDefColumn(String name, String type, String replicateName) {
  public RepDefColumn {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
    replicateName = replicateName == null ? name : replicateName;
  }

  /** A column with the same name at the replicate. */
  public RepDefColumn(String name, String type) {
    this(name, type, name);
  }
}
