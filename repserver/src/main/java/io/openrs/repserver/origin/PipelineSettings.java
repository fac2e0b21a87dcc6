package io.openrs.repserver.origin;

/**
 * The settings of one origin's inbound pipeline.
 *
 * @param nrmThread {@code nrm_thread}: normalize on NRM's own thread (on) or inline on EXEC (off)
 * @param execNrmRequestLimitBytes {@code exec_nrm_request_limit}
 * @param sqtMaxCacheBytes {@code sqt_max_cache_size}
 */
public record PipelineSettings(
    boolean nrmThread, long execNrmRequestLimitBytes, long sqtMaxCacheBytes) {

  public PipelineSettings {
    if (execNrmRequestLimitBytes <= 0 || sqtMaxCacheBytes <= 0) {
      throw new IllegalArgumentException(
          "exec_nrm_request_limit and sqt_max_cache_size must be positive");
    }
  }
}
