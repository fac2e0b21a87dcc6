package io.openrs.repagent;

import io.debezium.config.Configuration;
import io.debezium.document.DocumentReader;
import io.debezium.document.DocumentWriter;
import io.debezium.relational.history.AbstractSchemaHistory;
import io.debezium.relational.history.HistoryRecord;
import io.debezium.relational.history.HistoryRecordComparator;
import io.debezium.relational.history.SchemaHistoryException;
import io.debezium.relational.history.SchemaHistoryListener;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Debezium's schema history (needed by the MariaDB/MySQL connectors to decode old binlog rows) kept
 * with the resume blob at the server: records Debezium stores go into the agent session's history,
 * which travels in every resume blob together with the offsets, so history and position are always
 * stored together and nothing is kept on the agent's disk. The cost: the blob grows with the DDL
 * history of the captured tables (the agent stores only those), compressed; it must stay under the
 * server's 1 MiB.
 *
 * <p>Debezium creates it by class name; the session is found through {@link #BINDING_PROPERTY}.
 */
public final class ServerSchemaHistory extends AbstractSchemaHistory {

  /** Connector property naming the session binding (the history sees it with this prefix). */
  public static final String BINDING_PROPERTY = "schema.history.internal.openrs.binding";

  private final DocumentWriter writer = DocumentWriter.defaultWriter();
  private final DocumentReader reader = DocumentReader.defaultReader();
  private final List<HistoryRecord> records = new ArrayList<>();
  private ServerOffsetStore.Binding binding;

  public ServerSchemaHistory() {}

  @Override
  public synchronized void configure(
      Configuration config,
      HistoryRecordComparator comparator,
      SchemaHistoryListener listener,
      boolean useCatalogBeforeSchema) {
    super.configure(config, comparator, listener, useCatalogBeforeSchema);
    String key = config.getString(BINDING_PROPERTY);
    if (key == null) {
      key = config.getString("openrs.binding");
    }
    binding = ServerOffsetStore.binding(key);
    if (binding == null) {
      throw new SchemaHistoryException(
          "ServerSchemaHistory is used only by the openrs agent (no session bound)");
    }
  }

  @Override
  public synchronized void start() {
    super.start();
    records.clear();
    for (String doc : binding.initialHistory()) {
      try {
        records.add(new HistoryRecord(reader.read(doc)));
      } catch (IOException e) {
        throw new SchemaHistoryException(
            "cannot read a schema history record of the resume blob", e);
      }
    }
  }

  @Override
  protected synchronized void storeRecord(HistoryRecord record) throws SchemaHistoryException {
    if (record == null) {
      return;
    }
    records.add(record);
    try {
      binding.historyRecord(writer.write(record.document()));
    } catch (IOException e) {
      throw new SchemaHistoryException("cannot write a schema history record", e);
    }
  }

  @Override
  protected synchronized void recoverRecords(Consumer<HistoryRecord> consumer) {
    records.forEach(consumer);
  }

  @Override
  public synchronized boolean exists() {
    return !records.isEmpty();
  }

  @Override
  public boolean storageExists() {
    return true;
  }
}
