package io.openrs.dsi;

import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One {@code dsi_command_convert} rule: how the DSI rewrites an operation before applying it. A
 * source operation appears at most once in a list ({@code i2di,i2none} is refused).
 */
public enum CommandConversion {
  /** Inserts are not applied. */
  I2NONE('i'),
  /** Updates are not applied. */
  U2NONE('u'),
  /** Deletes are not applied. */
  D2NONE('d'),
  /** Truncates are not applied. */
  T2NONE('t'),
  /** An insert is applied as a delete of the row's key, then the insert (an upsert). */
  I2DI('i'),
  /**
   * An update is applied as a delete of the old row, then an insert of the new one; every column
   * must be known (after image, or the before image for columns the source marked unchanged).
   */
  U2DI('u');

  private final char source;

  CommandConversion(char source) {
    this.source = source;
  }

  /** {@code i2di} as the parameter writes it. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * Parses a list such as {@code i2di,u2none} (or {@code none}, or the list {@code
   * ParameterValues.getList} returns).
   *
   * @throws IllegalArgumentException for an unknown name or a source operation named twice
   */
  public static Set<CommandConversion> parse(List<String> names) {
    Set<CommandConversion> set = EnumSet.noneOf(CommandConversion.class);
    for (String raw : names) {
      String n = raw.trim();
      if (n.isEmpty() || n.equalsIgnoreCase("none")) {
        continue;
      }
      CommandConversion c;
      try {
        c = valueOf(n.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "dsi_command_convert: unknown conversion '" + n + "'", e);
      }
      for (CommandConversion other : set) {
        if (other.source == c.source) {
          throw new IllegalArgumentException(
              "dsi_command_convert: "
                  + other.label()
                  + " and "
                  + c.label()
                  + " both convert operation '"
                  + c.source
                  + "'");
        }
      }
      set.add(c);
    }
    return set;
  }
}
