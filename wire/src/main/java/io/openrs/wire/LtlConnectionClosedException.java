package io.openrs.wire;

import java.io.IOException;

/**
 * The client's connection is gone without an {@link Frame.Error} from the server: the peer closed
 * it or reset it, the server broke the protocol, the client was closed, or a call came after any of
 * these (then the cause is the first failure). A lost connection is always worth a reconnect after
 * a back-off; a client closed by its owner is not.
 */
public final class LtlConnectionClosedException extends IOException {
  private static final long serialVersionUID = 1L;

  /** A closed connection, described by {@code message}. */
  public LtlConnectionClosedException(String message) {
    super(message);
  }

  /** A closed connection, described by {@code message}, because of {@code cause}. */
  public LtlConnectionClosedException(String message, Throwable cause) {
    super(message, cause);
  }
}
