package io.openrs.repserver.dsi;

import io.openrs.dsi.CommandConversion;
import io.openrs.dsi.DsiSettings;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Table-level DSI parameters: {@code alter connection to ds.db for replicate table named
 * schema.table set p to 'v'} (Replication Server keeps them in {@code rs_tbconfig}).
 *
 * <p>They are stored with the connection's settings under the key {@code
 * <parameter>@<schema>.<table>} (a parameter name never holds {@code @}), so they survive restarts
 * with the connection and disappear with it. A table-level value overrides the connection's for
 * that replicate table:
 *
 * <ul>
 *   <li>{@code dsi_compile_enable off}: HVAR never compiles the table's transactions; they are
 *       applied in continuous mode between groups. {@code on} leaves the connection's value.
 *   <li>{@code dsi_command_convert}: the table's conversions instead of the connection's; {@code
 *       none} means "inherit", as in Replication Server.
 * </ul>
 */
public final class TableParameters {
  /** The parameters that may be set per replicate table. */
  public static final Set<String> NAMES = Set.of("dsi_compile_enable", "dsi_command_convert");

  private TableParameters() {}

  /** The settings key of {@code parameter} for replicate table {@code schemaTable}. */
  public static String key(String parameter, String schemaTable) {
    return parameter.toLowerCase(Locale.ROOT) + "@" + schemaTable;
  }

  /** {@code settings} with the table-level values among {@code properties} applied. */
  static DsiSettings apply(DsiSettings settings, Map<String, String> properties) {
    Set<String> notCompiled = new HashSet<>(settings.hvar().tablesNotCompiled());
    Map<String, Set<CommandConversion>> conversions = new HashMap<>();
    properties.forEach(
        (key, value) -> {
          int at = key.indexOf('@');
          if (at <= 0) {
            return;
          }
          String parameter = key.substring(0, at);
          String table = key.substring(at + 1);
          if (parameter.equals("dsi_compile_enable") && value.equalsIgnoreCase("off")) {
            notCompiled.add(table);
          } else if (parameter.equals("dsi_command_convert")) {
            conversions.put(table, CommandConversion.parse(Arrays.asList(value.split(","))));
          }
        });
    DsiSettings s = settings.withHvar(settings.hvar().withTablesNotCompiled(notCompiled));
    return conversions.isEmpty() ? s : s.withTableCommandConvert(conversions);
  }
}
