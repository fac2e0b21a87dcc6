package io.openrs.config.rssd;

/** The RSSD's tables, by their SQL names. */
enum SystemTable {
  RS_USERS("rs_users"),
  RS_CONNECT_SOURCE("rs_connect_source"),
  RS_CONNECTIONS("rs_connections"),
  RS_CONFIG("rs_config"),
  RS_OBJECTS("rs_objects"),
  RS_COLUMNS("rs_columns"),
  RS_DBREPS("rs_dbreps"),
  RS_DBSUBSETS("rs_dbsubsets"),
  RS_SUBSCRIPTIONS("rs_subscriptions"),
  RS_LOCATER("rs_locater"),
  RS_EXCEPTSHDR("rs_exceptshdr"),
  RS_EXCEPTSCMD("rs_exceptscmd"),
  RS_STATDETAIL("rs_statdetail"),
  RS_TICKET_HISTORY("rs_ticket_history"),
  RS_CLASSES("rs_classes"),
  RS_ERRORACTIONS("rs_erroractions"),
  RS_LEASE("rs_lease");

  private final String sqlName;

  SystemTable(String sqlName) {
    this.sqlName = sqlName;
  }

  String sqlName() {
    return sqlName;
  }

  @Override
  public String toString() {
    return sqlName;
  }
}
