package io.openrs.queue;

/** A queue parameter outside its allowed range; names the parameter, the value and the range. */
public final class InvalidSettingException extends IllegalArgumentException {

  private final String parameter;
  private final String value;
  private final String allowed;

  public InvalidSettingException(String parameter, Object value, String allowed, Throwable cause) {
    super(parameter + " = '" + value + "' is not allowed: must be " + allowed, cause);
    this.parameter = parameter;
    this.value = String.valueOf(value);
    this.allowed = allowed;
  }

  /** The parameter's configuration name, e.g. {@code block_size}. */
  public String parameter() {
    return parameter;
  }

  /** The rejected value as given. */
  public String value() {
    return value;
  }

  /** The allowed range in words. */
  public String allowed() {
    return allowed;
  }
}
