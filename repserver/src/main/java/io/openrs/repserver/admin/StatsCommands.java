package io.openrs.repserver.admin;

import io.openrs.config.rssd.CounterSample;
import io.openrs.pgwire.PgException;
import io.openrs.pgwire.PgResult;
import io.openrs.repserver.admin.rcl.RclCommand;
import io.openrs.repserver.catalog.CatalogView;
import io.openrs.repserver.monitor.CounterCatalog;
import io.openrs.repserver.monitor.CounterInfo;
import io.openrs.repserver.monitor.StatsCsv;
import io.openrs.repserver.monitor.StatsRow;
import io.openrs.repserver.monitor.StatsSampler;
import io.openrs.repserver.monitor.Throughput;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** {@code admin stats}, {@code rs_dump_stats}, {@code rs_helpcounter}. */
final class StatsCommands {

  private final CatalogView rssd;
  private final ServerControl server;
  private final CounterCatalog catalog = CounterCatalog.standard();

  StatsCommands(CatalogView rssd, ServerControl server) {
    this.rssd = rssd;
    this.server = server;
  }

  PgResult execute(RclCommand c) throws PgException {
    if (c instanceof RclCommand.AdminStats s) {
      return stats(s);
    } else if (c instanceof RclCommand.RsDumpStats) {
      List<CounterSample> samples = rssd.counterSamples();
      Table t = new Table().text("csv");
      for (String line : StatsCsv.format(samples).split("\r\n")) {
        t.row(line);
      }
      return t.result(c.commandTag());
    } else if (c instanceof RclCommand.RsHelpCounter h) {
      List<CounterInfo> found = h.moduleOrName().map(catalog::describe).orElse(catalog.all());
      if (found.isEmpty()) {
        throw new PgException(
            AdminErrors.UNDEFINED_OBJECT,
            "rs_helpcounter: no module or counter matches '" + h.moduleOrName().orElse("") + "'");
      }
      Table t =
          new Table()
              .text("module")
              .text("counter")
              .text("kind")
              .text("unit")
              .text("prometheus_name")
              .text("description");
      for (CounterInfo i : found) {
        t.row(i.module(), i.name(), i.kind(), i.unit(), i.prometheusName(), i.description());
      }
      return t.result(c.commandTag());
    }
    throw new IllegalStateException("not a stats command: " + c.kind());
  }

  private PgResult stats(RclCommand.AdminStats s) throws PgException {
    switch (s.action()) {
      case RESET:
        server.stats().reset();
        return PgResult.command("ADMIN STATS");
      case STATUS:
        {
          StatsSampler.Status st = server.sampler().status();
          return new Table().text("status").row(st.toString()).result("ADMIN STATS");
        }
      case CANCEL:
        {
          boolean cancelled = server.sampler().cancel();
          StatsSampler.Status st = server.sampler().status();
          return PgResult.command("ADMIN STATS")
              .withNotice(
                  cancelled
                      ? "stats save cancelled after "
                          + st.observationsSaved()
                          + " of "
                          + st.observationsPlanned()
                          + " observations; what it saved stays in rs_statdetail"
                      : "no stats save is running (" + st.state() + ")");
        }
      case SAVE:
        {
          Duration obs = Duration.ofSeconds(s.observationSeconds().orElse(15));
          Duration period = Duration.ofSeconds(s.periodSeconds().orElse((int) obs.toSeconds()));
          StatsSampler.Status st =
              server
                  .sampler()
                  .start(new StatsSampler.SaveRequest(module(s), s.instance(), obs, period));
          return PgResult.command("ADMIN STATS")
              .withNotice(
                  "sampling to the RSSD every "
                      + obs.toSeconds()
                      + " s for "
                      + period.toSeconds()
                      + " s (admin stats, status; rs_dump_stats): "
                      + st);
        }
      case BACKLOG:
        return rows(server.stats().backlog());
      case TPS:
      case CPS:
      case BPS:
        return rows(
            server.stats().rate(Throughput.parse(s.action().name().toLowerCase(Locale.ROOT))));
      default:
        return rows(server.stats().report(module(s), s.instance()));
    }
  }

  private static Optional<String> module(RclCommand.AdminStats s) {
    return s.module().filter(m -> !m.equalsIgnoreCase("all"));
  }

  private PgResult rows(List<StatsRow> rows) {
    boolean showZero = server.parameters().getBoolean("stats_show_zero_counters");
    Table t =
        new Table()
            .text("module")
            .text("instance")
            .text("counter")
            .int8("obs")
            .float8("total")
            .float8("last")
            .float8("max")
            .float8("avg_ttl_obs")
            .float8("rate_per_sec");
    for (StatsRow r : rows) {
      if (r.isZero() && !showZero) {
        continue;
      }
      t.row(
          r.module(),
          r.instanceLabel(),
          r.counter(),
          r.observations(),
          r.total(),
          r.last(),
          r.max(),
          r.average(),
          r.ratePerSecond());
    }
    return t.result("ADMIN STATS");
  }
}
