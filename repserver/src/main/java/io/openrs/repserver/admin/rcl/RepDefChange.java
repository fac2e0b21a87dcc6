package io.openrs.repserver.admin.rcl;

import java.util.List;

/** What {@code alter replication definition <name> ...} changes. */
public sealed interface RepDefChange {

  /** {@code add col type [map to type] [, ...]}: new columns. */
  record AddColumns(List<ColumnDef> columns) implements RepDefChange {
    public AddColumns {
      columns = RclText.nonEmptyCopy(columns, "columns");
    }

    @Override
    public String toString() {
      return "add " + RclText.join(columns);
    }
  }

  /** {@code add searchable columns (c1, ...)}: columns a subscription's where clause may use. */
  record AddSearchableColumns(List<String> columns) implements RepDefChange {
    public AddSearchableColumns {
      columns = RclText.nonEmptyCopy(columns, "columns");
    }

    @Override
    public String toString() {
      return "add searchable columns " + RclText.names(columns);
    }
  }

  /** {@code drop searchable columns (c1, ...)}. */
  record DropSearchableColumns(List<String> columns) implements RepDefChange {
    public DropSearchableColumns {
      columns = RclText.nonEmptyCopy(columns, "columns");
    }

    @Override
    public String toString() {
      return "drop searchable columns " + RclText.names(columns);
    }
  }
}
