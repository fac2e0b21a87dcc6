package io.openrs.repserver.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Locale;
import java.util.Optional;

/** Checks that registered meters are in the catalogue, with the kind it gives. */
final class CatalogCoverage {

  private CatalogCoverage() {}

  /**
   * Every meter of {@code registry} with a {@code module} tag has a catalogue entry of its kind.
   *
   * @return how many meters were checked
   */
  static int assertCatalogued(MeterRegistry registry, CounterCatalog catalog) {
    int checked = 0;
    for (Meter m : registry.getMeters()) {
      String module = m.getId().getTag("module");
      if (module == null) {
        continue;
      }
      checked++;
      Optional<CounterInfo> info = catalog.find(module, m.getId().getName());
      assertThat(info)
          .as("catalogue entry for meter %s of module %s", m.getId().getName(), module)
          .isPresent();
      assertThat(info.get().kind())
          .as("kind of %s %s", module, m.getId().getName())
          .isEqualTo(kindOf(m.getId().getType()));
    }
    return checked;
  }

  private static String kindOf(Meter.Type type) {
    switch (type) {
      case COUNTER:
        return CounterInfo.COUNTER;
      case GAUGE:
        return CounterInfo.GAUGE;
      case TIMER:
        return CounterInfo.TIMER;
      default:
        return type.name().toLowerCase(Locale.ROOT);
    }
  }
}
