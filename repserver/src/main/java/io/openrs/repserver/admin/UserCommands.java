package io.openrs.repserver.admin;

import io.openrs.config.rssd.RssdUser;
import io.openrs.config.rssd.SourceGrant;
import io.openrs.config.rssd.UserRole;
import io.openrs.pgwire.PgException;
import io.openrs.pgwire.PgResult;
import io.openrs.repserver.admin.rcl.OriginRef;
import io.openrs.repserver.admin.rcl.RclCommand;
import io.openrs.repserver.admin.rcl.RclRole;
import io.openrs.repserver.catalog.Catalog;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Users, their admin roles ({@code sa}, {@code monitor}, or {@code none}: no admin port access) and
 * their {@code connect source} grants (the origins they may connect replication agents for; an
 * administrator may connect every origin without one).
 */
final class UserCommands {

  private final Catalog catalog;

  UserCommands(Catalog catalog) {
    this.catalog = catalog;
  }

  PgResult execute(RclCommand c) throws PgException {
    if (c instanceof RclCommand.CreateUser u) {
      requirePassword(u.password());
      catalog.createUser(
          u.name(),
          u.role().map(UserCommands::role).orElse(UserRole.MONITOR),
          u.password().toCharArray());
      return PgResult.command(c.commandTag())
          .withNotice(
              "user "
                  + u.name()
                  + " created with role "
                  + u.role().map(RclRole::rcl).orElse("monitor")
                  + (u.role().isEmpty() ? " (grant sa to make an administrator)" : "")
                  + (u.role().equals(Optional.of(RclRole.NONE))
                      ? " (it cannot log in to the admin port; grant connect source to let it"
                          + " connect replication agents)"
                      : ""));
    } else if (c instanceof RclCommand.AlterUserPassword u) {
      requirePassword(u.password());
      existing(u.name());
      catalog.setPassword(u.name(), u.password().toCharArray());
    } else if (c instanceof RclCommand.DropUser u) {
      RssdUser user = existing(u.name());
      if (user.role() == UserRole.ADMIN && administrators() == 1) {
        throw new PgException(
            AdminErrors.NOT_IN_PREREQUISITE_STATE,
            "user " + u.name() + " is the last administrator and cannot be dropped");
      }
      catalog.dropUser(u.name());
    } else if (c instanceof RclCommand.Grant g) {
      existing(g.user());
      catalog.setRole(g.user(), role(g.role()));
    } else if (c instanceof RclCommand.Revoke r) {
      return revoke(r);
    } else if (c instanceof RclCommand.GrantConnectSource g) {
      return grantSource(g);
    } else if (c instanceof RclCommand.RevokeConnectSource r) {
      return revokeSource(r);
    } else if (c instanceof RclCommand.RsHelpUser h) {
      return helpUser(h.name());
    } else {
      throw new IllegalStateException("not a user command: " + c.kind());
    }
    return PgResult.command(c.commandTag());
  }

  private PgResult revoke(RclCommand.Revoke r) throws PgException {
    RssdUser user = existing(r.user());
    if (role(r.role()) == UserRole.ADMIN) {
      if (user.role() == UserRole.ADMIN && administrators() == 1) {
        throw new PgException(
            AdminErrors.NOT_IN_PREREQUISITE_STATE,
            "user " + r.user() + " is the last administrator; grant sa to another user first");
      }
      if (user.role() == UserRole.ADMIN) {
        catalog.setRole(r.user(), UserRole.MONITOR);
      }
    } else if (user.role() == UserRole.MONITOR) {
      if (user.sourceGrants().isEmpty()) {
        throw new PgException(
            AdminErrors.NOT_IN_PREREQUISITE_STATE,
            "monitor is user "
                + r.user()
                + "'s only permission; drop user "
                + r.user()
                + " to remove its access");
      }
      catalog.setRole(r.user(), UserRole.NONE);
      return PgResult.command(r.commandTag())
          .withNotice(
              "user "
                  + r.user()
                  + " can no longer log in to the admin port; it keeps connect source for "
                  + grants(user));
    }
    return PgResult.command(r.commandTag());
  }

  private PgResult grantSource(RclCommand.GrantConnectSource g) throws PgException {
    RssdUser user = existing(g.user());
    SourceGrant grant = grant(g.origin());
    boolean added = catalog.grantSource(g.user(), grant);
    StringBuilder notice = new StringBuilder();
    if (!added) {
      notice.append("user ").append(g.user()).append(" already has connect source for ");
      notice.append(grant);
    }
    if (user.role() == UserRole.ADMIN) {
      note(notice, "user " + g.user() + " is an administrator and may connect every origin anyway");
    }
    if (g.origin().isPresent()
        && catalog
            .view()
            .connection(g.origin().get().dataserver(), g.origin().get().database())
            .isEmpty()) {
      note(
          notice,
          "there is no connection "
              + g.origin().get()
              + " yet; the grant applies once it is created with log transfer on");
    }
    PgResult result = PgResult.command(g.commandTag());
    return notice.length() == 0 ? result : result.withNotice(notice.toString());
  }

  private PgResult revokeSource(RclCommand.RevokeConnectSource r) throws PgException {
    RssdUser user = existing(r.user());
    if (r.origin().isEmpty()) {
      if (catalog.revokeAllSources(r.user()) == 0) {
        throw new PgException(
            AdminErrors.UNDEFINED_OBJECT, "user " + r.user() + " has no connect source permission");
      }
    } else {
      SourceGrant grant = grant(r.origin());
      if (user.sourceGrants().contains(SourceGrant.everyOrigin())) {
        throw new PgException(
            AdminErrors.NOT_IN_PREREQUISITE_STATE,
            "user "
                + r.user()
                + " has connect source for every origin; revoke connect source from "
                + r.user()
                + ", then grant connect source on each origin it keeps");
      }
      if (!catalog.revokeSource(r.user(), grant)) {
        throw new PgException(
            AdminErrors.UNDEFINED_OBJECT,
            "user " + r.user() + " has no connect source on " + r.origin().get());
      }
    }
    PgResult result = PgResult.command(r.commandTag());
    return user.role() == UserRole.ADMIN
        ? result.withNotice(
            "user "
                + r.user()
                + " is an administrator and still may connect every origin (revoke sa to end"
                + " that)")
        : result;
  }

  private PgResult helpUser(Optional<String> name) {
    Table t = new Table().text("user_name").text("role").text("connect_source");
    for (RssdUser u : catalog.view().users()) {
      if (name.isEmpty() || name.get().equalsIgnoreCase(u.name())) {
        t.row(u.name(), roleName(u.role()), sourceColumn(u));
      }
    }
    return t.result("RS_HELPUSER");
  }

  /** What {@code rs_helpuser} shows in {@code connect_source}. */
  private static String sourceColumn(RssdUser u) {
    if (u.role() == UserRole.ADMIN) {
      return "every origin (sa)";
    }
    return u.sourceGrants().isEmpty() ? "" : grants(u);
  }

  private static String grants(RssdUser u) {
    return u.sourceGrants().stream().map(SourceGrant::toString).collect(Collectors.joining(", "));
  }

  private static void note(StringBuilder notice, String text) {
    if (notice.length() > 0) {
      notice.append("; ");
    }
    notice.append(text);
  }

  private static SourceGrant grant(Optional<OriginRef> origin) {
    return origin
        .map(o -> SourceGrant.origin(o.dataserver(), o.database()))
        .orElse(SourceGrant.everyOrigin());
  }

  private static void requirePassword(String password) throws PgException {
    if (password.length() < 8) {
      throw new PgException(
          AdminErrors.INVALID_PARAMETER_VALUE, "a password needs at least 8 characters");
    }
  }

  private RssdUser existing(String name) throws PgException {
    return catalog
        .view()
        .user(name)
        .orElseThrow(() -> new PgException(AdminErrors.UNDEFINED_OBJECT, "no user " + name));
  }

  private long administrators() {
    return catalog.view().users().stream().filter(u -> u.role() == UserRole.ADMIN).count();
  }

  private static UserRole role(RclRole r) {
    return switch (r) {
      case SA -> UserRole.ADMIN;
      case MONITOR -> UserRole.MONITOR;
      case NONE -> UserRole.NONE;
    };
  }

  private static String roleName(UserRole r) {
    return switch (r) {
      case ADMIN -> RclRole.SA.rcl();
      case MONITOR -> RclRole.MONITOR.rcl();
      case NONE -> RclRole.NONE.rcl();
    };
  }
}
