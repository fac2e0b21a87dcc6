package io.openrs.pgwire;

/**
 * SQLSTATE codes (PostgreSQL's Appendix A) this server sends or a {@link PgBackend} will likely
 * need; any other valid code may be used too.
 */
public final class PgSqlState {
  private PgSqlState() {}

  /** 0A000 feature_not_supported. */
  public static final String FEATURE_NOT_SUPPORTED = "0A000";

  /** 08P01 protocol_violation. */
  public static final String PROTOCOL_VIOLATION = "08P01";

  /** 22023 invalid_parameter_value. */
  public static final String INVALID_PARAMETER_VALUE = "22023";

  /** 22003 numeric_value_out_of_range. */
  public static final String NUMERIC_VALUE_OUT_OF_RANGE = "22003";

  /** 22021 character_not_in_repertoire (bad UTF-8). */
  public static final String CHARACTER_NOT_IN_REPERTOIRE = "22021";

  /** 22025 invalid_escape_sequence (a Unicode escape beyond U+10FFFF in E'...'). */
  public static final String INVALID_ESCAPE_SEQUENCE = "22025";

  /** 25001 active_sql_transaction. */
  public static final String ACTIVE_SQL_TRANSACTION = "25001";

  /** 25P01 no_active_sql_transaction. */
  public static final String NO_ACTIVE_SQL_TRANSACTION = "25P01";

  /** 25P02 in_failed_sql_transaction. */
  public static final String IN_FAILED_SQL_TRANSACTION = "25P02";

  /** 26000 invalid_sql_statement_name (unknown prepared statement). */
  public static final String INVALID_SQL_STATEMENT_NAME = "26000";

  /** 28000 invalid_authorization_specification. */
  public static final String INVALID_AUTHORIZATION_SPECIFICATION = "28000";

  /** 28P01 invalid_password. */
  public static final String INVALID_PASSWORD = "28P01";

  /** 34000 invalid_cursor_name (unknown portal). */
  public static final String INVALID_CURSOR_NAME = "34000";

  /** 3B001 invalid_savepoint_specification. */
  public static final String INVALID_SAVEPOINT_SPECIFICATION = "3B001";

  /** 42501 insufficient_privilege. */
  public static final String INSUFFICIENT_PRIVILEGE = "42501";

  /** 42601 syntax_error. */
  public static final String SYNTAX_ERROR = "42601";

  /** 42704 undefined_object. */
  public static final String UNDEFINED_OBJECT = "42704";

  /** 42710 duplicate_object. */
  public static final String DUPLICATE_OBJECT = "42710";

  /** 42P02 undefined_parameter. */
  public static final String UNDEFINED_PARAMETER = "42P02";

  /** 42P03 duplicate_cursor. */
  public static final String DUPLICATE_CURSOR = "42P03";

  /** 42P05 duplicate_prepared_statement. */
  public static final String DUPLICATE_PREPARED_STATEMENT = "42P05";

  /** 53300 too_many_connections. */
  public static final String TOO_MANY_CONNECTIONS = "53300";

  public static final String PROGRAM_LIMIT_EXCEEDED = "54000";

  /** 55000 object_not_in_prerequisite_state. */
  public static final String OBJECT_NOT_IN_PREREQUISITE_STATE = "55000";

  /** 55P02 cant_change_runtime_param. */
  public static final String CANT_CHANGE_RUNTIME_PARAM = "55P02";

  /** 57014 query_canceled. */
  public static final String QUERY_CANCELED = "57014";

  /** 57P01 admin_shutdown. */
  public static final String ADMIN_SHUTDOWN = "57P01";

  /** XX000 internal_error. */
  public static final String INTERNAL_ERROR = "XX000";
}
