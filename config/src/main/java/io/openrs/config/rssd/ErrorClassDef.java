package io.openrs.config.rssd;

import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * An error class ({@code create error class}, {@code assign action}): a row of {@code rs_classes}
 * with its {@code rs_erroractions}. The DSI builds its {@code io.openrs.dsi.ErrorClass} from it
 * when a connection starts ({@code ErrorAction.parse} reads the labels).
 *
 * <p>This module does not depend on the DSI, so codes and actions are validated text here: {@link
 * #normalizeCode} and {@link #ACTIONS}.
 *
 * @param name the class name
 * @param template the class the assignments were last copied from ({@code set template to}); a
 *     copy, later changes to the template do not show here
 * @param actions error code (see {@link #normalizeCode}) to action label (see {@link #ACTIONS}),
 *     sorted by code
 */
public record ErrorClassDef(String name, Optional<String> template, Map<String, String> actions) {

  /** The PostgreSQL dialect's default class, built in. */
  public static final String POSTGRESQL_DEFAULTS = "rs_postgresql_error_class";

  /** The MariaDB dialect's default class, built in. */
  public static final String MARIADB_DEFAULTS = "rs_mariadb_error_class";

  /**
   * The built-in classes: the DSI dialects' defaults, stored by migration V2 ({@code builtin} in
   * {@code rs_classes}). They may be shown and used as templates, not changed or dropped.
   */
  public static final List<String> BUILTIN = List.of(POSTGRESQL_DEFAULTS, MARIADB_DEFAULTS);

  /**
   * The action labels from the least to the most severe, as {@code assign action} writes them and
   * {@code io.openrs.dsi.ErrorAction#label()} returns them.
   */
  public static final List<String> ACTIONS =
      List.of("ignore", "warn", "retry_log", "log", "retry_stop", "stop_replication");

  /** What {@link #normalizeCode} accepts, in words, for error messages. */
  public static final String CODE_SHAPES =
      "a vendor error number such as 1062, a five-character SQLSTATE such as 23505 or a"
          + " two-character SQLSTATE class such as 23";

  private static final Pattern SQLSTATE = Pattern.compile("[0-9A-Z]{5}|[0-9A-Z]{2}");
  private static final Pattern VENDOR = Pattern.compile("[1-9][0-9]{0,8}");

  public ErrorClassDef {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(template, "template");
    actions = Collections.unmodifiableMap(new TreeMap<>(actions));
  }

  /** True for the dialects' default classes ({@link #BUILTIN}). */
  public boolean builtin() {
    return BUILTIN.contains(name);
  }

  /**
   * An error code in the form the DSI looks it up: a vendor error number without leading zeros (at
   * most 9 digits), a five-character SQLSTATE or a two-character SQLSTATE class (digits and
   * letters, letters upper-cased: {@code 40p01} becomes {@code 40P01}).
   *
   * @throws IllegalArgumentException naming the code and the accepted shapes
   */
  public static String normalizeCode(String code) {
    String c = Objects.requireNonNull(code, "code").trim().toUpperCase(Locale.ROOT);
    if (SQLSTATE.matcher(c).matches() || VENDOR.matcher(c).matches()) {
      return c;
    }
    throw new IllegalArgumentException(
        "'" + code + "' is not an error code: expected " + CODE_SHAPES);
  }

  /**
   * An action label in lower case.
   *
   * @throws IllegalArgumentException naming the label and the known ones
   */
  public static String normalizeAction(String action) {
    String a = Objects.requireNonNull(action, "action").trim().toLowerCase(Locale.ROOT);
    if (ACTIONS.contains(a)) {
      return a;
    }
    throw new IllegalArgumentException(
        "unknown error action '" + action + "'; expected " + String.join(", ", ACTIONS));
  }
}
