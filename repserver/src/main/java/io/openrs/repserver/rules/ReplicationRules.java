package io.openrs.repserver.rules;

import io.openrs.config.rssd.DatabaseRepDef;
import io.openrs.config.rssd.RepDef;
import io.openrs.config.rssd.Rssd;
import io.openrs.config.rssd.StsCache;
import io.openrs.ltl.TableName;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * Looks up which replication definitions cover a primary table, through the STS cache. A caller on
 * a hot path keeps its own per-table results and drops them when {@link #version()} moves (every
 * change to connections, definitions or subscriptions made through the server bumps it).
 */
public final class ReplicationRules {

  private final Rssd rssd;
  private final StsCache sts;
  private final AtomicLong version = new AtomicLong();

  public ReplicationRules(Rssd rssd, StsCache sts) {
    this.rssd = rssd;
    this.sts = sts;
  }

  /** Table-level definitions whose primary is {@code originId} (not on a hot path). */
  public List<RepDef> repDefsOf(int originId) {
    return rssd.repDefs().forPrimaryConnection(originId);
  }

  /** The STS cache the rules read. */
  public StsCache sts() {
    return sts;
  }

  /** Changes whenever definitions change; callers caching results compare it. */
  public long version() {
    return version.get();
  }

  /** Definitions changed: cached lookups are stale. */
  public void changed() {
    version.incrementAndGet();
  }

  /** The definitions covering {@code table} of origin connection {@code originId}. */
  public TableRules forTable(int originId, TableName table) {
    List<RepDef> tableDefs = sts.repDefsForTable(originId, table.schema(), table.table());
    List<DatabaseRepDef> dbDefs = new ArrayList<>();
    for (DatabaseRepDef d : sts.databaseRepDefs(originId)) {
      if (covers(d, table)) {
        dbDefs.add(d);
      }
    }
    return new TableRules(table, tableDefs, dbDefs);
  }

  /** Whether a database-level definition's include/exclude patterns cover {@code table}. */
  public static boolean covers(DatabaseRepDef d, TableName table) {
    String name = table.schema() + "." + table.table();
    boolean included = d.includeTables().isEmpty();
    for (String p : d.includeTables()) {
      if (like(p, name)) {
        included = true;
        break;
      }
    }
    if (!included) {
      return false;
    }
    for (String p : d.excludeTables()) {
      if (like(p, name)) {
        return false;
      }
    }
    return true;
  }

  /**
   * SQL LIKE over {@code schema.table} ({@code %} any run, {@code _} one character), case-
   * insensitive; a pattern without a dot matches the table name in any schema.
   */
  static boolean like(String pattern, String qualifiedName) {
    String subject = qualifiedName;
    if (pattern.indexOf('.') < 0) {
      subject = qualifiedName.substring(qualifiedName.indexOf('.') + 1);
    }
    StringBuilder re = new StringBuilder();
    for (char c : pattern.toCharArray()) {
      if (c == '%') {
        re.append(".*");
      } else if (c == '_') {
        re.append('.');
      } else {
        re.append(Pattern.quote(String.valueOf(c)));
      }
    }
    return Pattern.compile(re.toString(), Pattern.CASE_INSENSITIVE | Pattern.DOTALL)
        .matcher(subject.toLowerCase(Locale.ROOT))
        .matches();
  }
}
