package io.openrs.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class WorkerThreadTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  /** Takes items from a queue until shut down; records what it did. */
  static final class Taker extends WorkerThread {
    final BlockingQueue<String> items = new ArrayBlockingQueue<>(16);
    final List<String> events = new CopyOnWriteArrayList<>();
    final List<Throwable> fatal = new CopyOnWriteArrayList<>();
    final CountDownLatch stepping = new CountDownLatch(1);
    volatile boolean ownedOnItsThread;

    Taker(StopPolicy policy) {
      super(ThreadNames.of("test", "taker", 1), policy);
    }

    @Override
    protected boolean doWork() throws Exception {
      ownedOnItsThread = isCurrent();
      stepping.countDown();
      String item = items.poll(1, TimeUnit.HOURS);
      if (item == null || item.equals("wake")) {
        return !(shutdownRequested() && items.isEmpty());
      }
      if (item.equals("boom")) {
        throw new IllegalStateException("boom");
      }
      events.add(item);
      return true;
    }

    @Override
    protected void wakeUp() {
      items.offer("wake");
    }

    @Override
    protected void onFatal(Throwable error) {
      fatal.add(error);
    }

    @Override
    protected void onExit() {
      events.add("exit");
    }
  }

  @Test
  void aShutdownRequestWakesAWaitingStepAndTheThreadEndsInOrder() throws Exception {
    Taker t = new Taker(WorkerThread.StopPolicy.AFTER_STEP);
    t.start();
    t.items.put("a");
    assertThat(t.stepping.await(10, TimeUnit.SECONDS)).isTrue();

    assertThat(t.shutdown(WAIT)).isTrue();

    assertThat(t.ended()).isTrue();
    assertThat(t.events).containsExactly("a", "exit");
    assertThat(t.failure()).isEmpty();
    assertThat(t.ownedOnItsThread).isTrue();
    assertThat(t.isDaemon()).isTrue();
  }

  @Test
  void afterStepStopsBeforeTheNextStepWhileDrainingFinishesWhatWasHanded() throws Exception {
    Taker afterStep = new Taker(WorkerThread.StopPolicy.AFTER_STEP);
    afterStep.initiateShutdown();
    afterStep.items.put("a");
    afterStep.start();
    assertThat(afterStep.awaitShutdown(WAIT)).isTrue();
    assertThat(afterStep.events).containsExactly("exit");

    Taker drains = new Taker(WorkerThread.StopPolicy.WHEN_DRAINED);
    drains.items.put("a");
    drains.items.put("b");
    drains.initiateShutdown(); // its wake-up goes behind a and b
    drains.start();
    assertThat(drains.awaitShutdown(WAIT)).isTrue();
    assertThat(drains.events).containsExactly("a", "b", "exit");
  }

  @Test
  void theFirstFailureEndsTheLoopIsKeptAndHandedToOnFatalOnce() throws Exception {
    Taker t = new Taker(WorkerThread.StopPolicy.AFTER_STEP);
    t.items.put("boom");
    t.items.put("a");
    t.start();

    assertThat(t.awaitShutdown(WAIT)).isTrue();

    assertThat(t.failure()).get().extracting(Throwable::getMessage).isEqualTo("boom");
    assertThat(t.fatal).hasSize(1).first().isSameAs(t.failure().get());
    assertThat(t.events).containsExactly("exit");
  }

  @Test
  void aFailureOutOfOnExitReachesTheHandlerWithTheThreadsName() throws Exception {
    AtomicReference<String> reportedBy = new AtomicReference<>();
    WorkerThread t =
        new WorkerThread(ThreadNames.of("test", "exit"), WorkerThread.StopPolicy.AFTER_STEP) {
          @Override
          protected boolean doWork() {
            return false;
          }

          @Override
          protected void onExit() {
            throw new IllegalStateException("exit failed");
          }
        };
    assertThat(t.getUncaughtExceptionHandler()).isSameAs(ThreadNames.REPORT_UNCAUGHT);
    t.setUncaughtExceptionHandler((th, e) -> reportedBy.set(th.getName() + ": " + e.getMessage()));
    t.start();
    assertThat(t.awaitShutdown(WAIT)).isTrue();
    t.join(WAIT.toMillis());
    assertThat(reportedBy.get()).isEqualTo("rs-test-exit: exit failed");
  }

  @Test
  void waitingForItsOwnEndOnItselfIsRefused() throws Exception {
    AtomicReference<Throwable> refused = new AtomicReference<>();
    WorkerThread t =
        new WorkerThread(ThreadNames.of("test", "self"), WorkerThread.StopPolicy.AFTER_STEP) {
          @Override
          protected boolean doWork() throws Exception {
            try {
              awaitShutdown(Duration.ofHours(1));
            } catch (IllegalStateException e) {
              refused.set(e);
            }
            return false;
          }
        };
    t.start();
    assertThat(t.awaitShutdown(WAIT)).isTrue();
    assertThat(refused.get()).hasMessage("rs-test-self cannot wait for its own end");
    assertThat(t.isCurrent()).isFalse();
  }

  @Test
  void awaitShutdownReturnsFalseWhenTheThreadDoesNotEndInTime() throws Exception {
    Taker t = new Taker(WorkerThread.StopPolicy.AFTER_STEP);
    t.start();
    assertThat(t.awaitShutdown(Duration.ofMillis(50))).isFalse();
    assertThat(t.ended()).isFalse();
    assertThat(t.shutdown(WAIT)).isTrue();
  }

  @Test
  void aNameOutsideTheConventionIsRefused() {
    List<String> bad = new ArrayList<>(List.of("NRM x", "RSSD writer", "rs-Dsi-s", "rs-dsi"));
    for (String name : bad) {
      assertThatThrownBy(
              () ->
                  new WorkerThread(name, WorkerThread.StopPolicy.AFTER_STEP) {
                    @Override
                    protected boolean doWork() {
                      return false;
                    }
                  })
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("rs-<module>-<component>[-<id>]")
          .hasMessageContaining(name);
    }
  }
}
