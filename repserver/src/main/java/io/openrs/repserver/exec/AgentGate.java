package io.openrs.repserver.exec;

import io.openrs.ltl.LtlCommand;
import io.openrs.repserver.origin.OriginPipeline;
import java.util.Optional;

/** Admits an agent: knows the users' verifiers and permissions and finds the origin it names. */
public interface AgentGate {

  /** The SCRAM-SHA-256 verifier of {@code user}, empty when there is no such user. */
  Optional<String> verifier(String user);

  /**
   * The pipeline of the origin the agent names, for an agent whose {@code user} has proven its
   * password ({@link AgentLogin}).
   *
   * @param version the session's protocol version: a missing {@code connect source} permission is
   *     {@code PERMISSION_DENIED} from version 4 on, {@code AUTHENTICATION_FAILED} below (those
   *     agents know codes 1-9 only)
   * @throws AgentRejectedException with {@code AUTHENTICATION_FAILED}, {@code PERMISSION_DENIED},
   *     {@code UNKNOWN_ORIGIN}, {@code LOG_TRANSFER_STOPPED} or {@code SHUTTING_DOWN}
   */
  OriginPipeline admit(String user, LtlCommand.Connect connect, int version)
      throws AgentRejectedException;
}
