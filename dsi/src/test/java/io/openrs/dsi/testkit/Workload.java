package io.openrs.dsi.testkit;

import static org.assertj.core.api.Assertions.fail;

import io.openrs.ltl.Column;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TableName;
import io.openrs.ltl.TranId;
import io.openrs.ltl.Value;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;

/**
 * A seeded random transaction stream over a schema with a composite key, a table without a primary
 * key, a unique secondary key, parent/child tables with a foreign key, every value type, primary
 * key updates and unchanged columns; and the reference model it is checked against: every command
 * is applied to an in-memory copy as it is generated, so the replicate must end equal to it.
 */
public final class Workload {

  /** One origin transaction, begin to commit. */
  public record Tx(int origin, List<LtlCommand> commands) {
    public Oqid commitOqid() {
      return ((LtlCommand.Commit) commands.get(commands.size() - 1)).oqid();
    }

    public List<LtlCommand> body() {
      return commands.subList(1, commands.size() - 1);
    }
  }

  /** Column kinds: how a value is generated and read back. */
  public enum Kind {
    BOOL,
    I16,
    I32,
    I64,
    DEC4,
    DECX,
    DEC2,
    F32,
    F64,
    TEXT,
    BIN,
    DATE,
    TIME,
    TS,
    TSTZ,
    UUID,
    JSON
  }

  record Col(String name, Kind kind) {}

  record Table(String name, List<Col> cols, List<String> key) {
    boolean keyed() {
      return !key.isEmpty();
    }

    Kind kind(String col) {
      return cols.stream().filter(c -> c.name.equals(col)).findFirst().orElseThrow().kind;
    }
  }

  static final Table PARENT =
      new Table(
          "parent",
          List.of(new Col("id", Kind.I64), new Col("code", Kind.TEXT), new Col("name", Kind.TEXT)),
          List.of("id"));
  static final Table CHILD =
      new Table(
          "child",
          List.of(
              new Col("parent_id", Kind.I64),
              new Col("line", Kind.I32),
              new Col("qty", Kind.I32),
              new Col("note", Kind.TEXT)),
          List.of("parent_id", "line"));
  static final Table ITEM =
      new Table(
          "item",
          List.of(
              new Col("id", Kind.I32),
              new Col("b", Kind.BOOL),
              new Col("s", Kind.I16),
              new Col("i", Kind.I32),
              new Col("l", Kind.I64),
              new Col("d", Kind.DEC4),
              new Col("d2", Kind.DECX),
              new Col("f", Kind.F32),
              new Col("g", Kind.F64),
              new Col("t", Kind.TEXT),
              new Col("bin", Kind.BIN),
              new Col("dt", Kind.DATE),
              new Col("tm", Kind.TIME),
              new Col("ts", Kind.TS),
              new Col("tz", Kind.TSTZ),
              new Col("u", Kind.UUID),
              new Col("j", Kind.JSON),
              new Col("big", Kind.TEXT)),
          List.of("id"));
  static final Table NOKEY =
      new Table(
          "nokey",
          List.of(new Col("a", Kind.I32), new Col("b", Kind.TEXT), new Col("c", Kind.DEC2)),
          List.of());
  static final List<Table> TABLES = List.of(PARENT, CHILD, ITEM, NOKEY);

  /** The schema's DDL for a database (run in the scratch schema / database). */
  public static List<String> ddl(TestDb db) {
    if (db == TestDb.POSTGRESQL) {
      return List.of(
          "CREATE TABLE parent (id bigint PRIMARY KEY, code varchar(40) NOT NULL UNIQUE,"
              + " name text)",
          "CREATE TABLE child (parent_id bigint NOT NULL REFERENCES parent(id), line integer NOT"
              + " NULL, qty integer, note text, PRIMARY KEY (parent_id, line))",
          "CREATE TABLE item (id integer PRIMARY KEY, b boolean, s smallint, i integer, l bigint,"
              + " d numeric(20,4), d2 numeric, f real, g double precision, t text, bin bytea, dt"
              + " date, tm time(6), ts timestamp(6), tz timestamptz(6), u uuid, j jsonb, big"
              + " text)",
          "CREATE TABLE nokey (a integer, b text, c numeric(12,2))");
    }
    return List.of(
        "CREATE TABLE parent (id BIGINT PRIMARY KEY, code VARCHAR(40) NOT NULL UNIQUE, name TEXT)"
            + " ENGINE=InnoDB",
        "CREATE TABLE child (parent_id BIGINT NOT NULL, line INT NOT NULL, qty INT, note TEXT,"
            + " PRIMARY KEY (parent_id, line), FOREIGN KEY (parent_id) REFERENCES parent(id))"
            + " ENGINE=InnoDB",
        "CREATE TABLE item (id INT PRIMARY KEY, b BOOLEAN, s SMALLINT, i INT, l BIGINT, d"
            + " DECIMAL(20,4), d2 DECIMAL(30,6), f FLOAT, g DOUBLE, t TEXT, bin VARBINARY(255), dt"
            + " DATE, tm TIME(6), ts DATETIME(6), tz DATETIME(6), u UUID, j JSON, big MEDIUMTEXT)"
            + " ENGINE=InnoDB",
        "CREATE TABLE nokey (a INT, b TEXT, c DECIMAL(12,2)) ENGINE=InnoDB");
  }

  // ---- generator state and model ---------------------------------------------------------------

  private final TestDb db;
  private final String schema;
  private final Random r;
  private final Map<String, Map<String, Map<String, Value>>> keyed = new HashMap<>();
  private final List<Map<String, Value>> nokey = new ArrayList<>();
  private final Map<Integer, Long> oqids = new HashMap<>();
  private final Map<Integer, Long> trans = new HashMap<>();
  private final Map<Integer, Oqid> lastCommit = new TreeMap<>();
  private final Map<Long, Integer> childLines = new HashMap<>();
  private long nextParent = 1;
  private int nextItem = 1;
  private long nextCode = 1;
  private final List<LtlCommand> cmds = new ArrayList<>();
  private int origin;
  private TranId tran;

  /** Probability weight of bulk transactions (runs of inserts into one table). */
  private final double bulkShare;

  public Workload(TestDb db, String schema, long seed, double bulkShare) {
    this.db = db;
    this.schema = schema;
    this.r = new Random(seed);
    this.bulkShare = bulkShare;
    for (Table t : TABLES) {
      if (t.keyed()) {
        keyed.put(t.name, new LinkedHashMap<>());
      }
    }
  }

  public Workload(TestDb db, String schema, long seed) {
    this(db, schema, seed, 0.05);
  }

  /** The last commit OQID of each origin generated so far. */
  public Map<Integer, Oqid> lastCommits() {
    return lastCommit;
  }

  /** Generates {@code n} more transactions (each applied to the model). */
  public List<Tx> next(int n) {
    List<Tx> out = new ArrayList<>(n);
    for (int k = 0; k < n; k++) {
      out.add(nextTx());
    }
    return out;
  }

  private Tx nextTx() {
    origin = r.nextInt(4) == 0 ? 102 : 101;
    tran = TranId.ofLong(trans.merge(origin, 1L, Long::sum));
    cmds.clear();
    cmds.add(new LtlCommand.Begin(tran, oqid(), time(), Optional.of("app")));
    if (r.nextDouble() < bulkShare) {
      int n = 20 + r.nextInt(40);
      boolean items = r.nextBoolean();
      for (int i = 0; i < n; i++) {
        if (items) {
          insertItem(true);
        } else {
          insertNokey();
        }
      }
    } else {
      int n = 1 + r.nextInt(12);
      for (int i = 0; i < n; i++) {
        step();
      }
    }
    LtlCommand.Commit c = new LtlCommand.Commit(tran, oqid(), time());
    cmds.add(c);
    lastCommit.put(origin, c.oqid());
    return new Tx(origin, List.copyOf(cmds));
  }

  private Oqid oqid() {
    return Oqid.ofLong(oqids.merge(origin, 1000L, (a, b) -> a + 1), 12);
  }

  private Instant time() {
    return Instant.parse("2026-03-01T00:00:00Z").plusSeconds(oqids.getOrDefault(origin, 0L));
  }

  private TableName table(Table t) {
    return new TableName(schema, t.name);
  }

  private void step() {
    int p = r.nextInt(100);
    Map<String, Map<String, Value>> parents = keyed.get("parent");
    if (p < 12 || parents.isEmpty()) {
      insertParent();
    } else if (p < 24) {
      insertChild();
    } else if (p < 38) {
      insertItem(false);
    } else if (p < 45) {
      insertNokey();
    } else if (p < 52) {
      updateParent();
    } else if (p < 56) {
      swapCodes();
    } else if (p < 62) {
      updateChild();
    } else if (p < 76) {
      updateItem();
    } else if (p < 81) {
      updateNokey();
    } else if (p < 84) {
      deleteParent();
    } else if (p < 88) {
      deleteKeyed(CHILD);
    } else if (p < 93) {
      deleteKeyed(ITEM);
    } else if (p < 97) {
      deleteNokey();
    } else if (p < 98) {
      truncateNokey();
    } else {
      insertItem(false);
    }
  }

  // ---- inserts ---------------------------------------------------------------------------------

  private void insertParent() {
    Map<String, Value> row = new LinkedHashMap<>();
    row.put("id", new Value.Int64(nextParent++));
    row.put("code", new Value.Text("c" + nextCode++));
    row.put("name", nullable(Kind.TEXT));
    insert(PARENT, row);
  }

  private void insertChild() {
    Map<String, Value> parent = pick(keyed.get("parent"));
    if (parent == null) {
      return;
    }
    long pid = ((Value.Int64) parent.get("id")).value();
    int line = childLines.merge(pid, 1, Integer::sum);
    Map<String, Value> row = new LinkedHashMap<>();
    row.put("parent_id", new Value.Int64(pid));
    row.put("line", new Value.Int32(line));
    row.put("qty", nullable(Kind.I32));
    row.put("note", nullable(Kind.TEXT));
    insert(CHILD, row);
  }

  private void insertItem(boolean full) {
    Map<String, Value> row = new LinkedHashMap<>();
    row.put("id", new Value.Int32(nextItem++));
    for (Col c : ITEM.cols.subList(1, ITEM.cols.size())) {
      row.put(c.name, full ? value(c.kind) : nullable(c.kind));
    }
    insert(ITEM, row);
  }

  private void insertNokey() {
    Map<String, Value> row = nokeyRow();
    nokey.add(row);
    cmds.add(new LtlCommand.Insert(tran, oqid(), table(NOKEY), false, columns(row)));
  }

  private Map<String, Value> nokeyRow() {
    Map<String, Value> row = new LinkedHashMap<>();
    row.put("a", r.nextInt(5) == 0 ? Value.NULL : new Value.Int32(r.nextInt(4)));
    row.put("b", r.nextInt(5) == 0 ? Value.NULL : new Value.Text(r.nextBoolean() ? "x" : "X "));
    row.put(
        "c",
        r.nextInt(5) == 0
            ? Value.NULL
            : new Value.Decimal(BigDecimal.valueOf(r.nextInt(3) * 125L, 2)));
    return row;
  }

  private void insert(Table t, Map<String, Value> row) {
    keyed.get(t.name).put(key(t, row), row);
    cmds.add(new LtlCommand.Insert(tran, oqid(), table(t), false, columns(row)));
  }

  // ---- updates ---------------------------------------------------------------------------------

  private void updateParent() {
    Map<String, Value> row = pick(keyed.get("parent"));
    Map<String, Value> after = new LinkedHashMap<>(row);
    long id = ((Value.Int64) row.get("id")).value();
    boolean keyChange = r.nextInt(4) == 0 && !hasChildren(id);
    if (keyChange) {
      after.put("id", new Value.Int64(nextParent++));
    }
    if (r.nextBoolean()) {
      after.put("code", new Value.Text("c" + nextCode++));
    }
    after.put("name", nullable(Kind.TEXT));
    update(PARENT, row, after, r.nextBoolean() ? Map.of() : changedOnly(row, after));
  }

  private void swapCodes() {
    Map<String, Map<String, Value>> parents = keyed.get("parent");
    if (parents.size() < 2) {
      return;
    }
    List<Map<String, Value>> all = new ArrayList<>(parents.values());
    Map<String, Value> a = all.get(r.nextInt(all.size()));
    Map<String, Value> b = all.get(r.nextInt(all.size()));
    if (a == b) {
      return;
    }
    Value codeA = a.get("code");
    Value codeB = b.get("code");
    setCode(a, new Value.Text("c" + nextCode++));
    setCode(b, codeA);
    setCode(keyed.get("parent").get(key(PARENT, a)), codeB);
  }

  private void setCode(Map<String, Value> row, Value code) {
    Map<String, Value> after = new LinkedHashMap<>(row);
    after.put("code", code);
    update(PARENT, row, after, Map.of());
  }

  private void updateChild() {
    Map<String, Value> row = pick(keyed.get("child"));
    if (row == null) {
      return;
    }
    Map<String, Value> after = new LinkedHashMap<>(row);
    if (r.nextInt(4) == 0) {
      long pid = ((Value.Int64) row.get("parent_id")).value();
      after.put("line", new Value.Int32(childLines.merge(pid, 1, Integer::sum)));
    }
    after.put("qty", nullable(Kind.I32));
    if (r.nextBoolean()) {
      after.put("note", nullable(Kind.TEXT));
    }
    update(CHILD, row, after, Map.of());
  }

  private void updateItem() {
    Map<String, Value> row = pick(keyed.get("item"));
    if (row == null) {
      return;
    }
    Map<String, Value> after = new LinkedHashMap<>(row);
    if (r.nextInt(5) == 0) {
      after.put("id", new Value.Int32(nextItem++));
    }
    int changes = 1 + r.nextInt(4);
    for (int i = 0; i < changes; i++) {
      Col c = ITEM.cols.get(1 + r.nextInt(ITEM.cols.size() - 1));
      after.put(c.name, nullable(c.kind));
    }
    Map<String, Value> unchanged = new HashMap<>();
    if (after.get("big").equals(row.get("big")) && r.nextBoolean()) {
      unchanged.put("big", Value.UNCHANGED); // an unchanged TOASTed column
    }
    update(ITEM, row, after, r.nextInt(3) == 0 ? changedOnly(row, after) : unchanged);
  }

  /**
   * Records and emits an update. {@code afterOverride}: columns to write differently in the after
   * image (UNCHANGED markers), or, when it is a changed-only image, the whole after image.
   */
  private void update(
      Table t, Map<String, Value> before, Map<String, Value> after, Map<String, Value> override) {
    Map<String, Map<String, Value>> rows = keyed.get(t.name);
    rows.remove(key(t, before));
    rows.put(key(t, after), after);
    List<Column> beforeImage = r.nextBoolean() ? columns(keyOf(t, before)) : columns(before);
    List<Column> afterImage;
    if (override.containsKey("$changedOnly")) {
      Map<String, Value> changed = new LinkedHashMap<>(override);
      changed.remove("$changedOnly");
      afterImage = columns(changed);
    } else {
      Map<String, Value> img = new LinkedHashMap<>(after);
      img.putAll(override);
      afterImage = columns(img);
    }
    cmds.add(new LtlCommand.Update(tran, oqid(), table(t), beforeImage, afterImage));
  }

  /** The columns that differ (and the key), marked as a changed-only after image. */
  private static Map<String, Value> changedOnly(
      Map<String, Value> before, Map<String, Value> after) {
    Map<String, Value> m = new LinkedHashMap<>();
    after.forEach(
        (k, v) -> {
          if (!v.equals(before.get(k))) {
            m.put(k, v);
          }
        });
    if (m.isEmpty()) {
      Map.Entry<String, Value> first = after.entrySet().iterator().next();
      m.put(first.getKey(), first.getValue());
    }
    m.put("$changedOnly", Value.NULL);
    return m;
  }

  private void updateNokey() {
    if (nokey.isEmpty()) {
      return;
    }
    int i = r.nextInt(nokey.size());
    Map<String, Value> before = nokey.get(firstEqual(nokey.get(i)));
    Map<String, Value> after = nokeyRow();
    nokey.set(nokey.indexOf(before), after);
    cmds.add(new LtlCommand.Update(tran, oqid(), table(NOKEY), columns(before), columns(after)));
  }

  private int firstEqual(Map<String, Value> row) {
    for (int i = 0; i < nokey.size(); i++) {
      if (nokey.get(i).equals(row)) {
        return i;
      }
    }
    throw new IllegalStateException();
  }

  // ---- deletes ---------------------------------------------------------------------------------

  private void deleteParent() {
    Map<String, Value> row = pick(keyed.get("parent"));
    if (row == null || hasChildren(((Value.Int64) row.get("id")).value())) {
      return;
    }
    deleteKeyedRow(PARENT, row);
  }

  private void deleteKeyed(Table t) {
    Map<String, Value> row = pick(keyed.get(t.name));
    if (row != null) {
      deleteKeyedRow(t, row);
    }
  }

  private void deleteKeyedRow(Table t, Map<String, Value> row) {
    keyed.get(t.name).remove(key(t, row));
    List<Column> before = r.nextBoolean() ? columns(keyOf(t, row)) : columns(row);
    cmds.add(new LtlCommand.Delete(tran, oqid(), table(t), before));
  }

  private void deleteNokey() {
    if (nokey.isEmpty()) {
      return;
    }
    Map<String, Value> row = nokey.get(r.nextInt(nokey.size()));
    nokey.remove(firstEqual(row));
    cmds.add(new LtlCommand.Delete(tran, oqid(), table(NOKEY), columns(row)));
  }

  private void truncateNokey() {
    nokey.clear();
    cmds.add(new LtlCommand.Truncate(tran, oqid(), table(NOKEY)));
  }

  private boolean hasChildren(long parentId) {
    for (Map<String, Value> c : keyed.get("child").values()) {
      if (((Value.Int64) c.get("parent_id")).value() == parentId) {
        return true;
      }
    }
    return false;
  }

  // ---- values ----------------------------------------------------------------------------------

  private Value nullable(Kind k) {
    return r.nextInt(8) == 0 ? Value.NULL : value(k);
  }

  private static final String ALPHABET = "abcxyzABC 019'\"\\\t\n\r,;éß表😀-_";

  Value value(Kind k) {
    boolean pg = db == TestDb.POSTGRESQL;
    switch (k) {
      case BOOL:
        return Value.Bool.of(r.nextBoolean());
      case I16:
        return new Value.Int16((short) r.nextInt());
      case I32:
        return new Value.Int32(r.nextInt());
      case I64:
        return new Value.Int64(r.nextLong());
      case DEC4:
        return new Value.Decimal(BigDecimal.valueOf(r.nextLong() % 1_000_000_000_000_000L, 4));
      case DECX:
        return new Value.Decimal(
            BigDecimal.valueOf(r.nextLong() % 1_000_000_000_000_000L, pg ? r.nextInt(9) : 6));
      case DEC2:
        return new Value.Decimal(BigDecimal.valueOf(r.nextInt(100_000), 2));
      case F32:
        if (pg && r.nextInt(10) == 0) {
          float[] special = {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, -0.0f};
          return new Value.Float32(special[r.nextInt(special.length)]);
        }
        return new Value.Float32((float) ((r.nextDouble() - 0.5) * Math.pow(10, r.nextInt(12))));
      case F64:
        if (pg && r.nextInt(10) == 0) {
          double[] special = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -0.0};
          return new Value.Float64(special[r.nextInt(special.length)]);
        }
        return new Value.Float64((r.nextDouble() - 0.5) * Math.pow(10, r.nextInt(30) - 10));
      case TEXT:
        return new Value.Text(text(r.nextInt(30)));
      case BIN:
        byte[] b = new byte[r.nextInt(33)];
        r.nextBytes(b);
        return new Value.Binary(b);
      case DATE:
        return new Value.Date(date());
      case TIME:
        return new Value.Time(LocalTime.ofNanoOfDay(r.nextLong(86_400_000_000L) * 1000));
      case TS:
        return new Value.Timestamp(
            LocalDateTime.of(date(), LocalTime.ofNanoOfDay(r.nextLong(86_400_000_000L) * 1000)));
      case TSTZ:
        Instant t = Instant.ofEpochSecond(r.nextLong(4_000_000_000L), r.nextInt(1_000_000) * 1000L);
        int offset = (r.nextInt(105) - 48) * 900 + (pg && r.nextInt(10) == 0 ? 21 : 0);
        return new Value.TimestampTz(
            OffsetDateTime.ofInstant(t, ZoneOffset.ofTotalSeconds(offset)));
      case UUID:
        // RFC 4122 version 4: MariaDB's UUID type refuses some versions and variants.
        return new Value.Uuid(
            new UUID(
                (r.nextLong() & ~0xF000L) | 0x4000L,
                (r.nextLong() & 0x3fffffffffffffffL) | 0x8000000000000000L));
      case JSON:
        return new Value.Json("{\"a\": " + r.nextInt(1000) + ", \"b\": \"" + word() + "\"}");
      default:
        throw new IllegalArgumentException(k.name());
    }
  }

  private LocalDate date() {
    int year = db == TestDb.POSTGRESQL ? 1 + r.nextInt(9999) : 1000 + r.nextInt(9000);
    return LocalDate.of(year, 1 + r.nextInt(12), 1 + r.nextInt(28));
  }

  private String text(int n) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      int cp =
          ALPHABET.codePointAt(
              ALPHABET.offsetByCodePoints(
                  0, r.nextInt(ALPHABET.codePointCount(0, ALPHABET.length()))));
      sb.appendCodePoint(cp);
    }
    return sb.toString();
  }

  private String word() {
    StringBuilder sb = new StringBuilder();
    for (int i = 1 + r.nextInt(6); i > 0; i--) {
      sb.append((char) ('a' + r.nextInt(26)));
    }
    return sb.toString();
  }

  // ---- helpers ---------------------------------------------------------------------------------

  private <T> T pick(Map<String, T> m) {
    if (m.isEmpty()) {
      return null;
    }
    int i = r.nextInt(m.size());
    for (T v : m.values()) {
      if (i-- == 0) {
        return v;
      }
    }
    throw new IllegalStateException();
  }

  private static String key(Table t, Map<String, Value> row) {
    StringBuilder sb = new StringBuilder();
    for (String k : t.key) {
      sb.append(row.get(k)).append('|');
    }
    return sb.toString();
  }

  private static Map<String, Value> keyOf(Table t, Map<String, Value> row) {
    Map<String, Value> m = new LinkedHashMap<>();
    for (String k : t.key) {
      m.put(k, row.get(k));
    }
    return m;
  }

  private static List<Column> columns(Map<String, Value> row) {
    List<Column> out = new ArrayList<>();
    row.forEach((k, v) -> out.add(new Column(k, v)));
    return out;
  }

  // ---- comparison ------------------------------------------------------------------------------

  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSSSSS");
  private static final DateTimeFormatter TS =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS");

  /** The model's rows of table {@code t}, canonical, sorted. */
  public List<String> expected(String table) {
    Table t = TABLES.stream().filter(x -> x.name.equals(table)).findFirst().orElseThrow();
    List<String> rows = new ArrayList<>();
    Iterable<Map<String, Value>> src = t.keyed() ? keyed.get(t.name).values() : nokey;
    for (Map<String, Value> row : src) {
      StringBuilder sb = new StringBuilder();
      for (Col c : t.cols) {
        sb.append(c.name).append('=').append(canonical(row.get(c.name))).append(" | ");
      }
      rows.add(sb.toString());
    }
    rows.sort(null);
    return rows;
  }

  /** The replicate's rows of table {@code t}, canonical, sorted. */
  public static List<String> actual(TestDb db, Connection c, String table) throws SQLException {
    Table t = TABLES.stream().filter(x -> x.name.equals(table)).findFirst().orElseThrow();
    List<String> rows = new ArrayList<>();
    StringBuilder sql = new StringBuilder("SELECT ");
    for (int i = 0; i < t.cols.size(); i++) {
      sql.append(i == 0 ? "" : ", ").append(t.cols.get(i).name);
    }
    sql.append(" FROM ").append(t.name);
    try (PreparedStatement ps = c.prepareStatement(sql.toString());
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < t.cols.size(); i++) {
          Col col = t.cols.get(i);
          sb.append(col.name).append('=').append(read(db, rs, i + 1, col.kind)).append(" | ");
        }
        rows.add(sb.toString());
      }
    }
    rows.sort(null);
    return rows;
  }

  /** Fails with the first differing rows of each table where the replicate differs. */
  public void assertReplicaMatches(TestDb.Scratch s) throws SQLException {
    StringBuilder problems = new StringBuilder();
    try (Connection c = s.connect()) {
      for (Table t : TABLES) {
        List<String> exp = expected(t.name);
        List<String> act = actual(s.db(), c, t.name);
        if (!exp.equals(act)) {
          problems.append(diff(t.name, exp, act));
        }
      }
    }
    if (problems.length() > 0) {
      fail("the replicate differs from the reference model:\n" + problems);
    }
  }

  static String diff(String table, List<String> exp, List<String> act) {
    StringBuilder sb =
        new StringBuilder("table ")
            .append(table)
            .append(": expected ")
            .append(exp.size())
            .append(" rows, found ")
            .append(act.size())
            .append('\n');
    int shown = 0;
    List<String> missing = new ArrayList<>(exp);
    act.forEach(missing::remove);
    List<String> extra = new ArrayList<>(act);
    exp.forEach(extra::remove);
    for (String m : missing) {
      if (shown++ < 5) {
        sb.append("  missing:    ").append(m).append('\n');
      }
    }
    shown = 0;
    for (String e : extra) {
      if (shown++ < 5) {
        sb.append("  unexpected: ").append(e).append('\n');
      }
    }
    return sb.toString();
  }

  /** A value in the form {@link #read} gives for it. */
  public static String canonical(Value v) {
    if (v == null || v instanceof Value.Null) {
      return "∅";
    } else if (v instanceof Value.Bool b) {
      return Boolean.toString(b.value());
    } else if (v instanceof Value.Int16 n) {
      return Long.toString(n.value());
    } else if (v instanceof Value.Int32 n) {
      return Long.toString(n.value());
    } else if (v instanceof Value.Int64 n) {
      return Long.toString(n.value());
    } else if (v instanceof Value.Decimal d) {
      return d.value().toPlainString();
    } else if (v instanceof Value.Float32 f) {
      return Float.toString(f.value());
    } else if (v instanceof Value.Float64 f) {
      return Double.toString(f.value());
    } else if (v instanceof Value.Text t) {
      return t.value();
    } else if (v instanceof Value.Json j) {
      return j.value();
    } else if (v instanceof Value.Binary b) {
      return new BigInteger(1, concat1(b.value())).toString(16);
    } else if (v instanceof Value.Date d) {
      return d.value().toString();
    } else if (v instanceof Value.Time t) {
      return TIME.format(t.value());
    } else if (v instanceof Value.Timestamp t) {
      return TS.format(t.value());
    } else if (v instanceof Value.TimestampTz t) {
      return t.value().toInstant().toString();
    } else if (v instanceof Value.Uuid u) {
      return u.value().toString();
    }
    throw new IllegalArgumentException(String.valueOf(v));
  }

  /** A leading 1 byte so leading zero bytes and empty arrays keep their length in hex. */
  private static byte[] concat1(byte[] b) {
    byte[] out = new byte[b.length + 1];
    out[0] = 1;
    System.arraycopy(b, 0, out, 1, b.length);
    return out;
  }

  /** Column {@code i} of the current row, canonical. */
  public static String read(TestDb db, ResultSet rs, int i, Kind k) throws SQLException {
    String s;
    switch (k) {
      case BOOL:
        boolean b = rs.getBoolean(i);
        s = Boolean.toString(b);
        break;
      case I16:
      case I32:
      case I64:
        s = Long.toString(rs.getLong(i));
        break;
      case DEC4:
      case DECX:
      case DEC2:
        BigDecimal d = rs.getBigDecimal(i);
        s = d == null ? null : d.toPlainString();
        break;
      case F32:
        s = Float.toString(rs.getFloat(i));
        break;
      case F64:
        s = Double.toString(rs.getDouble(i));
        break;
      case TEXT:
      case JSON:
      case UUID:
        s = rs.getString(i);
        break;
      case BIN:
        byte[] bytes = rs.getBytes(i);
        s = bytes == null ? null : new BigInteger(1, concat1(bytes)).toString(16);
        break;
      case DATE:
        LocalDate ld = rs.getObject(i, LocalDate.class);
        s = ld == null ? null : ld.toString();
        break;
      case TIME:
        LocalTime lt = rs.getObject(i, LocalTime.class);
        s = lt == null ? null : TIME.format(lt);
        break;
      case TS:
        LocalDateTime ldt = rs.getObject(i, LocalDateTime.class);
        s = ldt == null ? null : TS.format(ldt);
        break;
      case TSTZ:
        if (db == TestDb.POSTGRESQL) {
          OffsetDateTime o = rs.getObject(i, OffsetDateTime.class);
          s = o == null ? null : o.toInstant().toString();
        } else {
          LocalDateTime u = rs.getObject(i, LocalDateTime.class);
          s = u == null ? null : u.toInstant(ZoneOffset.UTC).toString();
        }
        break;
      default:
        throw new IllegalArgumentException(k.name());
    }
    return rs.wasNull() || s == null ? "∅" : s;
  }
}
