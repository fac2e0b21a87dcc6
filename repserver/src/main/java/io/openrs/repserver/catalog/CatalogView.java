package io.openrs.repserver.catalog;

import io.openrs.config.rssd.ConnectionDef;
import io.openrs.config.rssd.CounterSample;
import io.openrs.config.rssd.DatabaseRepDef;
import io.openrs.config.rssd.ErrorClassAssignment;
import io.openrs.config.rssd.ErrorClassDef;
import io.openrs.config.rssd.ExceptionEntry;
import io.openrs.config.rssd.ExceptionHeader;
import io.openrs.config.rssd.RepDef;
import io.openrs.config.rssd.Rssd;
import io.openrs.config.rssd.RssdUser;
import io.openrs.config.rssd.StsCache;
import io.openrs.config.rssd.Subscription;
import io.openrs.config.rssd.TicketEntry;
import io.openrs.dsi.DsiTarget;
import io.openrs.repserver.dsi.DsiTargets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the admin commands read of the RSSD, and nothing they could write with: lists and rows, no
 * table objects. Reads that sit on the agents' or the admin port's hot paths (a connection by name,
 * a user by name) go through the STS cache; the listings read the RSSD.
 */
public final class CatalogView {

  private final Rssd rssd;
  private final StsCache sts;

  CatalogView(Rssd rssd, StsCache sts) {
    this.rssd = rssd;
    this.sts = sts;
  }

  /** The connection {@code ds.db}, from the STS cache. */
  public Optional<ConnectionDef> connection(String dataserver, String database) {
    return sts.connection(dataserver, database);
  }

  /** The connection of id {@code connectionId}. */
  public Optional<ConnectionDef> connection(int connectionId) {
    return rssd.connections().find(connectionId);
  }

  /** Every connection, in id order. */
  public List<ConnectionDef> connections() {
    return rssd.connections().all();
  }

  /** The replication definitions whose primary is connection {@code connectionId}. */
  public List<RepDef> repDefsOf(int connectionId) {
    return rssd.repDefs().forPrimaryConnection(connectionId);
  }

  /** The replication definition {@code name}. */
  public Optional<RepDef> repDef(String name) {
    return rssd.repDefs().find(name);
  }

  /** The database replication definitions of primary connection {@code connectionId}. */
  public List<DatabaseRepDef> databaseRepDefsOf(int connectionId) {
    return rssd.repDefs().databaseRepDefsFor(connectionId);
  }

  /** Subscription {@code name} of replicate connection {@code replicateConnectionId}. */
  public Optional<Subscription> subscription(String name, int replicateConnectionId) {
    return rssd.subscriptions().find(name, replicateConnectionId);
  }

  /** Every subscription. */
  public List<Subscription> subscriptions() {
    return rssd.subscriptions().all();
  }

  /** The user {@code name}, from the STS cache (the admin port's login). */
  public Optional<RssdUser> loginUser(String name) {
    return sts.user(name);
  }

  /** The user {@code name}. */
  public Optional<RssdUser> user(String name) {
    return rssd.users().find(name);
  }

  /** Every user. */
  public List<RssdUser> users() {
    return rssd.users().all();
  }

  /** The server values saved by {@code configure replication server}, by parameter name. */
  public Map<String, String> savedServerValues() {
    return rssd.config().serverValues();
  }

  /** The error class {@code name}. */
  public Optional<ErrorClassDef> errorClass(String name) {
    return rssd.errorClasses().find(name);
  }

  /** Every error class. */
  public List<ErrorClassDef> errorClasses() {
    return rssd.errorClasses().all();
  }

  /** The actions assigned in error class {@code name}. */
  public List<ErrorClassAssignment> errorActions(String name) {
    return rssd.errorClasses().assignments(name);
  }

  /** What names error class {@code name} (connections, the server). */
  public List<String> errorClassUsedBy(String name) {
    return rssd.errorClasses().usedBy(name);
  }

  /** The oldest {@code limit} transactions of the exceptions log. */
  public List<ExceptionHeader> exceptionHeaders(int limit) {
    return rssd.exceptions().headers(limit);
  }

  /** How many transactions the exceptions log holds. */
  public long exceptionCount() {
    return rssd.exceptions().count();
  }

  /** Logged transaction {@code id}, with its commands. */
  public Optional<ExceptionEntry> exception(long id) {
    return rssd.exceptions().find(id);
  }

  /** The latest {@code limit} tickets that reached a replicate. */
  public List<TicketEntry> recentTickets(int limit) {
    return rssd.tickets().recent(limit);
  }

  /** Every counter sample saved in {@code rs_statdetail} ({@code rs_dump_stats}). */
  public List<CounterSample> counterSamples() {
    return rssd.counterSamples()
        .query(Instant.EPOCH, Instant.now().plusSeconds(1), Optional.empty(), Optional.empty());
  }

  /** The RSSD's schema version. */
  public String schemaVersion() {
    return rssd.schemaVersion();
  }

  /** Where and how to reach replicate connection {@code c}, its secrets resolved. */
  public DsiTarget targetOf(ConnectionDef c) {
    return DsiTargets.target(c, rssd.secrets());
  }
}
