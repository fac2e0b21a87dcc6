package io.openrs.config.param;

/** A problem with one named parameter; the message is meant for the DBA as it stands. */
public class ParameterException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String parameterName;

  public ParameterException(String parameterName, String message) {
    super(message);
    this.parameterName = parameterName;
  }

  /** The parameter the problem is about, as the DBA wrote it (lower case). */
  public String parameterName() {
    return parameterName;
  }
}
