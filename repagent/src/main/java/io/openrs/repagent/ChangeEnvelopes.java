package io.openrs.repagent;

import io.openrs.ltl.TableName;
import java.util.IdentityHashMap;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

/**
 * Reads Debezium's change envelopes (op, source, before, after, message) through fields looked up
 * once per envelope schema: the connector keeps one schema instance per table version, so a record
 * costs an identity lookup instead of a hash lookup by name per field it reads. The source's schema
 * and table name become one {@link TableName}, shared while consecutive records name the same
 * table. Not thread-safe: one per mapper.
 */
final class ChangeEnvelopes {

  /** Schemas kept at most (they change rarely; bounded all the same). */
  private static final int MAX_SCHEMAS = 1024;

  /** The envelope's fields; {@code op} null if the record is not a change envelope. */
  record Fields(Field op, Field source, Field before, Field after, Field message) {}

  /** The fields of a record value that is not a struct: none. */
  static final Fields NONE = new Fields(null, null, null, null, null);

  private record SourceFields(Field schema, Field table) {}

  private final Map<Schema, Fields> envelopes = new IdentityHashMap<>();
  private final Map<Schema, SourceFields> sources = new IdentityHashMap<>();
  private Schema lastEnvelope; // the schema of the last of() and its fields: a record's later
  private Fields lastFields; // reads of its envelope cost a reference compare
  private String lastSchema;
  private String lastTableName;
  private TableName lastTable;

  /** The fields of {@code envelope}'s schema. */
  Fields of(Struct envelope) {
    Schema s = envelope.schema();
    if (s == lastEnvelope) {
      return lastFields;
    }
    Fields f = envelopes.get(s);
    if (f == null) {
      f =
          new Fields(
              s.field("op"),
              s.field("source"),
              s.field("before"),
              s.field("after"),
              s.field("message"));
      if (envelopes.size() >= MAX_SCHEMAS) {
        envelopes.clear();
      }
      envelopes.put(s, f);
    }
    lastEnvelope = s;
    lastFields = f;
    return f;
  }

  /** The table a change's {@code source} block names. */
  TableName table(Struct source) {
    Schema s = source.schema();
    SourceFields f = sources.get(s);
    if (f == null) {
      f = new SourceFields(s.field("schema"), s.field("table"));
      if (sources.size() >= MAX_SCHEMAS) {
        sources.clear();
      }
      sources.put(s, f);
    }
    String schema = (String) source.get(f.schema());
    String table = (String) source.get(f.table());
    if (lastTable == null || !schema.equals(lastSchema) || !table.equals(lastTableName)) {
      lastSchema = schema;
      lastTableName = table;
      lastTable = new TableName(schema, table);
    }
    return lastTable;
  }
}
