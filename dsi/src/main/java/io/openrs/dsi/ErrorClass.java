package io.openrs.dsi;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * An error class ({@code create error class}, {@code assign action ... for <class> to <codes>}):
 * error codes mapped to actions. It overrides the dialect's defaults; an error neither maps gets
 * {@link ErrorAction#STOP_REPLICATION}.
 *
 * <p>A code is written as the database reports it:
 *
 * <ul>
 *   <li>a vendor error number, e.g. {@code 1062} (MariaDB duplicate key), looked up first;
 *   <li>a five-character SQLSTATE, e.g. {@code 23505} (PostgreSQL unique violation);
 *   <li>a two-character SQLSTATE class, e.g. {@code 23} (every integrity violation), looked up
 *       last;
 *   <li>the DSI's own errors use Replication Server's numbers: {@code 5185} (an update or delete
 *       touched a number of rows other than one, with {@code dsi_row_count_validation} on).
 * </ul>
 *
 * @param name the class name, for messages
 * @param actions code to action
 */
public record ErrorClass(String name, Map<String, ErrorAction> actions) {

  /** The DSI's error number for a row-count mismatch (Replication Server's 5185). */
  public static final String ROW_COUNT_MISMATCH = "5185";

  /**
   * The DSI's error number for commands of a transaction whose begin was never read (the queue was
   * purged or damaged in the middle of a transaction).
   */
  public static final String INCOMPLETE_TRANSACTION = "5186";

  /** The DSI's error number for a change it cannot express for the replicate table. */
  public static final String UNAPPLICABLE_CHANGE = "5187";

  /**
   * The DSI's error number for a transaction that must be applied in replica mode (its origin's log
   * holds what the replicate's foreign keys and triggers would repeat) where the DSI's user may not
   * turn it on; the message names the statement that grants it.
   */
  public static final String REPLICA_MODE_REFUSED = "5188";

  public ErrorClass {
    Objects.requireNonNull(name, "name");
    Map<String, ErrorAction> copy = new TreeMap<>();
    actions.forEach(
        (code, action) -> {
          String c = code.trim();
          if (c.isEmpty()) {
            throw new IllegalArgumentException("error class " + name + ": empty error code");
          }
          copy.put(c, Objects.requireNonNull(action, code));
        });
    actions = Collections.unmodifiableMap(copy);
  }

  /** An error class without assignments: the dialect's defaults apply. */
  public static ErrorClass none() {
    return new ErrorClass("default", Map.of());
  }

  /** A copy with {@code action} assigned to {@code code}. */
  public ErrorClass with(String code, ErrorAction action) {
    Map<String, ErrorAction> copy = new TreeMap<>(actions);
    copy.put(code, action);
    return new ErrorClass(name, copy);
  }

  /**
   * The action assigned to an error: vendor code first, then SQLSTATE, then SQLSTATE class.
   *
   * @param vendorCode the vendor error number, 0 if the database has none
   * @param sqlState the SQLSTATE, may be null
   */
  public Optional<ErrorAction> lookup(int vendorCode, String sqlState) {
    if (vendorCode != 0) {
      ErrorAction a = actions.get(Integer.toString(vendorCode));
      if (a != null) {
        return Optional.of(a);
      }
    }
    if (sqlState != null && sqlState.length() == 5) {
      ErrorAction a = actions.get(sqlState);
      if (a == null) {
        a = actions.get(sqlState.substring(0, 2));
      }
      return Optional.ofNullable(a);
    }
    return Optional.empty();
  }
}
