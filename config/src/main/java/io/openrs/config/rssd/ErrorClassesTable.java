package io.openrs.config.rssd;

import java.util.List;
import java.util.Optional;

/**
 * Error classes: {@code rs_classes} and {@code rs_erroractions}. The built-in classes ({@link
 * ErrorClassDef#BUILTIN}) are rows too: {@link #find} and {@link #all} return them, they may be a
 * template, and every change to them is refused.
 */
public interface ErrorClassesTable {

  /**
   * Creates a class, with a copy of the template's assignments when one is given.
   *
   * @return it
   * @throws RssdException {@code DUPLICATE} when the name exists (built-in names included), {@code
   *     NOT_FOUND} for an unknown template, {@code INVALID} for a blank name
   */
  ErrorClassDef create(String name, Optional<String> template);

  /**
   * Copies the template's assignments into the class: a code the template assigns gets the
   * template's action (replacing the class's own), the class's other codes stay. Records the
   * template.
   *
   * @return the class after the change
   * @throws RssdException {@code NOT_FOUND} for an unknown class or template, {@code INVALID} for a
   *     built-in class or a class that would be its own template
   */
  ErrorClassDef alter(String name, String template);

  /**
   * Drops a class and its assignments.
   *
   * @throws RssdException {@code NOT_FOUND}; {@code INVALID} for a built-in class; {@code IN_USE}
   *     naming every connection whose {@code error_class} property names it, and the server value
   *     when {@code configure replication server set error_class} stored it
   */
  void drop(String name);

  /**
   * Assigns one action to codes of a class, replacing their earlier actions.
   *
   * @param action an action label ({@link ErrorClassDef#ACTIONS}, any case)
   * @param codes error codes ({@link ErrorClassDef#normalizeCode}), at least one
   * @throws RssdException {@code NOT_FOUND} for an unknown class; {@code INVALID} for a built-in
   *     class, an unknown action, no code or a malformed code (named)
   */
  void assign(String name, String action, List<String> codes);

  /** The class with its assignments. The DSI builds its error class from this. */
  Optional<ErrorClassDef> find(String name);

  /** Every class, built-in ones included, by name. */
  List<ErrorClassDef> all();

  /**
   * The class's assignments with their source, by code.
   *
   * @throws RssdException {@code NOT_FOUND} for an unknown class
   */
  List<ErrorClassAssignment> assignments(String name);

  /**
   * Where the class is named as {@code error_class} in {@code rs_config}: {@code ds.db} of each
   * connection, and {@code server} for the server value; empty when it is not used.
   */
  List<String> usedBy(String name);
}
