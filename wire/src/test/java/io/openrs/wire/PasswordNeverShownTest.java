package io.openrs.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.read.ListAppender;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A version 1-3 agent's password travels in the Hello and nowhere else (a version 4 agent's not
 * even there: {@link LtlClientScramTest}): not in any log line at any level, exception message or
 * {@code toString}, whatever happens to the connection.
 */
class PasswordNeverShownTest {
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
  private Logger root;
  private Level rootLevel;

  @BeforeEach
  void captureEveryLogLine() {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    rootLevel = root.getLevel();
    root.setLevel(Level.TRACE);
    appender.start();
    root.addAppender(appender);
  }

  @AfterEach
  void restore() {
    root.detachAppender(appender);
    root.setLevel(rootLevel);
  }

  @Test
  void noLogLineOrExceptionShowsThePassword() throws Exception {
    List<String> shown = new ArrayList<>();
    try (TestServer server = new TestServer()) {
      LtlClient client =
          LtlClient.connect(
              LtlClientSettings.defaults("127.0.0.1", server.port())
                  .withConnectTimeout(Duration.ofSeconds(10)),
              Samples.CONNECT);
      Frame.Hello hello = server.take(Frame.Hello.class);
      assertThat(hello.parse().password()).contains(Samples.PASSWORD); // version 1: it travels
      shown.add(hello.toString());
      shown.add(client.toString());
      CompletableFuture<BatchAnswer> pending = client.sendBatch(Samples.utf8("x\n"));
      server.take(Frame.Batch.class);
      server.send(new Frame.Welcome(1, java.util.Optional.empty(), new byte[0])); // protocol error
      Throwable failure = pending.handle((a, e) -> e).get(10, TimeUnit.SECONDS);
      shown.add(stackTrace(failure));
      client.close();
    }
    try (TestServer refusing =
        new TestServer(h -> new Frame.Error(ErrorCode.AUTHENTICATION_FAILED, "bad password"))) {
      assertThatThrownBy(
              () ->
                  LtlClient.connect(
                      "127.0.0.1", refusing.port(), Samples.CONNECT, Duration.ofSeconds(10)))
          .satisfies(e -> shown.add(stackTrace(e)));
    }
    Frame.Hello malformed =
        new Frame.Hello(
            Samples.utf8("connect source a.b versions 1-1 user 'u' password " + Samples.PASSWORD));
    shown.add(malformed.toString());
    assertThatThrownBy(malformed::parse).satisfies(e -> shown.add(stackTrace(e)));
    ByteArrayOutputStream stream = new ByteArrayOutputStream();
    stream.writeBytes(Samples.encode(Frame.Hello.of(Samples.CONNECT)));
    stream.writeBytes(Samples.encode(malformed));
    shown.add(FrameDump.dump(stream.toByteArray(), 1024));

    assertThat(appender.list).isNotEmpty();
    for (ILoggingEvent event : appender.list) {
      shown.add(event.getFormattedMessage());
      for (IThrowableProxy t = event.getThrowableProxy(); t != null; t = t.getCause()) {
        shown.add(t.getClassName() + ": " + t.getMessage());
      }
    }
    assertThat(shown).isNotEmpty().allSatisfy(s -> assertThat(s).doesNotContain(Samples.PASSWORD));
    assertThat(String.join("\n", shown)).contains("password=***");
  }

  private static String stackTrace(Throwable t) {
    java.io.StringWriter w = new java.io.StringWriter();
    t.printStackTrace(new java.io.PrintWriter(w));
    return w.toString();
  }
}
