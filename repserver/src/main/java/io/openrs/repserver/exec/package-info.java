/**
 * EXEC: the LTL port. {@link io.openrs.repserver.exec.LtlListener} accepts agents' TCP connections
 * (Netty; one boss thread, worker event loops); {@link io.openrs.repserver.exec.Admission} decides
 * who holds a place (sockets in the handshake apart from admitted agents, the handshake timeout,
 * summary log lines through {@link io.openrs.repserver.exec.SummaryLog}); one {@link
 * io.openrs.repserver.exec.AgentSession} per connection, confined to its channel's event loop, runs
 * the handshake (the login by {@link io.openrs.repserver.exec.AgentLogin}: SCRAM-SHA-256 from
 * protocol version 4 on, per-address backoff after failed logins; the {@code connect source} check
 * by the {@link io.openrs.repserver.exec.AgentGate}, which {@link
 * io.openrs.repserver.exec.OriginGate} implements over the STS cache and the running origins),
 * hands batches to its origin's pipeline and closes an agent that stays silent for the idle
 * timeout. With {@code ltl_tls} on or required a {@link io.openrs.repserver.exec.TlsSniffer} first
 * tells TLS agents from plaintext ones ({@link io.openrs.repserver.exec.LtlTls} holds the
 * settings); the session starts compression after its Welcome ({@code
 * io.openrs.wire.LinkCompression}). The protocol is {@code docs/formats/ltl-wire.md}; what is
 * protected is in {@code docs/security.md}.
 *
 * <p>Admission and SummaryLog are shared by every event loop and thread-safe; AgentSession is not
 * (owned by its event loop). Threads: Netty's boss and worker event loops of the LTL port ({@code
 * rs-repserver-ltlaccept-<pool>-1}, {@code rs-repserver-ltlio-<pool>-<n>}).
 *
 * <p>Must not: import {@code admin}, {@code monitor} or {@code catalog}, nor the root package; it
 * reaches its origin only through {@code origin}. Enforced by {@code ModuleBoundariesTest}.
 */
package io.openrs.repserver.exec;
