package io.openrs.dsi.internal;

import io.openrs.dsi.DsiCounter;
import io.openrs.dsi.dialect.ColumnMeta;
import io.openrs.dsi.dialect.TableMeta;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.LtlCommand.InTransaction;
import io.openrs.ltl.Value;
import java.util.List;

/** One thing to do at the replicate for a command: a statement, a DDL, a ticket. Immutable. */
abstract class Op {
  final InTransaction source;

  private Op(InTransaction source) {
    this.source = source;
  }

  /** A parameterized statement. Consecutive statements with the same SQL form one batch. */
  static final class Stmt extends Op {
    final String sql;
    final List<Value> values;
    final List<ColumnMeta> columns;

    /** Rows it must touch (update, delete), or -1 when any count is right. */
    final int expectedRows;

    /** Which of InsertsRead, UpdatesRead, ... it counts as, or null. */
    final DsiCounter counter;

    /** A plain insert that may go through the bulk interface with its neighbours. */
    final boolean bulkable;

    final TableMeta table;
    final List<String> columnNames;
    final long bytes;

    Stmt(
        InTransaction source,
        String sql,
        List<Value> values,
        List<ColumnMeta> columns,
        int expectedRows,
        DsiCounter counter,
        boolean bulkable,
        TableMeta table,
        List<String> columnNames) {
      super(source);
      this.sql = sql;
      this.values = List.copyOf(values);
      this.columns = columns;
      this.expectedRows = expectedRows;
      this.counter = counter;
      this.bulkable = bulkable;
      this.table = table;
      this.columnNames = columnNames;
      long b = sql.length();
      for (Value v : values) {
        b += sizeOf(v);
      }
      this.bytes = b;
    }

    /** The statement with its values, for messages. */
    String describe() {
      return ValueText.statement(sql, values);
    }

    private static long sizeOf(Value v) {
      if (v instanceof Value.Text t) {
        return t.value().length();
      } else if (v instanceof Value.Json j) {
        return j.value().length();
      } else if (v instanceof Value.Binary b) {
        return b.length();
      } else if (v instanceof Value.Decimal d) {
        return d.value().precision();
      }
      return 8;
    }
  }

  /** A DDL statement, applied only where the connection opts in. */
  static final class DdlOp extends Op {
    final LtlCommand.Ddl ddl;

    DdlOp(LtlCommand.Ddl ddl) {
      super(ddl);
      this.ddl = ddl;
    }
  }

  /** An rs_ticket: reported to the server once its transaction commits. */
  static final class TicketOp extends Op {
    final LtlCommand.Ticket ticket;

    TicketOp(LtlCommand.Ticket ticket) {
      super(ticket);
      this.ticket = ticket;
    }
  }
}
