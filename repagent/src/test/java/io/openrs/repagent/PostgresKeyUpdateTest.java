package io.openrs.repagent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.openrs.ltl.Column;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Value;
import io.openrs.ltl.text.LtlParser;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How the PostgreSQL mapper turns Debezium's records of a primary-key update (a delete with header
 * {@code __debezium.newkey}, then a create with header {@code __debezium.oldkey}) into LTL, on
 * records shaped as Debezium 3.5 emits them ({@code PostgresAgentIT} shows the real connector): one
 * {@code update}; a delete whose create does not follow stays a delete; an insert that lacks a
 * value and is no such half stops the agent.
 */
class PostgresKeyUpdateTest {

  private static final String TOPIC = "openrs_ka";
  private static final Schema KEY = SchemaBuilder.struct().field("id", Schema.INT32_SCHEMA).build();
  private static final Schema ROW =
      SchemaBuilder.struct()
          .optional()
          .field("id", Schema.INT32_SCHEMA)
          .field(
              "big",
              SchemaBuilder.string()
                  .optional()
                  .name(PostgresColumnValues.TAGGED_SCHEMA)
                  .parameter(PostgresColumnValues.TYPE_PARAMETER, "text")
                  .build())
          .build();

  /** The value of an unchanged TOASTed column ({@link PostgresColumnValues} tags it "u"). */
  private static final String UNCHANGED = new String("unchanged");

  private static final Schema SOURCE =
      SchemaBuilder.struct()
          .field("schema", Schema.STRING_SCHEMA)
          .field("table", Schema.STRING_SCHEMA)
          .field("lsn", Schema.OPTIONAL_INT64_SCHEMA)
          .field("txId", Schema.OPTIONAL_INT64_SCHEMA)
          .build();
  private static final Schema ENVELOPE =
      SchemaBuilder.struct()
          .field("before", ROW)
          .field("after", ROW)
          .field("source", SOURCE)
          .field("op", Schema.STRING_SCHEMA)
          .build();
  private static final Schema TX =
      SchemaBuilder.struct()
          .field("status", Schema.STRING_SCHEMA)
          .field("id", Schema.STRING_SCHEMA)
          .build();

  @TempDir Path dir;
  private final List<LtlChunk> sent = new ArrayList<>();
  private final AgentCounters counters = new AgentCounters();
  private SourceDialect.RecordMapper mapper;

  private SourceDialect.RecordMapper mapper() {
    Map<String, String> m = new HashMap<>();
    m.put("agent_name", "ka");
    m.put("origin", "pg1.sales");
    m.put("rs_password_env", "X");
    m.put("source_profile", "postgresql");
    m.put("source_database", "sales");
    m.put("source_user", "ra");
    m.put("source_password_env", "X");
    AgentSettings settings = AgentConfigFile.fromMap("t", m, n -> "pw", dir);
    TransactionAssembler out =
        new TransactionAssembler(8, 1 << 20, 1 << 20, dir, "txn-", sent::add, counters);
    mapper = new PostgresDialect(settings).newMapper(out, counters);
    return mapper;
  }

  @AfterEach
  void close() {
    if (mapper != null) {
      mapper.close();
    }
  }

  private static Map<String, Object> offset(long lsn) {
    return Map.of("txId", 700L, "lsn", lsn, "lsn_commit", 9000L, "ts_usec", 1_000_000L);
  }

  private static SourceRecord tx(String status) {
    Struct v = new Struct(TX).put("status", status).put("id", "700:9000");
    return new SourceRecord(Map.of(), offset(9000), TOPIC + ".transaction", TX, v);
  }

  private static Struct key(int id) {
    return new Struct(KEY).put("id", id);
  }

  private static Struct row(int id, String big) {
    String tagged = big == null ? null : big == UNCHANGED ? "u" : "t" + big;
    return new Struct(ROW).put("id", id).put("big", tagged);
  }

  /** A change record; {@code header} names the header carrying {@code other} (or none). */
  private static SourceRecord change(
      String op, int id, Struct before, Struct after, String header, Struct other, long lsn) {
    Struct src =
        new Struct(SOURCE)
            .put("schema", "public")
            .put("table", "acct")
            .put("lsn", lsn)
            .put("txId", 700L);
    Struct v = new Struct(ENVELOPE).put("before", before).put("after", after).put("source", src);
    v.put("op", op);
    ConnectHeaders headers = new ConnectHeaders();
    if (header != null) {
      headers.add(header, other, KEY);
    }
    return new SourceRecord(
        Map.of(),
        offset(lsn),
        TOPIC + ".public.acct",
        null,
        KEY,
        key(id),
        ENVELOPE,
        v,
        null,
        headers);
  }

  /** The delete half of a key update {@code from} to {@code to} (default replica identity). */
  private static SourceRecord deleteHalf(int from, int to) {
    return change("d", from, null, null, PostgresDialect.NEW_KEY_HEADER, key(to), 100);
  }

  private static SourceRecord createHalf(int from, int to, String big) {
    return change("c", to, null, row(to, big), PostgresDialect.OLD_KEY_HEADER, key(from), 100);
  }

  private List<LtlCommand> run(SourceRecord... records) throws Exception {
    SourceDialect.RecordMapper m = mapper();
    m.map(tx("BEGIN"));
    for (SourceRecord r : records) {
      m.map(r);
    }
    m.map(tx("END"));
    List<LtlCommand> got = new ArrayList<>();
    for (LtlChunk c : sent) {
      new LtlParser().parse(c.text(), 0, c.text().length, got::add);
    }
    return got.subList(1, got.size() - 1); // without begin and commit
  }

  @Test
  void aKeyUpdateBecomesOneUpdateKeepingTheUnchangedValue() throws Exception {
    List<LtlCommand> got = run(deleteHalf(1, 2), createHalf(1, 2, UNCHANGED));
    assertThat(got).hasSize(1);
    LtlCommand.Update u = (LtlCommand.Update) got.get(0);
    assertThat(u.table().toString()).isEqualTo("public.acct");
    assertThat(u.before()).containsExactly(new Column("id", new Value.Int32(1)));
    assertThat(u.after())
        .containsExactly(new Column("id", new Value.Int32(2)), new Column("big", Value.UNCHANGED));
  }

  @Test
  void consecutiveKeyUpdatesPairEachDeleteWithItsOwnCreate() throws Exception {
    List<LtlCommand> got =
        run(
            deleteHalf(1, 11),
            createHalf(1, 11, "a"),
            deleteHalf(2, 12),
            createHalf(2, 12, UNCHANGED));
    assertThat(got).hasSize(2).allMatch(c -> c instanceof LtlCommand.Update);
    assertThat(((LtlCommand.Update) got.get(1)).before())
        .containsExactly(new Column("id", new Value.Int32(2)));
  }

  @Test
  void aDeleteHalfNotFollowedByItsCreateStaysADelete() throws Exception {
    // The create names another old key: both are sent as they are.
    List<LtlCommand> got =
        run(
            deleteHalf(1, 2),
            createHalf(5, 2, "x"),
            deleteHalf(3, 4),
            change("d", 9, null, null, null, null, 120));
    assertThat(got).hasSize(4);
    assertThat(got.get(0)).isInstanceOf(LtlCommand.Delete.class);
    assertThat(got.get(1)).isInstanceOf(LtlCommand.Insert.class);
    assertThat(((LtlCommand.Delete) got.get(2)).before())
        .containsExactly(new Column("id", new Value.Int32(3)));
    assertThat(((LtlCommand.Delete) got.get(3)).before())
        .containsExactly(new Column("id", new Value.Int32(9)));
  }

  @Test
  void aDeleteHalfAtTheEndOfItsTransactionIsSent() throws Exception {
    List<LtlCommand> got = run(deleteHalf(1, 2));
    assertThat(got).hasSize(1);
    assertThat(((LtlCommand.Delete) got.get(0)).before())
        .containsExactly(new Column("id", new Value.Int32(1)));
  }

  @Test
  void anInsertLackingAValueThatIsNoKeyUpdateStopsTheAgent() throws Exception {
    SourceDialect.RecordMapper m = mapper();
    m.map(tx("BEGIN"));
    SourceRecord orphan = change("c", 2, null, row(2, UNCHANGED), null, null, 0x16_B374_D848L);
    assertThatThrownBy(() -> m.map(orphan))
        .isInstanceOfSatisfying(
            AgentException.class, e -> assertThat(e.code()).isEqualTo(AgentException.Code.INTERNAL))
        .hasMessageContaining("insert into public.acct")
        .hasMessageContaining("id=2")
        .hasMessageContaining("LSN 16/B374D848")
        .hasMessageContaining("transaction 700")
        .hasMessageContaining("[big]");
    assertThat(sent).isEmpty();
  }
}
