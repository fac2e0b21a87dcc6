package io.openrs.repserver.dist;

import io.openrs.config.rssd.RepDef;
import io.openrs.config.rssd.RepDefColumn;
import io.openrs.ltl.Column;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.TableName;
import io.openrs.ltl.Value;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One subscription's view of one primary table: which replicate gets the table's changes, under
 * which where clause, mapped through which table-level replication definition (none for a
 * database-level one: names and columns pass unchanged).
 *
 * <p>An update is routed by where its row was and where it is: before and after both match = the
 * update; only the before image matches = a delete; only the after image = an insert (built from
 * the after image, with columns the source marked unchanged taken from the before image). So the
 * replicate's subset stays right as rows move in and out of the subscription.
 *
 * <p>A <b>materializing</b> subscription ({@code with materialization}, until its snapshot is
 * complete) gets its changes autocorrected, as Replication Server does during non-atomic
 * materialization: the replicate may not hold a row yet (its chunk of the snapshot comes later, or
 * came without it because the row changed while the chunk was read), so inserts and updates become
 * snapshot inserts (upserts) of the full new row, and an update that changes the primary key first
 * deletes the old key. Deletes stay deletes (of a row that may not be there yet).
 */
public record SubscriptionRoute(
    String subscription,
    int replicateConnectionId,
    Optional<RepDef> repDef,
    Optional<WhereClause> where,
    boolean materializing) {

  /** A valid (not materializing) subscription's route. */
  public SubscriptionRoute(
      String subscription,
      int replicateConnectionId,
      Optional<RepDef> repDef,
      Optional<WhereClause> where) {
    this(subscription, replicateConnectionId, repDef, where, false);
  }

  /**
   * The commands this subscription's replicate gets for {@code change}: {@link #route}, then, while
   * materializing, autocorrected (see the class comment).
   */
  public List<LtlCommand.InTransaction> routeAll(LtlCommand.RowChange change) {
    Optional<LtlCommand.InTransaction> routed = route(change);
    if (routed.isEmpty()) {
      return List.of();
    }
    LtlCommand.InTransaction c = routed.get();
    if (!materializing) {
      return List.of(c);
    }
    if (c instanceof LtlCommand.Insert i) {
      return i.snapshot()
          ? List.of(i)
          : List.of(new LtlCommand.Insert(i.tran(), i.oqid(), i.table(), true, i.after()));
    }
    if (c instanceof LtlCommand.Update u) {
      // the route mapped names already; the complete image uses the mapped before image
      LtlCommand.Insert upsert =
          new LtlCommand.Insert(u.tran(), u.oqid(), u.table(), true, completeImage(u));
      if (keyChanged(u)) {
        return List.of(new LtlCommand.Delete(u.tran(), u.oqid(), u.table(), u.before()), upsert);
      }
      return List.of(upsert);
    }
    return List.of(c);
  }

  /** Whether a (mapped) update changes a primary key column (all columns without a key). */
  private boolean keyChanged(LtlCommand.Update u) {
    java.util.Set<String> key = new java.util.HashSet<>();
    if (repDef.isPresent()) {
      RepDef d = repDef.get();
      List<String> names = d.primaryKey();
      for (RepDefColumn rc : d.columns()) {
        if (names.isEmpty() || names.stream().anyMatch(k -> k.equalsIgnoreCase(rc.name()))) {
          key.add(
              (rc.replicateName() == null || rc.replicateName().isEmpty()
                      ? rc.name()
                      : rc.replicateName())
                  .toLowerCase(java.util.Locale.ROOT));
        }
      }
    }
    Map<String, Value> before = new HashMap<>();
    for (Column c : u.before()) {
      before.put(c.name().toLowerCase(java.util.Locale.ROOT), c.value());
    }
    for (Column c : u.after()) {
      String n = c.name().toLowerCase(java.util.Locale.ROOT);
      if ((key.isEmpty() || key.contains(n)) && !(c.value() instanceof Value.Unchanged)) {
        Value b = before.get(n);
        if (b != null && !b.equals(c.value())) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Whether every row change reaches this subscription's replicate exactly as the primary sent it
   * (a database-level replication definition, no where clause, not materializing): then {@link
   * #routeAll} returns the change itself, and DIST passes its packed bytes without decoding them.
   */
  public boolean passesUnchanged() {
    return repDef.isEmpty() && where.isEmpty() && !materializing;
  }

  /** The command this subscription's replicate gets, if any. */
  public Optional<LtlCommand.InTransaction> route(LtlCommand.RowChange change) {
    if (where.isEmpty()) {
      return Optional.of(map(change));
    }
    WhereClause w = where.get();
    if (change instanceof LtlCommand.Insert i) {
      return w.matches(lookup(i.after(), List.of())) ? Optional.of(map(i)) : Optional.empty();
    } else if (change instanceof LtlCommand.Delete d) {
      return w.matches(lookup(d.before(), List.of())) ? Optional.of(map(d)) : Optional.empty();
    }
    LtlCommand.Update u = (LtlCommand.Update) change;
    boolean was = w.matches(lookup(u.before(), List.of()));
    boolean is = w.matches(lookup(u.after(), u.before()));
    if (was && is) {
      return Optional.of(map(u));
    } else if (was) {
      return Optional.of(map(new LtlCommand.Delete(u.tran(), u.oqid(), u.table(), u.before())));
    } else if (is) {
      return Optional.of(
          map(new LtlCommand.Insert(u.tran(), u.oqid(), u.table(), false, completeImage(u))));
    }
    return Optional.empty();
  }

  /** Maps a command that carries no row (truncate) to the replicate's table name. */
  public LtlCommand.Truncate mapTruncate(LtlCommand.Truncate t) {
    return new LtlCommand.Truncate(t.tran(), t.oqid(), replicateTable(t.table()));
  }

  private static List<Column> completeImage(LtlCommand.Update u) {
    Map<String, Value> before = new HashMap<>();
    for (Column c : u.before()) {
      before.put(c.name(), c.value());
    }
    List<Column> out = new ArrayList<>(u.after().size());
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (Column c : u.after()) {
      seen.add(c.name());
      if (c.value() instanceof Value.Unchanged) {
        Value b = before.get(c.name());
        if (b == null || b instanceof Value.Unchanged) {
          throw new WhereClause.EvaluationException(
              "update at OQID "
                  + u.oqid()
                  + " moves a row into the subscription, but the source sent neither the new nor"
                  + " the old value of column "
                  + c.name()
                  + " to build the insert (give the table REPLICA IDENTITY FULL)");
        }
        out.add(new Column(c.name(), b));
      } else {
        out.add(c);
      }
    }
    for (Column c : u.before()) {
      if (!seen.contains(c.name())) {
        out.add(c);
      }
    }
    return out;
  }

  private static java.util.function.Function<String, Optional<Value>> lookup(
      List<Column> image, List<Column> fallback) {
    return name -> {
      for (Column c : image) {
        if (c.name().equalsIgnoreCase(name)) {
          if (c.value() instanceof Value.Unchanged) {
            break;
          }
          return Optional.of(c.value());
        }
      }
      for (Column c : fallback) {
        if (c.name().equalsIgnoreCase(name)) {
          return Optional.of(c.value());
        }
      }
      return Optional.empty();
    };
  }

  private TableName replicateTable(TableName primary) {
    if (repDef.isEmpty()) {
      return primary;
    }
    RepDef d = repDef.get();
    return new TableName(d.replicateSchema(), d.replicateTable());
  }

  private LtlCommand.InTransaction map(LtlCommand.RowChange c) {
    if (repDef.isEmpty()) {
      return c;
    }
    TableName table = replicateTable(c.table());
    if (c instanceof LtlCommand.Insert i) {
      return new LtlCommand.Insert(i.tran(), i.oqid(), table, i.snapshot(), columns(i.after()));
    } else if (c instanceof LtlCommand.Update u) {
      return new LtlCommand.Update(
          u.tran(), u.oqid(), table, columns(u.before()), columns(u.after()));
    }
    LtlCommand.Delete d = (LtlCommand.Delete) c;
    return new LtlCommand.Delete(d.tran(), d.oqid(), table, columns(d.before()));
  }

  /** The repdef's columns present in {@code image}, in repdef order, under replicate names. */
  private List<Column> columns(List<Column> image) {
    Map<String, Value> byName = new HashMap<>();
    for (Column c : image) {
      byName.put(c.name(), c.value());
    }
    List<Column> out = new ArrayList<>(image.size());
    for (RepDefColumn rc : repDef.get().columns()) {
      Value v = byName.get(rc.name());
      if (v != null) {
        String name =
            rc.replicateName() == null || rc.replicateName().isEmpty()
                ? rc.name()
                : rc.replicateName();
        out.add(new Column(name, v));
      }
    }
    return out;
  }
}
