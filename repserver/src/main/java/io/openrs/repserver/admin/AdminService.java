package io.openrs.repserver.admin;

import io.openrs.config.rssd.RssdUser;
import io.openrs.config.rssd.UserRole;
import io.openrs.pgwire.PgBackend;
import io.openrs.pgwire.PgColumn;
import io.openrs.pgwire.PgException;
import io.openrs.pgwire.PgResult;
import io.openrs.pgwire.PgSession;
import io.openrs.pgwire.PgUser;
import io.openrs.repserver.admin.rcl.RclCommand;
import io.openrs.repserver.admin.rcl.RclParser;
import io.openrs.repserver.admin.rcl.RclSyntaxException;
import io.openrs.repserver.catalog.Catalog;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin port's interpreter: authenticates users against the RSSD (a user of role {@code none},
 * who may only connect replication agents, is refused), parses each command (RCL), checks the
 * session's role (the monitor role runs only commands that change nothing), runs it against the
 * server and answers with a table or a command tag. A command that changes state is persisted in
 * the RSSD before it answers.
 */
public final class AdminService implements PgBackend {

  private static final Logger LOG = LoggerFactory.getLogger(AdminService.class);

  /** Role name of administrators on the wire ({@link UserRole#ADMIN}). */
  public static final String ADMIN_ROLE = "admin";

  /** Role name of the read-only monitor role ({@link UserRole#MONITOR}). */
  public static final String MONITOR_ROLE = "monitor";

  private final Catalog catalog;
  private final DefinitionCommands definitions;
  private final StatusCommands status;
  private final StatsCommands stats;
  private final ControlCommands control;
  private final UserCommands users;
  private final ErrorClassCommands errorClasses;
  private final ExceptionLogCommands exceptions;

  /**
   * @param catalog the RSSD's catalog: what the commands read and change there
   * @param server the running server the commands control and watch
   * @param onShutdown what {@code shutdown} does after it has answered (the process exits)
   */
  public AdminService(Catalog catalog, ServerControl server, Runnable onShutdown) {
    this.catalog = catalog;
    this.definitions = new DefinitionCommands(catalog, server);
    this.status = new StatusCommands(catalog, server);
    this.stats = new StatsCommands(catalog.view(), server);
    this.control = new ControlCommands(catalog, server, onShutdown);
    this.users = new UserCommands(catalog);
    this.errorClasses = new ErrorClassCommands(catalog, server);
    this.exceptions = new ExceptionLogCommands(catalog);
  }

  @Override
  public Optional<PgUser> user(String name) {
    return catalog
        .view()
        .loginUser(name)
        .map((RssdUser u) -> new PgUser(u.name(), u.scramSha256(), roles(u.role())));
  }

  /**
   * The wire roles of an RSSD role. A user of role {@code none} (only {@code connect source}) has
   * none: the admin port refuses it (28000) once it has proven its password.
   */
  private static Set<String> roles(UserRole role) {
    return switch (role) {
      case ADMIN -> Set.of(ADMIN_ROLE);
      case MONITOR -> Set.of(MONITOR_ROLE);
      case NONE -> Set.of();
    };
  }

  /**
   * A command that changes state returns no table: saying so here keeps a client that describes
   * before it executes from running it twice. Read-only commands are left to run at Describe.
   */
  @Override
  public Optional<List<PgColumn>> describe(PgSession session, String commandText) {
    try {
      return RclParser.parse(commandText).changesState()
          ? Optional.of(List.of())
          : Optional.empty();
    } catch (RclSyntaxException e) {
      return Optional.empty();
    }
  }

  @Override
  public PgResult execute(PgSession session, String commandText) throws PgException {
    RclCommand command;
    try {
      command = RclParser.parse(commandText);
    } catch (RclSyntaxException e) {
      throw AdminErrors.of(e, 0);
    }
    if (command.changesState() && !session.roles().contains(ADMIN_ROLE)) {
      throw new PgException(
          AdminErrors.INSUFFICIENT_PRIVILEGE,
          "user "
              + session.user()
              + " has the monitor role, which may not run "
              + command.commandTag().toLowerCase(java.util.Locale.ROOT)
              + " (it changes the server's state); an administrator can grant sa");
    }
    try {
      PgResult result = dispatch(command, session);
      if (command.changesState()) {
        LOG.info("admin {}: {}", session.user(), command);
      }
      return result;
    } catch (RuntimeException | java.io.IOException | InterruptedException e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      int wherePosition =
          command instanceof RclCommand.CreateSubscription s
              ? s.where().map(w -> w.position()).orElse(0)
              : 0;
      PgException p = AdminErrors.of(e, wherePosition);
      if (p.sqlState().equals(AdminErrors.INTERNAL_ERROR)) {
        LOG.error("admin command {} failed", command, e);
      }
      throw p;
    }
  }

  private PgResult dispatch(RclCommand c, PgSession session)
      throws PgException, java.io.IOException, InterruptedException {
    errorClasses.checkReferences(c);
    switch (c.kind()) {
      case CREATE_CONNECTION:
      case ALTER_CONNECTION:
      case DROP_CONNECTION:
      case CREATE_REP_DEF:
      case ALTER_REP_DEF:
      case DROP_REP_DEF:
      case CREATE_DATABASE_REP_DEF:
      case DROP_DATABASE_REP_DEF:
      case RS_HELPREP:
      case CREATE_SUBSCRIPTION:
      case DROP_SUBSCRIPTION:
      case CHECK_SUBSCRIPTION:
      case RS_HELPSUB:
        return definitions.execute(c);
      case ADMIN_SHOW_CONNECTIONS:
      case ADMIN_WHO:
      case ADMIN_WHO_IS_DOWN:
      case ADMIN_DISK_SPACE:
      case ADMIN_VERSION:
      case ADMIN_HEALTH:
      case ADMIN_ECHO:
      case ADMIN_TICKET_HISTORY:
        return status.execute(c);
      case ADMIN_STATS:
      case RS_DUMP_STATS:
      case RS_HELPCOUNTER:
        return stats.execute(c);
      case SUSPEND_LOG_TRANSFER:
      case RESUME_LOG_TRANSFER:
      case SUSPEND_CONNECTION:
      case RESUME_CONNECTION:
      case RESUME_DISTRIBUTOR:
      case CONFIGURE_SERVER:
      case ADMIN_CONFIG:
      case SYSADMIN_DUMP_QUEUE:
      case SYSADMIN_PURGE_QUEUE:
      case RS_TICKET:
      case SHUTDOWN:
        return control.execute(c, session);
      case CREATE_USER:
      case ALTER_USER_PASSWORD:
      case DROP_USER:
      case GRANT:
      case REVOKE:
      case RS_HELPUSER:
        return users.execute(c);
      case CREATE_ERROR_CLASS:
      case ALTER_ERROR_CLASS:
      case DROP_ERROR_CLASS:
      case ASSIGN_ACTION:
      case ADMIN_SHOW_ERROR_CLASS:
      case RS_HELPERROR:
        return errorClasses.execute(c);
      case RS_HELPEXCEPTION:
      case RS_DELEXCEPTION:
        return exceptions.execute(c);
      default:
        throw new PgException(
            AdminErrors.FEATURE_NOT_SUPPORTED, c.commandTag() + " is not supported yet");
    }
  }
}
