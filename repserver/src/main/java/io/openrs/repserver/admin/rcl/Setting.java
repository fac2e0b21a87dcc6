package io.openrs.repserver.admin.rcl;

import java.util.Locale;
import java.util.Objects;

/**
 * One {@code set <parameter> to <value>} of {@code create connection}, {@code alter connection} or
 * {@code configure replication server}.
 *
 * <p>The value is kept as text exactly as written: a quoted string without its quotes ({@code ''}
 * unescaped), a bare word with its case as typed, or a number as typed ({@code 4}, {@code 1.5},
 * {@code -1}, {@code 64k}). Checking it against the parameter's type is the executor's job.
 *
 * @param name parameter name; unquoted names are folded to lower case, {@code "Quoted"} ones kept;
 *     {@link #LOG_TRANSFER} for {@code alter connection ... set log transfer on|off}
 * @param value the value as text
 * @param position 1-based character position of the parameter name in the command, for errors such
 *     as "unknown parameter at position 27"
 */
public record Setting(String name, String value, int position) {

  /** The setting {@code alter connection ... set log transfer {on|off}} produces. */
  public static final String LOG_TRANSFER = "log transfer";

  /**
   * The setting {@code create/alter connection ... set error class [to] <class>} produces: the
   * connection parameter {@code error_class}.
   */
  public static final String ERROR_CLASS = "error_class";

  /** What {@link #toString()} and every command's {@code toString()} print instead of a secret. */
  public static final String MASK = "***";

  public Setting {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(value, "value");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("setting name must not be empty");
    }
    if (position < 1) {
      throw new IllegalArgumentException("position is 1-based, got " + position);
    }
  }

  /**
   * True for parameters whose value must never be shown: names containing {@code password}, {@code
   * passwd}, {@code pwd} or {@code secret}, or ending in {@code _pw}.
   */
  public boolean isSecret() {
    String n = name.toLowerCase(Locale.ROOT);
    return n.contains("password")
        || n.contains("passwd")
        || n.contains("pwd")
        || n.contains("secret")
        || n.endsWith("_pw")
        || n.equals("pw");
  }

  /** {@code set <name> to '<value>'}, the value masked when {@link #isSecret()}. */
  @Override
  public String toString() {
    return "set " + RclText.ident(name) + " to " + RclText.literal(isSecret() ? MASK : value);
  }
}
