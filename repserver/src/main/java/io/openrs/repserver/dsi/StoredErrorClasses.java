package io.openrs.repserver.dsi;

import io.openrs.config.rssd.ErrorClassDef;
import io.openrs.dsi.ErrorAction;
import io.openrs.dsi.ErrorClass;
import java.util.LinkedHashMap;
import java.util.Map;

/** Error classes as the RSSD stores them ({@code rs_classes}, {@code rs_erroractions}). */
public final class StoredErrorClasses {
  private StoredErrorClasses() {}

  /** The DSI's form of a stored error class (action labels parsed). */
  public static ErrorClass toDsi(ErrorClassDef d) {
    Map<String, ErrorAction> actions = new LinkedHashMap<>();
    d.actions().forEach((code, action) -> actions.put(code, ErrorAction.parse(action)));
    return new ErrorClass(d.name(), actions);
  }
}
