package io.openrs.repserver.admin;

import io.openrs.config.param.InvalidConfigurationException;
import io.openrs.config.param.InvalidParameterValueException;
import io.openrs.config.param.ParameterScopeException;
import io.openrs.config.param.UnknownParameterException;
import io.openrs.config.rssd.RssdException;
import io.openrs.pgwire.PgException;
import io.openrs.repserver.admin.rcl.RclSyntaxException;
import io.openrs.repserver.dist.WhereClause;

/**
 * Maps what an admin command can fail with to a PostgreSQL ErrorResponse: a fitting SQLSTATE and a
 * message naming what was wrong (and, for syntax, its position in the command).
 */
final class AdminErrors {

  /** SQLSTATE 42601 syntax_error. */
  static final String SYNTAX_ERROR = "42601";

  /** SQLSTATE 42501 insufficient_privilege. */
  static final String INSUFFICIENT_PRIVILEGE = "42501";

  /** SQLSTATE 42704 undefined_object. */
  static final String UNDEFINED_OBJECT = "42704";

  /** SQLSTATE 42710 duplicate_object. */
  static final String DUPLICATE_OBJECT = "42710";

  /** SQLSTATE 22023 invalid_parameter_value. */
  static final String INVALID_PARAMETER_VALUE = "22023";

  /** SQLSTATE 2BP01 dependent_objects_still_exist. */
  static final String DEPENDENT_OBJECTS = "2BP01";

  /** SQLSTATE 55000 object_not_in_prerequisite_state. */
  static final String NOT_IN_PREREQUISITE_STATE = "55000";

  /** SQLSTATE 0A000 feature_not_supported. */
  static final String FEATURE_NOT_SUPPORTED = "0A000";

  /** SQLSTATE 58030 io_error. */
  static final String IO_ERROR = "58030";

  /** SQLSTATE XX000 internal_error. */
  static final String INTERNAL_ERROR = "XX000";

  private AdminErrors() {}

  static PgException of(Throwable e, int wherePosition) {
    if (e instanceof PgException p) {
      return p;
    }
    if (e instanceof RclSyntaxException s) {
      return new PgException(SYNTAX_ERROR, s.getMessage(), s.position());
    }
    if (e instanceof WhereClause.WhereClauseException w) {
      int at = wherePosition > 0 ? wherePosition + w.position() - 1 : 0;
      return new PgException(SYNTAX_ERROR, w.getMessage(), at);
    }
    if (e instanceof UnknownParameterException) {
      return new PgException(UNDEFINED_OBJECT, e.getMessage());
    }
    if (e instanceof InvalidParameterValueException
        || e instanceof ParameterScopeException
        || e instanceof InvalidConfigurationException) {
      return new PgException(INVALID_PARAMETER_VALUE, e.getMessage());
    }
    if (e instanceof RssdException r) {
      switch (r.reason()) {
        case DUPLICATE:
          return new PgException(DUPLICATE_OBJECT, r.getMessage());
        case NOT_FOUND:
          return new PgException(UNDEFINED_OBJECT, r.getMessage());
        case IN_USE:
          return new PgException(DEPENDENT_OBJECTS, r.getMessage());
        case INVALID:
          return new PgException(INVALID_PARAMETER_VALUE, r.getMessage());
        default:
          return new PgException(IO_ERROR, r.getMessage());
      }
    }
    if (e instanceof UnsupportedOperationException) {
      return new PgException(FEATURE_NOT_SUPPORTED, e.getMessage());
    }
    if (e instanceof IllegalStateException) {
      return new PgException(NOT_IN_PREREQUISITE_STATE, e.getMessage());
    }
    if (e instanceof IllegalArgumentException) {
      String m = e.getMessage() == null ? e.toString() : e.getMessage();
      return new PgException(
          m.startsWith("no ") || m.contains(": no ") ? UNDEFINED_OBJECT : INVALID_PARAMETER_VALUE,
          m);
    }
    if (e instanceof java.io.IOException) {
      return new PgException(IO_ERROR, e.getMessage() == null ? e.toString() : e.getMessage(), e);
    }
    return new PgException(INTERNAL_ERROR, e.toString(), e);
  }
}
