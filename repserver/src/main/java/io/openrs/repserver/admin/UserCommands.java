package io.openrs.repserver.admin;

import io.openrs.config.rssd.RssdUser;
import io.openrs.config.rssd.ScramVerifier;
import io.openrs.config.rssd.UserRole;
import io.openrs.pgwire.PgException;
import io.openrs.pgwire.PgResult;
import io.openrs.repserver.ReplicationServer;
import io.openrs.repserver.admin.rcl.RclCommand;
import io.openrs.repserver.admin.rcl.RclRole;

/** Users and their roles: {@code sa} (administrator) or {@code monitor} (read-only). */
final class UserCommands {

  private final ReplicationServer server;

  UserCommands(ReplicationServer server) {
    this.server = server;
  }

  PgResult execute(RclCommand c) throws PgException {
    if (c instanceof RclCommand.CreateUser u) {
      requirePassword(u.password());
      server.createUser(
          u.name(),
          u.role().map(UserCommands::role).orElse(UserRole.MONITOR),
          u.password().toCharArray());
      return PgResult.command(c.commandTag())
          .withNotice(
              "user "
                  + u.name()
                  + " created with role "
                  + u.role().map(RclRole::rcl).orElse("monitor")
                  + (u.role().isEmpty() ? " (grant sa to make an administrator)" : ""));
    } else if (c instanceof RclCommand.AlterUserPassword u) {
      requirePassword(u.password());
      existing(u.name());
      server.rssd().users().setSecret(u.name(), ScramVerifier.derive(u.password().toCharArray()));
    } else if (c instanceof RclCommand.DropUser u) {
      RssdUser user = existing(u.name());
      if (user.role() == UserRole.ADMIN && administrators() == 1) {
        throw new PgException(
            AdminErrors.NOT_IN_PREREQUISITE_STATE,
            "user " + u.name() + " is the last administrator and cannot be dropped");
      }
      server.rssd().users().drop(u.name());
    } else if (c instanceof RclCommand.Grant g) {
      existing(g.user());
      server.rssd().users().setRole(g.user(), role(g.role()));
    } else if (c instanceof RclCommand.Revoke r) {
      RssdUser user = existing(r.user());
      if (role(r.role()) == UserRole.ADMIN) {
        if (user.role() == UserRole.ADMIN && administrators() == 1) {
          throw new PgException(
              AdminErrors.NOT_IN_PREREQUISITE_STATE,
              "user " + r.user() + " is the last administrator; grant sa to another user first");
        }
        server.rssd().users().setRole(r.user(), UserRole.MONITOR);
      } else if (user.role() == UserRole.MONITOR) {
        throw new PgException(
            AdminErrors.NOT_IN_PREREQUISITE_STATE,
            "monitor is the least role; drop user " + r.user() + " to remove its access");
      }
    } else {
      throw new IllegalStateException("not a user command: " + c.kind());
    }
    return PgResult.command(c.commandTag());
  }

  private static void requirePassword(String password) throws PgException {
    if (password.length() < 8) {
      throw new PgException(
          AdminErrors.INVALID_PARAMETER_VALUE, "a password needs at least 8 characters");
    }
  }

  private RssdUser existing(String name) throws PgException {
    return server
        .rssd()
        .users()
        .find(name)
        .orElseThrow(() -> new PgException(AdminErrors.UNDEFINED_OBJECT, "no user " + name));
  }

  private long administrators() {
    return server.rssd().users().all().stream().filter(u -> u.role() == UserRole.ADMIN).count();
  }

  private static UserRole role(RclRole r) {
    return r == RclRole.SA ? UserRole.ADMIN : UserRole.MONITOR;
  }
}
