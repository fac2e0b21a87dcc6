package io.openrs.repserver;

import io.openrs.config.param.ParameterValues;
import io.openrs.config.rssd.Rssd;
import io.openrs.queue.QueueSettings;
import io.openrs.queue.WriteFlush;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The server's parameter values at start, and the settings the server derives from them. */
final class EffectiveParameters {

  private static final Logger LOG = LoggerFactory.getLogger(EffectiveParameters.class);

  private EffectiveParameters() {}

  /**
   * Values set by admin commands and saved in the RSSD ({@code rs_config}) win over the start-up
   * file's, except the parameters only the file may set.
   */
  static ParameterValues layerRssdValues(ParameterValues file, Rssd rssd) {
    Map<String, String> saved = new HashMap<>();
    for (Map.Entry<String, String> e : rssd.config().serverValues().entrySet()) {
      file.catalog()
          .find(e.getKey())
          .filter(param -> !param.configFileOnly())
          .ifPresent(param -> saved.put(param.name(), e.getValue()));
    }
    if (saved.isEmpty()) {
      return file;
    }
    LOG.info("server parameters saved in the RSSD override the configuration file: {}", saved);
    return ParameterValues.of(file.catalog(), file.scope(), saved).over(file);
  }

  /** The RSSD tables whose {@code sts_full_cache_<table>} is on. */
  static Set<String> fullyCachedTables(ParameterValues p) {
    Set<String> tables = new HashSet<>();
    String prefix = "sts_full_cache_";
    for (Map.Entry<String, String> e : p.effectiveValues().entrySet()) {
      if (e.getKey().startsWith(prefix) && p.getBoolean(e.getKey())) {
        tables.add(e.getKey().substring(prefix.length()));
      }
    }
    return tables;
  }

  /** A stable queue's settings: an outbound queue's write limit is {@code md_sqm_...}. */
  static QueueSettings queueSettings(ParameterValues p, boolean outboundQueue) {
    return QueueSettings.defaults()
        .withBlockSizeBytes(p.getInt("block_size"))
        .withPageSizeBlocks(p.getInt("sqm_page_size"))
        .withWriteFlush(WriteFlush.valueOf(p.getString("sqm_write_flush").toUpperCase(Locale.ROOT)))
        .withCacheSizeBytes(p.getLong("sqm_cache_size"))
        .withWriteRequestLimitBytes(
            p.getLong(
                outboundQueue ? "md_sqm_write_request_limit" : "exec_sqm_write_request_limit"))
        .withSegmentSizeBytes(p.getLong("sqm_segment_size"))
        .withMaxMessageBytes(p.getInt("sqm_max_message_size"));
  }

  /**
   * {@code sqm_warning_thr1}, {@code sqm_warning_thr2} and {@code sqm_warning_thr_ind}: a value
   * saved in the RSSD by {@code configure replication server} since start wins (they take effect
   * immediately).
   */
  static int[] spaceWarnings(ParameterValues p, Rssd rssd) {
    Map<String, String> saved = rssd.config().serverValues();
    String[] names = {"sqm_warning_thr1", "sqm_warning_thr2", "sqm_warning_thr_ind"};
    int[] thr = new int[names.length];
    for (int i = 0; i < names.length; i++) {
      String v = saved.get(names[i]);
      thr[i] = v != null ? Integer.parseInt(v.trim()) : p.getInt(names[i]);
    }
    return thr;
  }
}
