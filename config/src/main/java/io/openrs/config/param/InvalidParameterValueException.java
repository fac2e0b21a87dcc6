package io.openrs.config.param;

/**
 * A value a parameter does not accept. The message names the parameter, the value and what is
 * allowed, e.g. {@code block_size: 1000 is out of range 16384..262144}.
 */
public final class InvalidParameterValueException extends ParameterException {
  private static final long serialVersionUID = 1L;

  private final String value;

  public InvalidParameterValueException(String parameterName, String value, String message) {
    super(parameterName, message);
    this.value = value;
  }

  /** The refused text, as given. */
  public String value() {
    return value;
  }
}
