package io.openrs.config.rssd;

import static io.openrs.config.rssd.SystemTable.RS_STATDETAIL;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** {@link CounterSamplesTable} on {@code rs_statdetail}. */
final class SqlCounterSamplesTable implements CounterSamplesTable {
  private final Jdbc jdbc;

  SqlCounterSamplesTable(Jdbc jdbc) {
    this.jdbc = jdbc;
  }

  @Override
  public void add(Instant sampledAt, String module, String instance, String counter, double value) {
    addAll(List.of(new CounterSample(sampledAt, module, instance, counter, value)));
  }

  @Override
  public void addAll(Collection<CounterSample> samples) {
    List<CounterSample> copy = List.copyOf(samples);
    if (copy.isEmpty()) {
      return;
    }
    jdbc.write(
        RS_STATDETAIL,
        copy.size() + " samples",
        null,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "insert into rs_statdetail (sampled_at, module_name, instance_id, counter_name,"
                      + " counter_value) values (?, ?, ?, ?, ?)")) {
            for (CounterSample s : copy) {
              Jdbc.setInstant(ps, 1, s.sampledAt());
              ps.setString(2, s.module());
              ps.setString(3, s.instance());
              ps.setString(4, s.counter());
              ps.setDouble(5, s.value());
              ps.addBatch();
            }
            ps.executeBatch();
          }
          return null;
        });
  }

  @Override
  public List<CounterSample> query(
      Instant from, Instant to, Optional<String> module, Optional<String> counter) {
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(to, "to");
    StringBuilder sql =
        new StringBuilder(
            "select sampled_at, module_name, instance_id, counter_name, counter_value"
                + " from rs_statdetail where sampled_at >= ? and sampled_at < ?");
    module.ifPresent(m -> sql.append(" and module_name = ?"));
    counter.ifPresent(m -> sql.append(" and counter_name = ?"));
    sql.append(" order by sampled_at, module_name, instance_id, counter_name");
    return jdbc.read(
        RS_STATDETAIL,
        from + ".." + to,
        c -> {
          List<CounterSample> result = new ArrayList<>();
          try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
            int i = 1;
            Jdbc.setInstant(ps, i++, from);
            Jdbc.setInstant(ps, i++, to);
            if (module.isPresent()) {
              ps.setString(i++, module.get());
            }
            if (counter.isPresent()) {
              ps.setString(i, counter.get());
            }
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                result.add(
                    new CounterSample(
                        Jdbc.getInstant(rs, "sampled_at"),
                        rs.getString("module_name"),
                        rs.getString("instance_id"),
                        rs.getString("counter_name"),
                        rs.getDouble("counter_value")));
              }
            }
          }
          return List.copyOf(result);
        });
  }

  @Override
  public long deleteAll() {
    return jdbc.write(
        RS_STATDETAIL,
        "*",
        null,
        c -> {
          try (Statement st = c.createStatement()) {
            return (long) st.executeUpdate("delete from rs_statdetail");
          }
        });
  }

  @Override
  public long deleteBefore(Instant before) {
    Objects.requireNonNull(before, "before");
    return jdbc.write(
        RS_STATDETAIL,
        "before " + before,
        null,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement("delete from rs_statdetail where sampled_at < ?")) {
            Jdbc.setInstant(ps, 1, before);
            return (long) ps.executeUpdate();
          }
        });
  }
}
