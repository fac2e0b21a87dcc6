package io.openrs.config.rssd;

import static io.openrs.config.rssd.SystemTable.RS_EXCEPTSHDR;

import io.openrs.config.rssd.RssdException.Reason;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * {@link ExceptionsLog} on {@code rs_exceptshdr} (one row per transaction) and {@code
 * rs_exceptscmd} (its command text; one row today, several rows read back in {@code seq} order).
 */
final class SqlExceptionsLog implements ExceptionsLog {
  private static final String SELECT =
      "select h.sys_trans_id, h.orig_conn_id, h.error_conn_id, h.origin_qid, h.tran_id,"
          + " h.ds_errmsg, h.cmd_count, h.log_time, c.cmd_text"
          + " from rs_exceptshdr h left join rs_exceptscmd c on c.sys_trans_id = h.sys_trans_id";

  private final Jdbc jdbc;
  private final Clock clock;

  SqlExceptionsLog(Jdbc jdbc, Clock clock) {
    this.jdbc = jdbc;
    this.clock = clock;
  }

  @Override
  public long add(
      int originConnectionId,
      int replicateConnectionId,
      byte[] originOqid,
      String tranId,
      String error,
      String commandText) {
    Objects.requireNonNull(originOqid, "originOqid");
    Objects.requireNonNull(tranId, "tranId");
    Objects.requireNonNull(error, "error");
    Objects.requireNonNull(commandText, "commandText");
    return jdbc.write(
        RS_EXCEPTSHDR,
        "transaction " + tranId,
        null,
        c -> {
          long id;
          try (PreparedStatement ps =
              c.prepareStatement(
                  "insert into rs_exceptshdr (orig_conn_id, error_conn_id, origin_qid, tran_id,"
                      + " ds_errmsg, log_time, cmd_count) values (?, ?, ?, ?, ?, ?, ?)",
                  new String[] {"sys_trans_id"})) {
            ps.setInt(1, originConnectionId);
            ps.setInt(2, replicateConnectionId);
            ps.setBytes(3, originOqid);
            ps.setString(4, tranId);
            ps.setString(5, error);
            Jdbc.setInstant(ps, 6, clock.instant());
            ps.setInt(7, ExceptionsLog.countCommands(commandText));
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
              keys.next();
              id = keys.getLong(1);
            }
          }
          try (PreparedStatement ps =
              c.prepareStatement(
                  "insert into rs_exceptscmd (sys_trans_id, seq, cmd_text) values (?, 1, ?)")) {
            ps.setLong(1, id);
            ps.setString(2, commandText);
            ps.executeUpdate();
          }
          return id;
        });
  }

  @Override
  public List<ExceptionEntry> list(int replicateConnectionId, int limit) {
    if (limit < 0) {
      throw new IllegalArgumentException("limit must not be negative: " + limit);
    }
    return jdbc.read(
        RS_EXCEPTSHDR,
        "connection " + replicateConnectionId,
        c ->
            load(
                c,
                " where h.sys_trans_id in (select sys_trans_id from rs_exceptshdr"
                    + " where error_conn_id = ? order by sys_trans_id fetch first ? rows only)"
                    + " order by h.sys_trans_id, c.seq",
                limit,
                replicateConnectionId,
                limit));
  }

  @Override
  public Optional<ExceptionEntry> find(long id) {
    return jdbc
        .read(
            RS_EXCEPTSHDR,
            "id " + id,
            c -> load(c, " where h.sys_trans_id = ? order by c.seq", 1, id))
        .stream()
        .findFirst();
  }

  /** Reads entries, joining the command rows of each, up to {@code limit} entries. */
  private static List<ExceptionEntry> load(Connection c, String where, int limit, Object... params)
      throws SQLException {
    List<ExceptionEntry> entries = new ArrayList<>();
    if (limit == 0) {
      return List.of();
    }
    try (PreparedStatement ps = c.prepareStatement(SELECT + where)) {
      for (int i = 0; i < params.length; i++) {
        ps.setObject(i + 1, params[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        long currentId = 0;
        EntryRows current = null;
        while (rs.next()) {
          long id = rs.getLong("sys_trans_id");
          if (current == null || id != currentId) {
            if (current != null) {
              entries.add(current.toEntry());
            }
            if (entries.size() == limit) {
              return List.copyOf(entries);
            }
            currentId = id;
            current = new EntryRows(rs);
          }
          String text = rs.getString("cmd_text");
          if (text != null) {
            current.text.append(text);
          }
        }
        if (current != null && entries.size() < limit) {
          entries.add(current.toEntry());
        }
      }
    }
    return List.copyOf(entries);
  }

  /** One entry's rows while they are read. */
  private static final class EntryRows {
    final ExceptionHeader header;
    final StringBuilder text = new StringBuilder();

    EntryRows(ResultSet rs) throws SQLException {
      header = header(rs);
    }

    ExceptionEntry toEntry() {
      return new ExceptionEntry(header, text.toString());
    }
  }

  /** The header columns of the row {@code rs} is on. */
  private static ExceptionHeader header(ResultSet rs) throws SQLException {
    int count = rs.getInt("cmd_count");
    OptionalInt commands = rs.wasNull() ? OptionalInt.empty() : OptionalInt.of(count);
    return new ExceptionHeader(
        rs.getLong("sys_trans_id"),
        rs.getInt("orig_conn_id"),
        rs.getInt("error_conn_id"),
        rs.getBytes("origin_qid"),
        rs.getString("tran_id"),
        rs.getString("ds_errmsg"),
        commands,
        Jdbc.getInstant(rs, "log_time"));
  }

  @Override
  public void delete(long id) {
    jdbc.write(
        RS_EXCEPTSHDR,
        "id " + id,
        null,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement("delete from rs_exceptshdr where sys_trans_id = ?")) {
            ps.setLong(1, id);
            if (ps.executeUpdate() == 0) {
              throw new RssdException(
                  Reason.NOT_FOUND,
                  RS_EXCEPTSHDR.sqlName(),
                  "id " + id,
                  "no logged transaction with id " + id);
            }
          }
          return null;
        });
  }

  @Override
  public List<ExceptionHeader> headers(int limit) {
    if (limit < 0) {
      throw new IllegalArgumentException("limit must not be negative: " + limit);
    }
    if (limit == 0) {
      return List.of();
    }
    return jdbc.read(
        RS_EXCEPTSHDR,
        "",
        c -> {
          List<ExceptionHeader> out = new ArrayList<>();
          try (PreparedStatement ps =
              c.prepareStatement(
                  "select sys_trans_id, orig_conn_id, error_conn_id, origin_qid, tran_id,"
                      + " ds_errmsg, cmd_count, log_time from rs_exceptshdr"
                      + " order by sys_trans_id fetch first ? rows only")) {
            ps.setInt(1, limit);
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                out.add(header(rs));
              }
            }
          }
          return List.copyOf(out);
        });
  }

  @Override
  public long count() {
    return jdbc.read(
        RS_EXCEPTSHDR,
        "",
        c -> {
          try (PreparedStatement ps = c.prepareStatement("select count(*) from rs_exceptshdr");
              ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
          }
        });
  }

  @Override
  public int deleteRange(long first, long last) {
    String key = "ids " + first + " to " + last;
    if (first > last) {
      throw new RssdException(
          Reason.INVALID,
          RS_EXCEPTSHDR.sqlName(),
          key,
          "first id " + first + " is above last id " + last);
    }
    return jdbc.write(
        RS_EXCEPTSHDR,
        key,
        null,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement("delete from rs_exceptshdr where sys_trans_id between ? and ?")) {
            ps.setLong(1, first);
            ps.setLong(2, last);
            return ps.executeUpdate();
          }
        });
  }
}
