package io.openrs.repserver.admin;

import io.openrs.pgwire.PgColumn;
import io.openrs.pgwire.PgResult;
import io.openrs.pgwire.PgType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Builds the table an admin command answers with: typed columns, then rows. */
final class Table {

  private final List<PgColumn> columns = new ArrayList<>();
  private final List<List<Object>> rows = new ArrayList<>();
  private final List<String> notices = new ArrayList<>();

  Table text(String name) {
    columns.add(new PgColumn(name, PgType.TEXT));
    return this;
  }

  Table int8(String name) {
    columns.add(new PgColumn(name, PgType.INT8));
    return this;
  }

  Table int4(String name) {
    columns.add(new PgColumn(name, PgType.INT4));
    return this;
  }

  Table float8(String name) {
    columns.add(new PgColumn(name, PgType.FLOAT8));
    return this;
  }

  Table bool(String name) {
    columns.add(new PgColumn(name, PgType.BOOL));
    return this;
  }

  Table timestamptz(String name) {
    columns.add(new PgColumn(name, PgType.TIMESTAMPTZ));
    return this;
  }

  Table row(Object... values) {
    rows.add(new ArrayList<>(Arrays.asList(values)));
    return this;
  }

  Table notice(String notice) {
    notices.add(notice);
    return this;
  }

  PgResult result(String commandTag) {
    return new PgResult(columns, rows, commandTag, notices);
  }
}
