package io.openrs.repagent;

import static org.assertj.core.api.Assertions.assertThat;

import io.openrs.ltl.Oqid;
import io.openrs.wire.BatchAnswer;
import io.openrs.wire.ErrorCode;
import io.openrs.wire.LtlConnectionClosedException;
import io.openrs.wire.LtlRejectedException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** One test per rule of {@link RetryPolicy}. */
class RetryPolicyTest {

  private final RetryPolicy policy =
      new RetryPolicy(Duration.ofMillis(100), Duration.ofMillis(1000), 3, new Random(7));

  @Test
  void anUnreachableServerIsRetriedWithGrowingJitteredWaitsUpToTheMaximum() {
    long previousStep = 0;
    for (int n = 1; n <= 8; n++) {
      RetryPolicy.Decision d = policy.onFailure(new ConnectException("refused"));
      assertThat(d.retry()).isTrue();
      assertThat(d.state()).isEqualTo("server unreachable");
      long step = Math.min(1000, 100L << (n - 1));
      assertThat(d.delay().toMillis()).isBetween(step / 2, step);
      assertThat(step).isGreaterThanOrEqualTo(previousStep);
      previousStep = step;
    }
  }

  @Test
  void progressStartsTheBackOffOver() {
    policy.onFailure(new LtlConnectionClosedException("closed"));
    policy.onFailure(new LtlConnectionClosedException("closed"));
    policy.progressed();
    RetryPolicy.Decision d = policy.onFailure(new LtlConnectionClosedException("closed"));
    assertThat(d.delay().toMillis()).isBetween(50L, 100L);
  }

  @Test
  void retryableServerRefusalsAreRetried() {
    for (ErrorCode c :
        new ErrorCode[] {
          ErrorCode.TOO_MANY_CONNECTIONS, ErrorCode.ORIGIN_BUSY, ErrorCode.SHUTTING_DOWN
        }) {
      assertThat(policy.onFailure(new LtlRejectedException(c, "x")).retry()).isTrue();
    }
  }

  @Test
  void permanentServerRefusalsStopWithACode() {
    for (ErrorCode c :
        new ErrorCode[] {
          ErrorCode.AUTHENTICATION_FAILED,
          ErrorCode.UNKNOWN_ORIGIN,
          ErrorCode.UNSUPPORTED_VERSION,
          ErrorCode.PROTOCOL_ERROR,
          ErrorCode.INTERNAL
        }) {
      RetryPolicy.Decision d = policy.onFailure(new LtlRejectedException(c, "x"));
      assertThat(d.retry()).isFalse();
      assertThat(((AgentException) d.reason()).code())
          .isEqualTo(AgentException.Code.SERVER_REFUSED);
    }
  }

  @Test
  void stoppedLogTransferIsTriedAgainAtTheLongInterval() {
    RetryPolicy.Decision d =
        policy.onFailure(new LtlRejectedException(ErrorCode.LOG_TRANSFER_STOPPED, "suspended"));
    assertThat(d.retry()).isTrue();
    assertThat(d.delay()).isEqualTo(Duration.ofMillis(1000));
  }

  @Test
  void theSameRejectedCommandStopsTheAgentAfterTheLimit() {
    CommandRejectedException r = rejection("0x0102", "unknown column");
    for (int i = 0; i < 3; i++) {
      assertThat(policy.onFailure(r).retry()).isTrue();
    }
    RetryPolicy.Decision d = policy.onFailure(r);
    assertThat(d.retry()).isFalse();
    assertThat(((AgentException) d.reason()).code())
        .isEqualTo(AgentException.Code.COMMAND_REJECTED);
  }

  @Test
  void anotherRejectedCommandStartsTheCountOver() {
    for (int i = 0; i < 3; i++) {
      policy.onFailure(rejection("0x0102", "bad"));
    }
    assertThat(policy.onFailure(rejection("0x0103", "bad")).retry()).isTrue();
  }

  @Test
  void setupAndConfigurationErrorsStop() {
    for (AgentException.Code c :
        new AgentException.Code[] {
          AgentException.Code.CONFIGURATION,
          AgentException.Code.SOURCE_SETUP,
          AgentException.Code.INTERNAL
        }) {
      assertThat(policy.onFailure(new AgentException(c, "x")).retry()).isFalse();
    }
  }

  @Test
  void anUnavailablePrimaryOrAFailedReaderIsRetried() {
    assertThat(
            policy
                .onFailure(new AgentException(AgentException.Code.SOURCE_UNAVAILABLE, "down"))
                .state())
        .isEqualTo("primary unavailable");
    assertThat(policy.onFailure(new IllegalStateException("debezium")).retry()).isTrue();
  }

  @Test
  void aMissingResumePositionIsRetriedLongEnoughForTheServerToSaveOneThenStops() {
    AgentException missing =
        new AgentException(AgentException.Code.RESUME_POSITION_MISSING, "no position");
    long waited = 0;
    for (int n = 1; n < RetryPolicy.MISSING_POSITION_ATTEMPTS; n++) {
      RetryPolicy.Decision d = policy.onFailure(missing);
      assertThat(d.retry()).isTrue();
      assertThat(d.state()).isEqualTo("no resume position at the server");
      waited += d.delay().toMillis();
    }
    // The server saves a position it was handed at least once a second.
    assertThat(waited).isGreaterThan(1000);
    RetryPolicy.Decision last = policy.onFailure(missing);
    assertThat(last.retry()).isFalse();
    assertThat(last.reason()).isSameAs(missing);
  }

  @Test
  void theAgentExceptionInsideAWrapperDecides() {
    RuntimeException wrapped =
        new RuntimeException(new AgentException(AgentException.Code.SOURCE_SETUP, "wal_level"));
    assertThat(policy.onFailure(wrapped).retry()).isFalse();
  }

  private static CommandRejectedException rejection(String oqid, String message) {
    return new CommandRejectedException(
        new BatchAnswer.Rejected(4, 1, 2, 1, Optional.empty(), message),
        Optional.of(Oqid.parse(oqid)));
  }

  @Test
  void onlyAServerThatIsGoneOrRefusesForNowSendsTheAgentToAnother() {
    assertThat(RetryPolicy.tryAnotherServer(new ConnectException("Connection refused"))).isTrue();
    assertThat(RetryPolicy.tryAnotherServer(new LtlConnectionClosedException("closed"))).isTrue();
    assertThat(
            RetryPolicy.tryAnotherServer(
                new java.util.concurrent.ExecutionException(new ConnectException("refused"))))
        .isTrue();
    assertThat(
            RetryPolicy.tryAnotherServer(
                new LtlRejectedException(ErrorCode.LOG_TRANSFER_STOPPED, "suspended")))
        .isFalse();
    assertThat(
            RetryPolicy.tryAnotherServer(
                new AgentException(AgentException.Code.SOURCE_UNAVAILABLE, "primary down")))
        .isFalse();
    assertThat(RetryPolicy.tryAnotherServer(rejection("0x0102", "bad"))).isFalse();
  }
}
