package io.openrs.repserver.exec;

import io.openrs.ltl.LtlCommand;
import io.openrs.repserver.origin.OriginPipeline;

/** Admits an agent: checks its credentials and finds the origin it names. */
public interface AgentGate {

  /**
   * The pipeline of the origin the agent names.
   *
   * @throws AgentRejectedException with {@code AUTHENTICATION_FAILED}, {@code UNKNOWN_ORIGIN},
   *     {@code LOG_TRANSFER_STOPPED} or {@code SHUTTING_DOWN}
   */
  OriginPipeline admit(LtlCommand.Connect connect) throws AgentRejectedException;
}
