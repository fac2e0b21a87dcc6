/**
 * The LTL transport between a replication agent and the replication server: length-prefixed frames
 * over TCP (handshake, LTL batches and their answers, truncation requests, resume blobs), the Netty
 * codec both sides use, and the agent-side client.
 *
 * <p>Owns the frame format only; it parses no LTL beyond what the handshake needs, holds no queue,
 * no RSSD and no database code.
 */
package io.openrs.wire;
