package io.openrs.dsi.dialect;

import java.util.Objects;

/**
 * One column of a replicate table as its catalog describes it.
 *
 * @param name the column name, exactly as the catalog spells it
 * @param typeName the base type, lower case, as the dialect names it ({@code int4}, {@code jsonb},
 *     {@code timestamptz}; MariaDB {@code int}, {@code varbinary}, {@code datetime})
 * @param nullable whether it accepts NULL
 */
public record ColumnMeta(String name, String typeName, boolean nullable) {
  public ColumnMeta {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(typeName, "typeName");
  }
}
