package io.openrs.config.rssd;

import java.util.Objects;

/**
 * One row of {@code rs_erroractions}: an error code's action in a class and where it came from.
 *
 * @param code the error code ({@link ErrorClassDef#normalizeCode})
 * @param action the action label ({@link ErrorClassDef#ACTIONS})
 * @param source how the row got there
 */
public record ErrorClassAssignment(String code, String action, Source source) {

  /** Where an assignment came from ({@code rs_erroractions.source}). */
  public enum Source {
    /** A built-in class's own row (migration). */
    BUILTIN,
    /** Copied from the template by {@code create}/{@code alter error class ... set template}. */
    TEMPLATE,
    /** Written by {@code assign action}. */
    ASSIGNED;

    /** The label stored and shown: {@code builtin}, {@code template}, {@code assigned}. */
    public String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }

    static Source ofLabel(String label) {
      return valueOf(label.toUpperCase(java.util.Locale.ROOT));
    }
  }

  public ErrorClassAssignment {
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(source, "source");
  }
}
