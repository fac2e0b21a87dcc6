package io.openrs.dsi.internal;

import java.sql.SQLException;

/** Database errors in one line: SQLSTATE, vendor code and message (no credentials). */
public final class Jdbc {
  private Jdbc() {}

  /**
   * An unchecked failure thrown by a driver (a driver bug, or an internal assertion under {@code
   * -ea} when its connection breaks) as an {@link SQLException} without SQLSTATE: the caller then
   * checks whether the connection still works and reconnects if not.
   */
  public static SQLException wrap(Throwable t) {
    return new SQLException("driver failure: " + t, null, 0, t);
  }

  static String describe(SQLException e) {
    return "SQLSTATE "
        + e.getSQLState()
        + (e.getErrorCode() != 0 ? ", vendor code " + e.getErrorCode() : "")
        + ": "
        + e.getMessage();
  }
}
