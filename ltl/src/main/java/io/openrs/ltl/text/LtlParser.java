package io.openrs.ltl.text;

import io.openrs.ltl.Column;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TableName;
import io.openrs.ltl.TranId;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Parses LTL text (UTF-8, one command per line, {@code \n} or {@code \r\n} line ends; blank lines
 * and lines starting with {@code --} are skipped) into {@link LtlCommand}s. The grammar is in
 * {@code docs/ltl.md}.
 *
 * <p>A malformed line stops the parse with {@link LtlParseException}; every command before that
 * line has already been handed to the consumer, nothing after it is. The parser never throws
 * anything else for any input and never accepts a malformed command.
 *
 * <p>Not thread-safe: each connection owns one parser (it caches names between batches).
 */
public final class LtlParser {
  /** Default bound on one line (one command), in bytes. */
  public static final int DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

  /** Most columns in one row image (MariaDB allows 4096, PostgreSQL 1600). */
  public static final int MAX_COLUMNS = 4096;

  /** LTL protocol version 1 (2026-11): the first grammar. */
  public static final int PROTOCOL_VERSION_1 = 1;

  /** LTL protocol version 2 (2026-11): non-finite values and native values. */
  public static final int PROTOCOL_VERSION_2 = 2;

  /** The newest grammar this parser reads, and the one it reads unless told otherwise. */
  public static final int NEWEST_PROTOCOL_VERSION = PROTOCOL_VERSION_2;

  private static final byte[] INSERT = kw("insert");
  private static final byte[] UPDATE = kw("update");
  private static final byte[] DELETE = kw("delete");
  private static final byte[] BEGIN = kw("begin");
  private static final byte[] COMMIT = kw("commit");
  private static final byte[] ROLLBACK = kw("rollback");
  private static final byte[] TRUNCATE = kw("truncate");
  private static final byte[] DDL = kw("ddl");
  private static final byte[] TICKET = kw("ticket");
  private static final byte[] CONNECT = kw("connect");
  private static final byte[] CONNECTED = kw("connected");
  private static final byte[] GET = kw("get");
  private static final byte[] TRUNCATION = kw("truncation");
  private static final byte[] TRAN = kw("tran");
  private static final byte[] OQID = kw("oqid");
  private static final byte[] TIME = kw("time");
  private static final byte[] USER = kw("user");
  private static final byte[] AFTER = kw("after");
  private static final byte[] BEFORE = kw("before");
  private static final byte[] SNAPSHOT = kw("snapshot");
  private static final byte[] SCHEMA = kw("schema");
  private static final byte[] HEADERS = kw("headers");
  private static final byte[] SOURCE = kw("source");
  private static final byte[] VERSIONS = kw("versions");
  private static final byte[] VERSION = kw("version");
  private static final byte[] PASSWORD = kw("password");
  private static final byte[] AGENT = kw("agent");
  private static final byte[] COMPRESSION = kw("compression");
  private static final byte[] NONE = kw("none");

  private static final String COMMAND_EXPECTED =
      "a command: insert, update, delete, begin, commit, rollback, truncate, ddl, ticket,"
          + " connect, connected, get truncation or truncation";

  private final int maxLineBytes;
  private final Cursor c;
  private final ValueParser values;
  private Column[] columns = new Column[16];

  public LtlParser() {
    this(DEFAULT_MAX_LINE_BYTES);
  }

  public LtlParser(int maxLineBytes) {
    if (maxLineBytes < 1) {
      throw new IllegalArgumentException("maxLineBytes must be >= 1, got " + maxLineBytes);
    }
    this.maxLineBytes = maxLineBytes;
    this.c = new Cursor(new NameCache(1024));
    this.values = new ValueParser(c);
  }

  /**
   * Reads the grammar of protocol {@code version} from now on: a session that negotiated version 1
   * refuses the values version 2 added (non-finite and native) with an error at their column, as a
   * server speaking only version 1 would. Default: {@link #NEWEST_PROTOCOL_VERSION}.
   *
   * @throws IllegalArgumentException for a version outside 1..{@link #NEWEST_PROTOCOL_VERSION}
   */
  public LtlParser protocolVersion(int version) {
    if (version < PROTOCOL_VERSION_1 || version > NEWEST_PROTOCOL_VERSION) {
      throw new IllegalArgumentException(
          "LTL protocol version "
              + version
              + " is not one this parser reads (1.."
              + NEWEST_PROTOCOL_VERSION
              + ")");
    }
    values.protocolVersion = version;
    return this;
  }

  /**
   * Parses every command in {@code buf[offset, offset+length)} and hands each to {@code sink} in
   * order.
   *
   * @return the number of commands parsed
   * @throws LtlParseException at the first malformed line; earlier commands were handed on
   */
  public int parse(byte[] buf, int offset, int length, Consumer<? super LtlCommand> sink)
      throws LtlParseException {
    int end = offset + length;
    int lineStart = offset;
    int lineNumber = 0;
    int count = 0;
    while (lineStart < end) {
      lineNumber++;
      int nl = LineEnds.next(buf, lineStart, end);
      int lineEnd = nl;
      if (lineEnd > lineStart && buf[lineEnd - 1] == '\r') {
        lineEnd--;
      }
      c.reset(buf, lineStart, lineEnd, lineNumber, lineStart - offset);
      if (lineEnd - lineStart > maxLineBytes) {
        throw c.error("a line of at most " + maxLineBytes + " bytes");
      }
      LtlCommand command = line();
      if (command != null) {
        sink.accept(command);
        count++;
      }
      lineStart = nl + 1;
    }
    return count;
  }

  /** Parses all commands of {@code text}. */
  public List<LtlCommand> parseAll(String text) throws LtlParseException {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    List<LtlCommand> out = new ArrayList<>();
    parse(bytes, 0, bytes.length, out::add);
    return out;
  }

  /** Parses exactly one command. */
  public LtlCommand parseOne(String text) throws LtlParseException {
    List<LtlCommand> all = parseAll(text);
    if (all.size() != 1) {
      throw new LtlParseException(1, 1, 0, all.size() + " commands", "exactly one command");
    }
    return all.get(0);
  }

  /** One line: a command, or null for a blank or comment line. */
  private LtlCommand line() throws LtlParseException {
    c.skipBlanks();
    if (c.atEnd()) {
      return null;
    }
    if (c.peek() == '-' && c.pos + 1 < c.end && c.buf[c.pos + 1] == '-') {
      return null;
    }
    LtlCommand command = command();
    c.skipBlanks();
    if (!c.atEnd()) {
      throw c.error("end of line");
    }
    return command;
  }

  private LtlCommand command() throws LtlParseException {
    if (c.tryKeyword(INSERT)) {
      return insert();
    }
    if (c.tryKeyword(UPDATE)) {
      return update();
    }
    if (c.tryKeyword(DELETE)) {
      return delete();
    }
    if (c.tryKeyword(BEGIN)) {
      return begin();
    }
    if (c.tryKeyword(COMMIT)) {
      return commit();
    }
    if (c.tryKeyword(ROLLBACK)) {
      return rollback();
    }
    if (c.tryKeyword(TRUNCATE)) {
      return truncate();
    }
    if (c.tryKeyword(DDL)) {
      return ddl();
    }
    if (c.tryKeyword(TICKET)) {
      return ticket();
    }
    if (c.tryKeyword(GET)) {
      c.blanks();
      c.keyword(TRUNCATION);
      return new LtlCommand.GetTruncation();
    }
    if (c.tryKeyword(TRUNCATION)) {
      return truncation();
    }
    if (c.tryKeyword(CONNECTED)) {
      c.blanksKeywordBlanks(VERSION);
      return new LtlCommand.Connected((int) c.integer(1, 1_000_000, "a protocol version"));
    }
    if (c.tryKeyword(CONNECT)) {
      return connect();
    }
    throw c.error(COMMAND_EXPECTED);
  }

  // ---- transaction header: tran <hex> oqid <hex>

  private TranId tran;
  private Oqid oqid;

  /** Hex text of {@link #tran}: consecutive commands of one transaction reuse the object. */
  private final byte[] tranHex = new byte[2 * TranId.MAX_BYTES];

  private int tranHexLength;

  private void header() throws LtlParseException {
    c.blanksKeywordBlanks(TRAN);
    int at = c.pos + 2;
    int digits = c.hexDigits(TranId.MAX_BYTES, "a transaction id");
    if (tran == null
        || digits != tranHexLength
        || !Arrays.equals(c.buf, at, at + digits, tranHex, 0, digits)) {
      tran = TranId.ofHex(c.buf, at, digits);
      System.arraycopy(c.buf, at, tranHex, 0, digits);
      tranHexLength = digits;
    }
    c.blanksKeywordBlanks(OQID);
    at = c.pos;
    digits = c.hexDigits(Oqid.MAX_BYTES, "an OQID");
    oqid = Oqid.ofHex(c.buf, at + 2, digits);
  }

  private Instant time() throws LtlParseException {
    c.blanksKeywordBlanks(TIME);
    return values.timestampTz().toInstant();
  }

  private LtlCommand begin() throws LtlParseException {
    header();
    Instant time = time();
    Optional<String> user = Optional.empty();
    if (blanksThen(USER)) {
      c.blanks();
      user = Optional.of(c.quoted('\'', "a user name"));
    }
    return new LtlCommand.Begin(tran, oqid, time, user);
  }

  private LtlCommand commit() throws LtlParseException {
    header();
    return new LtlCommand.Commit(tran, oqid, time());
  }

  private LtlCommand rollback() throws LtlParseException {
    header();
    return new LtlCommand.Rollback(tran, oqid);
  }

  private LtlCommand insert() throws LtlParseException {
    header();
    c.blanks();
    TableName table = table();
    c.blanks();
    boolean snapshot = c.tryKeyword(SNAPSHOT);
    if (snapshot) {
      c.blanks();
    }
    c.keyword(AFTER);
    return new LtlCommand.Insert(tran, oqid, table, snapshot, image(afterShape));
  }

  private LtlCommand update() throws LtlParseException {
    header();
    c.blanks();
    TableName table = table();
    c.blanks();
    c.keyword(BEFORE);
    List<Column> before = image(beforeShape);
    c.blanks();
    c.keyword(AFTER);
    return new LtlCommand.Update(tran, oqid, table, before, image(afterShape));
  }

  private LtlCommand delete() throws LtlParseException {
    header();
    c.blanks();
    TableName table = table();
    c.blanks();
    c.keyword(BEFORE);
    return new LtlCommand.Delete(tran, oqid, table, image(beforeShape));
  }

  private LtlCommand truncate() throws LtlParseException {
    header();
    c.blanks();
    return new LtlCommand.Truncate(tran, oqid, table());
  }

  private LtlCommand ddl() throws LtlParseException {
    header();
    c.blanks();
    Optional<String> schema = Optional.empty();
    if (c.tryKeyword(SCHEMA)) {
      c.blanks();
      schema = Optional.of(c.identifier("a schema name"));
      c.blanks();
    }
    return new LtlCommand.Ddl(tran, oqid, schema, c.quoted('\'', "the DDL statement"));
  }

  private LtlCommand ticket() throws LtlParseException {
    header();
    Instant time = time();
    c.blanksKeywordBlanks(HEADERS);
    c.expect('(');
    c.skipBlanks();
    List<String> headers = new ArrayList<>();
    if (c.peek() != ')') {
      while (true) {
        headers.add(c.quoted('\'', "a ticket header"));
        c.skipBlanks();
        if (c.peek() != ',') {
          break;
        }
        c.pos++;
        c.skipBlanks();
      }
    }
    if (c.peek() != ')') {
      throw c.error("',' or ')' after a ticket header");
    }
    c.pos++;
    return new LtlCommand.Ticket(tran, oqid, time, headers);
  }

  private LtlCommand truncation() throws LtlParseException {
    c.blanks();
    if (c.tryKeyword(NONE)) {
      return new LtlCommand.Truncation(Optional.empty());
    }
    int at = c.pos;
    int digits = c.hexDigits(Oqid.MAX_BYTES, "an OQID or none");
    return new LtlCommand.Truncation(Optional.of(Oqid.ofHex(c.buf, at + 2, digits)));
  }

  private LtlCommand connect() throws LtlParseException {
    c.blanksKeywordBlanks(SOURCE);
    String server = c.identifier("the origin data server name");
    c.expect('.');
    String database = c.identifier("the origin database name");
    c.blanksKeywordBlanks(VERSIONS);
    int min = (int) c.integer(1, 1_000_000, "the lowest protocol version");
    c.expect('-');
    int minAt = c.pos;
    int max = (int) c.integer(1, 1_000_000, "the highest protocol version");
    if (max < min) {
      throw c.errorAt(minAt, "a highest version >= the lowest (" + min + ")");
    }
    c.blanksKeywordBlanks(USER);
    String user = c.quoted('\'', "the user name");
    // Optional from protocol version 4 on: such an agent proves its password with SCRAM frames.
    Optional<String> password = Optional.empty();
    if (blanksThen(PASSWORD)) {
      c.blanks();
      password = Optional.of(c.quoted('\'', "the password"));
    }
    Optional<String> agent = Optional.empty();
    if (blanksThen(AGENT)) {
      c.blanks();
      agent = Optional.of(c.quoted('\'', "the agent name"));
    }
    List<String> compression = List.of();
    if (blanksThen(COMPRESSION)) {
      c.blanks();
      compression = compressionMethods();
    }
    return new LtlCommand.Connect(server, database, min, max, user, password, agent, compression);
  }

  /** {@code 'lz4,zstd'}: compression methods, most preferred first (protocol version 4 on). */
  private List<String> compressionMethods() throws LtlParseException {
    int at = c.pos;
    String list = c.quoted('\'', "the compression methods, e.g. 'lz4,zstd'");
    List<String> names = new ArrayList<>();
    for (String name : list.split(",", -1)) {
      String n = name.strip();
      if (!n.matches(LtlCommand.Connect.COMPRESSION_NAME_PATTERN)
          || names.size() == LtlCommand.Connect.MAX_COMPRESSION_METHODS) {
        throw c.errorAt(
            at,
            "at most "
                + LtlCommand.Connect.MAX_COMPRESSION_METHODS
                + " comma-separated compression method names ("
                + LtlCommand.Connect.COMPRESSION_NAME_PATTERN
                + ")");
      }
      names.add(n);
    }
    return names;
  }

  /** Consumes blanks and keyword {@code kw} when both are there; otherwise consumes nothing. */
  private boolean blanksThen(byte[] kw) {
    int save = c.pos;
    c.skipBlanks();
    if (c.pos > save && c.tryKeyword(kw)) {
      return true;
    }
    c.pos = save;
    return false;
  }

  // ---- tables and row images

  /** The last table parsed; names come from the name cache, so identity tells a repeat. */
  private TableName lastTable;

  private TableName table() throws LtlParseException {
    String schema = c.identifier("a table name schema.table");
    c.expect('.');
    String name = c.identifier("a table name after the schema and '.'");
    TableName last = lastTable;
    if (last != null && last.schema() == schema && last.table() == name) {
      return last;
    }
    lastTable = new TableName(schema, name);
    return lastTable;
  }

  /**
   * The column names of the last before (or after) image, already found distinct. Rows of one table
   * repeat them, so the parser first tries the predicted name at each position (a byte comparison)
   * and only looks a name up when the prediction misses.
   */
  private static final class ImageShape {
    String[] names = new String[0];
    boolean[] bare = new boolean[0];
  }

  private final ImageShape beforeShape = new ImageShape();
  private final ImageShape afterShape = new ImageShape();

  /** {@code (name=value, ...)} preceded by blanks; at least one column. */
  private List<Column> image(ImageShape shape) throws LtlParseException {
    c.blanks();
    c.expect('(');
    c.skipBlanks();
    String[] predicted = shape.names;
    boolean[] bare = shape.bare;
    boolean asPredicted = true;
    int n = 0;
    while (true) {
      if (n == MAX_COLUMNS) {
        throw c.error("at most " + MAX_COLUMNS + " columns in a row image");
      }
      String name;
      if (n < predicted.length && bare[n] && c.tryBareName(predicted[n])) {
        name = predicted[n];
      } else {
        name = c.identifier("a column name");
        asPredicted = false;
      }
      c.skipBlanks();
      c.expect('=');
      c.skipBlanks();
      if (n == columns.length) {
        columns = Arrays.copyOf(columns, n * 2);
      }
      columns[n++] = new Column(name, values.value());
      c.skipBlanks();
      if (c.peek() != ',') {
        break;
      }
      c.pos++;
      c.skipBlanks();
    }
    if (c.peek() != ')') {
      throw c.error("',' or ')' after a column");
    }
    c.pos++;
    if (!asPredicted || n != predicted.length) {
      checkDistinctNames(n);
      remember(shape, n);
    }
    List<Column> image = List.of(Arrays.copyOf(columns, n));
    Arrays.fill(columns, 0, n, null);
    return image;
  }

  private void remember(ImageShape shape, int n) {
    String[] names = new String[n];
    boolean[] bare = new boolean[n];
    for (int i = 0; i < n; i++) {
      names[i] = columns[i].name();
      bare[i] = Cursor.isBareIdentifier(names[i]);
    }
    shape.names = names;
    shape.bare = bare;
  }

  private void checkDistinctNames(int n) throws LtlParseException {
    if (n <= 32) {
      for (int i = 1; i < n; i++) {
        for (int j = 0; j < i; j++) {
          if (columns[i].name().equals(columns[j].name())) {
            throw duplicate(columns[i].name());
          }
        }
      }
      return;
    }
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (int i = 0; i < n; i++) {
      if (!seen.add(columns[i].name())) {
        throw duplicate(columns[i].name());
      }
    }
  }

  private LtlParseException duplicate(String name) {
    Arrays.fill(columns, null);
    return c.error("each column once in a row image, but '" + name + "' appears twice before");
  }

  private static byte[] kw(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
