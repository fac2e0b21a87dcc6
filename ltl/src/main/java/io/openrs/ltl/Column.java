package io.openrs.ltl;

import java.util.Objects;

/** One column of a row image: its name at the origin and its value. */
public record Column(String name, Value value) {
  public Column {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(value, "value");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("a column name must not be empty");
    }
  }
}
