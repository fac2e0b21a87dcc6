package io.openrs.repagent;

import io.openrs.ltl.Column;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;

/** Row images of Debezium change records as LTL columns. */
final class RowImages {

  private final ValueConverter values = new ValueConverter();

  /** Every column of {@code row}, in the table's order. */
  List<Column> all(Struct row) {
    List<Field> fields = row.schema().fields();
    List<Column> out = new ArrayList<>(fields.size());
    for (Field f : fields) {
      out.add(new Column(f.name(), values.convert(f.schema(), row.get(f))));
    }
    return out;
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
