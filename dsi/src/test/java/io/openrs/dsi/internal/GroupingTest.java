package io.openrs.dsi.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.openrs.config.param.ParameterValues;
import io.openrs.config.param.Scope;
import io.openrs.dsi.DsiSettings;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TranId;
import io.openrs.queue.QueuePosition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which consecutive transactions share a replicate transaction. */
class GroupingTest {
  private static DsiSettings settings(String... nv) {
    ParameterValues v = ParameterValues.defaults(Scope.CONNECTION);
    for (int i = 0; i < nv.length; i += 2) {
      v = v.with(nv[i], nv[i + 1]);
    }
    return DsiSettings.from(v);
  }

  private static SourceTransaction tx(int commands, long bytes, boolean ddl) {
    TranId tran = TranId.ofLong(1);
    Oqid o = Oqid.ofLong(1, 8);
    List<LtlCommand.InTransaction> body = new ArrayList<>();
    for (int i = 0; i < commands; i++) {
      body.add(new LtlCommand.Truncate(tran, o, new io.openrs.ltl.TableName("s", "t")));
    }
    if (ddl) {
      body.add(new LtlCommand.Ddl(tran, o, Optional.empty(), "DROP TABLE x"));
    }
    return SourceTransaction.complete(
        1,
        101,
        new LtlCommand.Begin(tran, o, Instant.EPOCH, Optional.empty()),
        new LtlCommand.Commit(tran, o, Instant.EPOCH),
        body,
        new QueuePosition(0, 0, 0),
        new QueuePosition(0, 0, 1),
        bytes);
  }

  /** Whether {@code next} joins {@code group}, every member of which joined in turn. */
  private static boolean joins(Grouping g, List<SourceTransaction> group, SourceTransaction next) {
    GroupBound bound = g.newGroup();
    bound.first(group.get(0));
    for (SourceTransaction t : group.subList(1, group.size())) {
      assertThat(bound.joins(t)).as("member %s joins", t).isTrue();
    }
    return bound.joins(next);
  }

  @Test
  void atMostMaxXactsInGroup() {
    Grouping g = new Grouping(settings("dsi_max_xacts_in_group", "2"), true);
    assertThat(joins(g, List.of(tx(1, 10, false)), tx(1, 10, false))).isTrue();
    assertThat(joins(g, List.of(tx(1, 10, false), tx(1, 10, false)), tx(1, 10, false))).isFalse();
  }

  @Test
  void atMostXactGroupSizeBytes() {
    Grouping g = new Grouping(settings("dsi_xact_group_size", "65536"), true);
    assertThat(joins(g, List.of(tx(1, 40_000, false)), tx(1, 25_000, false))).isTrue();
    assertThat(joins(g, List.of(tx(1, 40_000, false)), tx(1, 30_000, false))).isFalse();
  }

  @Test
  void largeTransactionsTravelAlone() {
    Grouping g = new Grouping(settings("dsi_large_xact_size", "5"), true);
    assertThat(joins(g, List.of(tx(6, 10, false)), tx(1, 10, false))).isFalse();
    assertThat(joins(g, List.of(tx(1, 10, false)), tx(6, 10, false))).isFalse();
  }

  @Test
  void incompleteRunsTravelAlone() {
    Grouping g = new Grouping(settings(), true);
    SourceTransaction incomplete =
        SourceTransaction.incomplete(
            2, 101, List.of(), new QueuePosition(0, 0, 0), new QueuePosition(0, 0, 0), 5);
    assertThat(joins(g, List.of(tx(1, 10, false)), incomplete)).isFalse();
  }

  @Test
  void ddlTravelsAloneWhereItCommitsImplicitly() {
    assertThat(joins(new Grouping(settings(), false), List.of(tx(1, 10, false)), tx(0, 10, true)))
        .isFalse();
    assertThat(joins(new Grouping(settings(), true), List.of(tx(1, 10, false)), tx(0, 10, true)))
        .isTrue();
  }
}
