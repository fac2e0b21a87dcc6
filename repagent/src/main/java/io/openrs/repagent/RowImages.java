package io.openrs.repagent;

import io.openrs.ltl.Column;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

/** Row images of Debezium change records as LTL columns. Not thread-safe (one per mapper). */
final class RowImages {

  /** Row schemas kept at most (a table's schema changes rarely; bounded all the same). */
  private static final int MAX_PLANS = 1024;

  private final ValueConverter values = new ValueConverter();

  /** Per row schema (the connector keeps one instance per table version): how to convert it. */
  private final Map<Schema, Plan> plans = new IdentityHashMap<>();

  private record Plan(Field[] fields, ValueConverter.Converter[] converters) {}

  /** Every column of {@code row}, in the table's order. */
  List<Column> all(Struct row) {
    Plan plan = plan(row.schema());
    Field[] fields = plan.fields();
    Column[] out = new Column[fields.length];
    for (int i = 0; i < fields.length; i++) {
      Field f = fields[i];
      out[i] = new Column(f.name(), plan.converters()[i].convert(row.get(f)));
    }
    return Arrays.asList(out);
  }

  private Plan plan(Schema schema) {
    Plan plan = plans.get(schema);
    if (plan == null) {
      List<Field> fields = schema.fields();
      ValueConverter.Converter[] converters = new ValueConverter.Converter[fields.size()];
      for (int i = 0; i < converters.length; i++) {
        converters[i] = values.converterFor(fields.get(i).schema());
      }
      plan = new Plan(fields.toArray(new Field[0]), converters);
      if (plans.size() >= MAX_PLANS) {
        plans.clear();
      }
      plans.put(schema, plan);
    }
    return plan;
  }

  /**
   * The key columns (those of the record key {@code key}) with their values in {@code row} when
   * given (the old row), else in the key.
   */
  List<Column> key(Struct key, Struct row) {
    List<Field> fields = key.schema().fields();
    List<Column> out = new ArrayList<>(fields.size());
    for (Field f : fields) {
      Struct from = row != null && row.schema().field(f.name()) != null ? row : key;
      Field source = from.schema().field(f.name());
      out.add(new Column(f.name(), values.convert(source.schema(), from.get(source))));
    }
    return out;
  }
}
