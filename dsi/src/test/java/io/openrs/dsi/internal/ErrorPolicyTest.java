package io.openrs.dsi.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.openrs.dsi.ErrorAction;
import io.openrs.dsi.ErrorClass;
import io.openrs.dsi.dialect.Dialect;
import io.openrs.dsi.dialect.ErrorKind;
import java.sql.BatchUpdateException;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/** One test per rule of the error policy. */
class ErrorPolicyTest {
  private static final Dialect PG = Dialect.forName("postgresql");
  private static final Dialect MARIADB = Dialect.forName("mariadb");

  private static StatementFailure db(String state, int vendor) {
    return StatementFailure.database("stmt", new SQLException("boom", state, vendor));
  }

  @Test
  void anUnmappedErrorStopsReplication() {
    assertThat(new ErrorPolicy(PG, ErrorClass.none()).action(db("23505", 0)))
        .isEqualTo(ErrorAction.STOP_REPLICATION);
  }

  @Test
  void deadlocksAndSerializationFailuresRetryByDefault() {
    ErrorPolicy pg = new ErrorPolicy(PG, ErrorClass.none());
    assertThat(pg.action(db("40P01", 0))).isEqualTo(ErrorAction.RETRY_STOP);
    assertThat(pg.action(db("40001", 0))).isEqualTo(ErrorAction.RETRY_STOP);
    assertThat(new ErrorPolicy(MARIADB, ErrorClass.none()).action(db("40001", 1213)))
        .isEqualTo(ErrorAction.RETRY_STOP);
  }

  @Test
  void theConnectionsErrorClassOverridesTheDialectDefault() {
    ErrorPolicy p =
        new ErrorPolicy(PG, ErrorClass.none().with("40P01", ErrorAction.STOP_REPLICATION));
    assertThat(p.action(db("40P01", 0))).isEqualTo(ErrorAction.STOP_REPLICATION);
  }

  @Test
  void theVendorCodeIsLookedUpBeforeTheSqlState() {
    ErrorClass ec =
        ErrorClass.none().with("1062", ErrorAction.IGNORE).with("23000", ErrorAction.LOG);
    assertThat(new ErrorPolicy(MARIADB, ec).action(db("23000", 1062)))
        .isEqualTo(ErrorAction.IGNORE);
    assertThat(new ErrorPolicy(MARIADB, ec).action(db("23000", 1452))).isEqualTo(ErrorAction.LOG);
  }

  @Test
  void theExactSqlStateIsLookedUpBeforeItsClass() {
    ErrorClass ec = ErrorClass.none().with("23", ErrorAction.LOG).with("23505", ErrorAction.WARN);
    ErrorPolicy p = new ErrorPolicy(PG, ec);
    assertThat(p.action(db("23505", 0))).isEqualTo(ErrorAction.WARN);
    assertThat(p.action(db("23503", 0))).isEqualTo(ErrorAction.LOG);
  }

  @Test
  void theMostSevereActionOfAChainWins() {
    BatchUpdateException batch = new BatchUpdateException("batch", "23505", 0, new int[0]);
    batch.setNextException(new SQLException("fk", "23503", 0));
    ErrorClass ec =
        ErrorClass.none().with("23505", ErrorAction.IGNORE).with("23503", ErrorAction.LOG);
    assertThat(new ErrorPolicy(PG, ec).action(StatementFailure.database("b", batch)))
        .isEqualTo(ErrorAction.LOG);
  }

  @Test
  void aLostConnectionAnywhereInTheChainIsAConnectionError() {
    SQLException outer = new SQLException("batch", "23505");
    outer.setNextException(new SQLException("gone", "57P01"));
    ErrorPolicy p = new ErrorPolicy(PG, ErrorClass.none());
    assertThat(p.kind(StatementFailure.database("b", outer))).isEqualTo(ErrorKind.CONNECTION);
    assertThat(new ErrorPolicy(MARIADB, ErrorClass.none()).kind(db(null, 2013)))
        .isEqualTo(ErrorKind.CONNECTION);
    assertThat(p.kind(db("08006", 0))).isEqualTo(ErrorKind.CONNECTION);
  }

  @Test
  void kindsOfTheDialects() {
    ErrorPolicy pg = new ErrorPolicy(PG, ErrorClass.none());
    assertThat(pg.kind(db("40P01", 0))).isEqualTo(ErrorKind.DEADLOCK);
    assertThat(pg.kind(db("23505", 0))).isEqualTo(ErrorKind.CONSTRAINT);
    assertThat(pg.kind(db("22003", 0))).isEqualTo(ErrorKind.DATA);
    assertThat(pg.kind(db("42P01", 0))).isEqualTo(ErrorKind.OTHER);
    ErrorPolicy maria = new ErrorPolicy(MARIADB, ErrorClass.none());
    assertThat(maria.kind(db("40001", 1213))).isEqualTo(ErrorKind.DEADLOCK);
    assertThat(maria.kind(db("HY000", 1205))).isEqualTo(ErrorKind.LOCK_TIMEOUT);
  }

  @Test
  void theDsisOwnErrorsHaveRsNumbersThatAClassCanRemap() {
    StatementFailure rowCount =
        StatementFailure.dsi("UPDATE", ErrorClass.ROW_COUNT_MISMATCH, "0 rows");
    assertThat(new ErrorPolicy(PG, ErrorClass.none()).action(rowCount))
        .isEqualTo(ErrorAction.STOP_REPLICATION);
    assertThat(
            new ErrorPolicy(PG, ErrorClass.none().with("5185", ErrorAction.WARN)).action(rowCount))
        .isEqualTo(ErrorAction.WARN);
    assertThat(rowCount.vendorCode()).isEqualTo(5185);
    assertThat(rowCount.describeError()).isEqualTo("DSI error 5185, 0 rows");
  }

  @Test
  void errorActionsOrderBySeverity() {
    assertThat(ErrorAction.max(ErrorAction.WARN, ErrorAction.LOG)).isEqualTo(ErrorAction.LOG);
    assertThat(ErrorAction.parse("Retry_Stop")).isEqualTo(ErrorAction.RETRY_STOP);
    assertThat(ErrorAction.RETRY_LOG.retries()).isTrue();
    assertThat(ErrorAction.LOG.retries()).isFalse();
  }

  @Test
  void thePoolDropsAConnectionOnlyWhenTheDialectSaysItIsLost() {
    // HikariCP alone evicts on 0A000 (PostgreSQL's TRUNCATE of a referenced table): the DSI then
    // took that refused statement for a lost connection and reconnected forever
    PoolEviction pg = new PoolEviction(PG);
    assertThat(pg.adjudicate(new SQLException("cannot truncate", "0A000")))
        .isEqualTo(com.zaxxer.hikari.SQLExceptionOverride.Override.DO_NOT_EVICT);
    assertThat(pg.adjudicate(new SQLException("gone", "08006")))
        .isEqualTo(com.zaxxer.hikari.SQLExceptionOverride.Override.MUST_EVICT);
    assertThat(pg.adjudicate(new SQLException("terminated", "57P01")))
        .isEqualTo(com.zaxxer.hikari.SQLExceptionOverride.Override.MUST_EVICT);
    PoolEviction maria = new PoolEviction(MARIADB);
    assertThat(maria.adjudicate(new SQLException("duplicate", "23000", 1062)))
        .isEqualTo(com.zaxxer.hikari.SQLExceptionOverride.Override.DO_NOT_EVICT);
    assertThat(maria.adjudicate(new SQLException("server gone away", "HY000", 2006)))
        .isEqualTo(com.zaxxer.hikari.SQLExceptionOverride.Override.MUST_EVICT);
  }
}
