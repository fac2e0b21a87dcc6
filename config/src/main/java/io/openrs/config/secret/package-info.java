/**
 * Secrets the server keeps: connection passwords sealed at rest in the RSSD ({@link
 * io.openrs.config.secret.SecretBox}, AES-256-GCM), the key file that holds the key ({@link
 * io.openrs.config.secret.SecretKeyFile}), references resolved at use ({@code env:NAME}, {@code
 * file:/path}, {@link io.openrs.config.secret.Secrets}), and files created private to the server's
 * user ({@link io.openrs.config.secret.PrivateFiles}). {@code docs/security.md} ("Secrets and
 * files") describes them.
 *
 * <p>Threads: none of its own; every class is immutable or stateless and may be called by any
 * thread.
 *
 * <p>Must not: depend on the agent, server, queue or DSI modules (enforced by {@code
 * ModuleBoundariesTest}); put a clear secret into an exception message, a log line or a {@code
 * toString()}.
 */
package io.openrs.config.secret;
