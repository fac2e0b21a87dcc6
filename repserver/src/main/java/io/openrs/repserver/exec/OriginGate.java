package io.openrs.repserver.exec;

import io.openrs.config.rssd.ConnectionDef;
import io.openrs.config.rssd.RssdUser;
import io.openrs.config.rssd.StsCache;
import io.openrs.ltl.LtlCommand;
import io.openrs.repserver.origin.OriginPipeline;
import io.openrs.repserver.origin.OriginState;
import io.openrs.wire.ErrorCode;
import io.openrs.wire.WireProtocol;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;

/**
 * The server's {@link AgentGate}: users and their {@code connect source} permissions from the STS
 * cache, the origin from the server's running pipelines. Refuses while the server shuts down, and
 * an origin whose log transfer is stopped (logging only the first refusal of each stop).
 */
public final class OriginGate implements AgentGate {

  private final StsCache sts;
  private final IntFunction<OriginPipeline> origins;
  private final BooleanSupplier closing;

  /**
   * @param origins the running pipeline of an origin connection, by id ({@code null} when none)
   * @param closing whether the server is shutting down
   */
  public OriginGate(StsCache sts, IntFunction<OriginPipeline> origins, BooleanSupplier closing) {
    this.sts = sts;
    this.origins = origins;
    this.closing = closing;
  }

  @Override
  public Optional<String> verifier(String user) {
    return sts.user(user).map(RssdUser::scramSha256);
  }

  @Override
  public OriginPipeline admit(String userName, LtlCommand.Connect connect, int version)
      throws AgentRejectedException {
    if (closing.getAsBoolean()) {
      throw new AgentRejectedException(ErrorCode.SHUTTING_DOWN, "the server is shutting down");
    }
    String origin = connect.originServer() + "." + connect.originDatabase();
    Optional<RssdUser> user = sts.user(userName);
    if (user.isEmpty()) {
      throw new AgentRejectedException(
          ErrorCode.AUTHENTICATION_FAILED, "user '" + userName + "' was dropped");
    }
    if (!user.get().mayConnectSource(connect.originServer(), connect.originDatabase())) {
      // Checked before the origin is looked up: it tells an unprivileged user nothing about
      // which origins exist.
      throw new AgentRejectedException(
          version >= WireProtocol.SCRAM_VERSION
              ? ErrorCode.PERMISSION_DENIED
              : ErrorCode.AUTHENTICATION_FAILED,
          "user '"
              + userName
              + "' may not connect a replication agent for origin "
              + origin
              + " ("
              + (user.get().sourceGrants().isEmpty()
                  ? "it has no connect source permission"
                  : "it has connect source for " + user.get().sourceGrants())
              + "); an administrator can run: grant connect source on "
              + origin
              + " to "
              + userName);
    }
    Optional<ConnectionDef> c = sts.connection(connect.originServer(), connect.originDatabase());
    if (c.isEmpty() || !c.get().logTransfer()) {
      throw new AgentRejectedException(
          ErrorCode.UNKNOWN_ORIGIN,
          c.isEmpty()
              ? "no connection " + origin + " (create connection ... with log transfer on)"
              : "connection "
                  + origin
                  + " has no log transfer (alter connection ... set log"
                  + " transfer on)");
    }
    OriginPipeline p = origins.apply(c.get().id());
    if (p == null) {
      throw new AgentRejectedException(
          ErrorCode.UNKNOWN_ORIGIN, "origin " + origin + " is not started");
    }
    OriginState.LogTransfer lt = p.state().logTransfer();
    if (!lt.running()) {
      boolean first = p.state().firstRefusalFor(lt);
      throw new AgentRejectedException(
          ErrorCode.LOG_TRANSFER_STOPPED,
          "log transfer from " + origin + " is stopped: " + lt.stoppedBecause().orElse(""),
          !first);
    }
    return p;
  }
}
