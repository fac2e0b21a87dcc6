package io.openrs.repserver.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.openrs.config.rssd.RepDef;
import io.openrs.config.rssd.RepDefColumn;
import io.openrs.ltl.Column;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.TableName;
import io.openrs.ltl.TranId;
import io.openrs.ltl.Value;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SubscriptionRouteTest {

  private static final TableName ORDERS = new TableName("shop", "orders");
  private static final RepDef REPDEF =
      new RepDef(
          "orders_rd",
          1,
          "shop",
          "orders",
          "dbo",
          "orders_copy",
          List.of(
              new RepDefColumn("id", "int"),
              new RepDefColumn("region", "varchar(10)", "area"),
              new RepDefColumn("note", "text")),
          List.of("id"),
          List.of("region"));

  private final SubscriptionRoute eu =
      new SubscriptionRoute(
          "eu_orders", 2, Optional.of(REPDEF), Optional.of(WhereClause.parse("region = 'EU'")));

  private static Column c(String name, Value v) {
    return new Column(name, v);
  }

  private static LtlCommand.Update update(String from, String to, Value note) {
    return new LtlCommand.Update(
        TranId.ofLong(1),
        Oqid.ofLong(5, 12),
        ORDERS,
        List.of(
            c("id", new Value.Int32(1)),
            c("region", new Value.Text(from)),
            c("note", new Value.Text("old"))),
        List.of(c("id", new Value.Int32(1)), c("region", new Value.Text(to)), c("note", note)));
  }

  @Test
  void anUpdateInsideTheSubsetStaysAnUpdateMappedToReplicateNames() {
    LtlCommand.InTransaction out =
        eu.route(update("EU", "EU", new Value.Text("new"))).orElseThrow();
    LtlCommand.Update u = (LtlCommand.Update) out;
    assertThat(u.table()).isEqualTo(new TableName("dbo", "orders_copy"));
    assertThat(u.after())
        .containsExactly(
            c("id", new Value.Int32(1)),
            c("area", new Value.Text("EU")),
            c("note", new Value.Text("new")));
  }

  @Test
  void anUpdateLeavingTheSubsetBecomesADeleteOfTheOldRow() {
    LtlCommand.InTransaction out = eu.route(update("EU", "US", new Value.Text("x"))).orElseThrow();
    assertThat(out).isInstanceOf(LtlCommand.Delete.class);
    assertThat(((LtlCommand.Delete) out).before()).contains(c("area", new Value.Text("EU")));
  }

  @Test
  void anUpdateEnteringTheSubsetBecomesAnInsertCompletedFromTheBeforeImage() {
    LtlCommand.InTransaction out =
        eu.route(update("US", "EU", new Value.Unchanged())).orElseThrow();
    assertThat(out).isInstanceOf(LtlCommand.Insert.class);
    assertThat(((LtlCommand.Insert) out).after())
        .containsExactly(
            c("id", new Value.Int32(1)),
            c("area", new Value.Text("EU")),
            c("note", new Value.Text("old")));
  }

  @Test
  void anUpdateOutsideTheSubsetGoesNowhere() {
    assertThat(eu.route(update("US", "JP", new Value.Text("x")))).isEmpty();
  }

  @Test
  void aWhereColumnMissingFromTheBeforeImageIsAnErrorNotAGuess() {
    LtlCommand.Update keyOnlyBefore =
        new LtlCommand.Update(
            TranId.ofLong(1),
            Oqid.ofLong(5, 12),
            ORDERS,
            List.of(c("id", new Value.Int32(1))),
            List.of(c("id", new Value.Int32(1)), c("region", new Value.Text("EU"))));
    assertThatThrownBy(() -> eu.route(keyOnlyBefore))
        .isInstanceOf(WhereClause.EvaluationException.class)
        .hasMessageContaining("region");
  }
}
