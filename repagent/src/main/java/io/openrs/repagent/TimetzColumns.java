package io.openrs.repagent;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;

/**
 * Names the {@code timetz} columns of a PostgreSQL change record, from the column type that {@link
 * PostgresColumnValues} puts in each column's schema; remembered per record schema (Debezium keeps
 * one per table version). The mapper leaves such a table out while streaming unless {@code
 * timetz_at_utc}: the agent's start check catches the tables that exist at start, this one the
 * tables created or given such a column while the agent streams. (A domain over {@code timetz}
 * carries the domain's name; only the start check sees through it.) Owned by the connector thread.
 */
final class TimetzColumns {
  private static final int MAX_SCHEMAS = 10_000;
  private final Map<Schema, String> bySchema = new IdentityHashMap<>();

  /**
   * The {@code timetz} columns of a record's row image field ({@code after}), quoted and
   * comma-separated; empty when it has none.
   */
  String of(Field image) {
    if (image == null || image.schema().type() != Schema.Type.STRUCT) {
      return "";
    }
    Schema row = image.schema();
    String found = bySchema.get(row);
    if (found == null) {
      if (bySchema.size() >= MAX_SCHEMAS) {
        bySchema.clear();
      }
      List<String> names = new ArrayList<>();
      for (Field f : row.fields()) {
        if ("timetz".equals(PostgresTagged.typeOf(f.schema()))) {
          names.add(PostgresDialect.quoteIdent(f.name()));
        }
      }
      found = String.join(", ", names);
      bySchema.put(row, found);
    }
    return found;
  }
}
