package io.openrs.queue.file;

import io.micrometer.core.instrument.Clock;
import io.openrs.queue.QueueId;
import io.openrs.queue.QueueSettings;
import io.openrs.queue.StableQueue;
import io.openrs.queue.StableQueueContract;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The stable queue contract on the file engine: one partition in a temporary directory. */
class FileEngineContractTest extends StableQueueContract {

  @TempDir Path dir;

  @Override
  protected Engine startEngine() throws Exception {
    QueueFixture fx = new QueueFixture(dir, 1024L * 1024 * 1024, Clock.SYSTEM);
    return new Engine() {
      @Override
      public QueueSettings settings() {
        return QueueFixture.SMALL;
      }

      @Override
      public StableQueue create(QueueId id, QueueSettings settings) {
        return fx.manager.createQueue(id, settings);
      }

      @Override
      public StableQueue restartAndOpen(QueueId id, QueueSettings settings) throws Exception {
        fx.restart();
        return fx.manager.openQueue(id, settings);
      }

      @Override
      public void close() {
        fx.close();
      }
    };
  }
}
