package io.openrs.config.secret;

/**
 * A secret cannot be sealed, opened or resolved: wrong key, damaged value, unknown format version,
 * missing environment variable or file. The message names the context (e.g. {@code connection 101
 * password}) and the cause, never the secret.
 */
public final class SecretException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public SecretException(String message) {
    super(message);
  }

  public SecretException(String message, Throwable cause) {
    super(message, cause);
  }
}
