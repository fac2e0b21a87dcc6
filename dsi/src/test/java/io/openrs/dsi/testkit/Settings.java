package io.openrs.dsi.testkit;

import io.openrs.config.param.ParameterValues;
import io.openrs.config.param.Scope;
import io.openrs.dsi.DsiSettings;

/** DSI settings as a connection's parameters give them, for tests and benchmarks. */
public final class Settings {
  private Settings() {}

  /** The catalogue's connection defaults, then {@code nameValues} (name, value, name, value...). */
  public static DsiSettings connection(String... nameValues) {
    ParameterValues v = ParameterValues.defaults(Scope.CONNECTION);
    for (int i = 0; i < nameValues.length; i += 2) {
      v = v.with(nameValues[i], nameValues[i + 1]);
    }
    return DsiSettings.from(v);
  }
}
