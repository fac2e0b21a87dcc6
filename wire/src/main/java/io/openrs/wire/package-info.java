/**
 * The LTL transport between a replication agent and the replication server: length-prefixed frames
 * over TCP (handshake, LTL batches and their answers, truncation requests, resume blobs), the Netty
 * codec both sides use, and the agent-side client.
 *
 * <ul>
 *   <li>{@link io.openrs.wire.Frame}: the frames, as immutable records.
 *   <li>{@link io.openrs.wire.FrameCodec}: the byte layout (drawn in its class comment), the Netty
 *       decoder and encoder, and {@code install} for a pipeline. Used by the server's LTL listener
 *       (module {@code repserver}) and by {@link io.openrs.wire.LtlClient}.
 *   <li>{@link io.openrs.wire.LtlClient}: the agent side: handshake, pipelined batches with
 *       back-pressure, truncation requests, resume blobs. Used by module {@code repagent}.
 *   <li>{@link io.openrs.wire.WireProtocol}, {@link io.openrs.wire.ErrorCode}: versions, limits and
 *       the stable error codes.
 *   <li>{@link io.openrs.wire.LtlCompression}, {@link io.openrs.wire.LinkCompression}: the link's
 *       compression (protocol version 4 on), started after the Welcome on both sides; {@link
 *       io.openrs.wire.LinkBytes} counts bytes on the wire and as frames.
 *   <li>{@link io.openrs.wire.ClientTls}: the agent side's TLS ({@code sslmode}-like modes).
 * </ul>
 *
 * <p>Threads: the codec runs on the Netty I/O thread of its channel. An {@code LtlClient} owns one
 * I/O thread ({@code rs-wire-client-<id>}) unless given a shared event loop group; its public
 * methods may be called from any other thread.
 *
 * <p>Owns the frame format only; it parses no LTL beyond what the handshake needs, holds no queue,
 * no RSSD and no database code. Must not import {@code java.sql}, {@code io.openrs.queue}, {@code
 * io.openrs.config}, {@code io.openrs.repserver}, {@code io.openrs.dsi} or {@code
 * io.openrs.repagent} ({@code ModuleBoundariesTest} enforces it). The protocol is described in
 * {@code docs/formats/ltl-wire.md}.
 */
package io.openrs.wire;
