package io.openrs.config.param;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Every problem found in a set of values (a start-up file, the RSSD rows of a connection), so the
 * DBA can fix them all at once. The message lists one problem per line.
 */
public final class InvalidConfigurationException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final transient List<ParameterException> problems;

  public InvalidConfigurationException(String what, List<ParameterException> problems) {
    super(message(what, problems));
    if (problems.isEmpty()) {
      throw new IllegalArgumentException("an invalid configuration needs at least one problem");
    }
    this.problems = List.copyOf(problems);
  }

  private static String message(String what, List<ParameterException> problems) {
    return problems.size()
        + (problems.size() == 1 ? " invalid parameter in " : " invalid parameters in ")
        + what
        + ":"
        + problems.stream().map(p -> "\n  " + p.getMessage()).collect(Collectors.joining());
  }

  /** The problems, in parameter-name order. */
  public List<ParameterException> problems() {
    return problems;
  }
}
