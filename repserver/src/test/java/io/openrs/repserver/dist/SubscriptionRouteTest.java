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

  private final SubscriptionRoute euMaterializing =
      new SubscriptionRoute(
          "eu_orders",
          2,
          Optional.of(REPDEF),
          Optional.of(WhereClause.parse("region = 'EU'")),
          true);

  @Test
  void aValidSubscriptionGetsWhatRouteGives() {
    LtlCommand.Update u = update("EU", "EU", new Value.Text("new"));
    assertThat(eu.routeAll(u)).containsExactly(eu.route(u).orElseThrow());
  }

  @Test
  void whileMaterializingAnUpdateBecomesAnUpsertOfTheWholeNewRow() {
    List<LtlCommand.InTransaction> out =
        euMaterializing.routeAll(update("EU", "EU", new Value.Unchanged()));
    assertThat(out).singleElement().isInstanceOf(LtlCommand.Insert.class);
    LtlCommand.Insert i = (LtlCommand.Insert) out.get(0);
    assertThat(i.snapshot()).isTrue();
    assertThat(i.table()).isEqualTo(new TableName("dbo", "orders_copy"));
    assertThat(i.after())
        .containsExactlyInAnyOrder(
            c("id", new Value.Int32(1)),
            c("area", new Value.Text("EU")),
            c("note", new Value.Text("old")));
  }

  @Test
  void whileMaterializingAKeyUpdateDeletesTheOldKeyThenUpsertsTheNewRow() {
    LtlCommand.Update u =
        new LtlCommand.Update(
            TranId.ofLong(1),
            Oqid.ofLong(5, 12),
            ORDERS,
            List.of(c("id", new Value.Int32(1)), c("region", new Value.Text("EU"))),
            List.of(
                c("id", new Value.Int32(2)),
                c("region", new Value.Text("EU")),
                c("note", new Value.Text("n"))));
    List<LtlCommand.InTransaction> out = euMaterializing.routeAll(u);
    assertThat(out).hasSize(2);
    assertThat(out.get(0)).isInstanceOf(LtlCommand.Delete.class);
    assertThat(((LtlCommand.Delete) out.get(0)).before()).contains(c("id", new Value.Int32(1)));
    assertThat(((LtlCommand.Insert) out.get(1)).snapshot()).isTrue();
    assertThat(((LtlCommand.Insert) out.get(1)).after()).contains(c("id", new Value.Int32(2)));
  }

  @Test
  void whileMaterializingInsertsAreUpsertsAndDeletesStayDeletes() {
    LtlCommand.Insert ins =
        new LtlCommand.Insert(
            TranId.ofLong(1),
            Oqid.ofLong(5, 13),
            ORDERS,
            false,
            List.of(c("id", new Value.Int32(3)), c("region", new Value.Text("EU"))));
    assertThat(((LtlCommand.Insert) euMaterializing.routeAll(ins).get(0)).snapshot()).isTrue();
    LtlCommand.Delete del =
        new LtlCommand.Delete(
            TranId.ofLong(1),
            Oqid.ofLong(5, 14),
            ORDERS,
            List.of(c("id", new Value.Int32(3)), c("region", new Value.Text("EU"))));
    assertThat(euMaterializing.routeAll(del)).singleElement().isInstanceOf(LtlCommand.Delete.class);
    // outside the where clause: nothing
    LtlCommand.Insert us =
        new LtlCommand.Insert(
            TranId.ofLong(1),
            Oqid.ofLong(5, 15),
            ORDERS,
            false,
            List.of(c("id", new Value.Int32(4)), c("region", new Value.Text("US"))));
    assertThat(euMaterializing.routeAll(us)).isEmpty();
  }
}
