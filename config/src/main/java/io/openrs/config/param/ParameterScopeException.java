package io.openrs.config.param;

/**
 * A known parameter set where it cannot be set: at a scope it does not have (e.g. {@code
 * block_size} in {@code alter connection}), or by a command when it is read from the start-up file
 * only.
 */
public final class ParameterScopeException extends ParameterException {
  private static final long serialVersionUID = 1L;

  private final Scope requested;

  public ParameterScopeException(String parameterName, Scope requested, String message) {
    super(parameterName, message);
    this.requested = requested;
  }

  /** The scope the value was to be set at. */
  public Scope requested() {
    return requested;
  }
}
