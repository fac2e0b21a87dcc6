package io.openrs.config.param;

import java.util.Optional;

/**
 * A parameter name the catalog does not know, with the closest known name when one is near, e.g.
 * {@code unknown parameter 'dsi_num_thread'; did you mean 'dsi_num_threads'?}.
 */
public final class UnknownParameterException extends ParameterException {
  private static final long serialVersionUID = 1L;

  private final String suggestion;

  public UnknownParameterException(String parameterName, Optional<String> suggestion) {
    super(
        parameterName,
        "unknown parameter '"
            + parameterName
            + "'"
            + suggestion.map(s -> "; did you mean '" + s + "'?").orElse(""));
    this.suggestion = suggestion.orElse(null);
  }

  /** The closest known parameter name, if one is near enough to be a likely typo. */
  public Optional<String> suggestion() {
    return Optional.ofNullable(suggestion);
  }
}
