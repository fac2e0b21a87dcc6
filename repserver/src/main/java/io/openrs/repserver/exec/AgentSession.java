package io.openrs.repserver.exec;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.Oqid;
import io.openrs.ltl.text.LtlParseException;
import io.openrs.ltl.text.LtlParser;
import io.openrs.repserver.origin.AgentReport;
import io.openrs.repserver.origin.OriginPipeline;
import io.openrs.wire.ErrorCode;
import io.openrs.wire.Frame;
import io.openrs.wire.FrameCodec;
import io.openrs.wire.LinkBytes;
import io.openrs.wire.LinkCompression;
import io.openrs.wire.LtlCompression;
import io.openrs.wire.WireProtocol;
import io.openrs.wire.WireProtocolException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * EXEC: one agent's session, on a Netty event loop. Handshake (Hello, the login of {@link
 * AgentLogin}: SCRAM frames from version 4 on, then Welcome or Error), then batches: each is
 * parsed, its commands handed to NRM through the bounded request queue, and answered at once (NRM
 * normalizes and writes while the agent sends the next batch). A parse error keeps the commands
 * before it and answers with batch, line and column; the agent resends from there. When NRM's queue
 * is full the session stops reading from the socket until NRM has taken enough (back-pressure;
 * counted as {@code ExecNrmWaitTime}).
 *
 * <p>{@code rs_ticket} commands are stamped with EXEC's time and the bytes received so far.
 *
 * <p>Liveness: once admitted, a session that receives nothing for the idle timeout ({@code
 * agent_heartbeat_interval} × {@code agent_idle_heartbeats}) while it is reading is closed, which
 * frees its origin for a replacement agent; while it has stopped reading for back-pressure the
 * silence is its own doing and does not count. In a version 3 session it sends a {@link
 * Frame.Heartbeat} whenever it has written nothing for the heartbeat interval.
 */
final class AgentSession extends SimpleChannelInboundHandler<Frame> {

  private static final Logger LOG = LoggerFactory.getLogger(AgentSession.class);

  private final AgentGate gate;
  private final AgentLogin.Shared logins;
  private AgentLogin login;
  private LtlCommand.Connect connect;
  private final Executor rssdWriter;
  private final Admission admission;
  private final Frame.Liveness liveness;
  private final int maxFrameBytes;
  private final Set<LtlCompression> compression;
  private int version;
  private boolean closed;
  private final LtlParser parser = new LtlParser();
  private OriginPipeline origin;
  private long expectedSequence = 1;
  private long bytesReceived;
  private long waitStartNanos;
  private boolean waitingForNrm;
  private final ArrayDeque<Frame> backlog = new ArrayDeque<>();
  private Oqid lastTaken;
  private Optional<String> rejectedEarlier = Optional.empty();

  AgentSession(
      AgentGate gate,
      AgentLogin.Shared logins,
      Executor rssdWriter,
      Admission admission,
      Frame.Liveness liveness,
      int maxFrameBytes,
      Set<LtlCompression> compression) {
    this.gate = gate;
    this.logins = logins;
    this.compression = compression;
    this.rssdWriter = rssdWriter;
    this.admission = admission;
    this.liveness = liveness;
    this.maxFrameBytes = maxFrameBytes;
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, Frame frame) {
    if (closed) {
      return;
    }
    if (waitingForNrm) {
      // Frames decoded from the same read as the waiting batch: keep their order.
      backlog.add(frame);
      return;
    }
    process(ctx, frame);
  }

  private void process(ChannelHandlerContext ctx, Frame frame) {
    try {
      if (origin == null && login != null && login.inScram()) {
        loginStep(ctx, frame);
      } else if (origin == null) {
        handshake(ctx, frame);
      } else if (frame instanceof Frame.Batch batch) {
        batch(ctx, batch);
      } else if (frame instanceof Frame.GetTruncation g) {
        // Answered on the RSSD writer after the locator and every resume blob received before
        // this request that the answer covers are saved: an answer at or above a blob's
        // coveredUpTo tells the agent that blob is in the RSSD (docs/formats/ltl-wire.md).
        OriginPipeline o = origin;
        try {
          rssdWriter.execute(
              () ->
                  ctx.writeAndFlush(
                      new Frame.Truncation(g.requestId(), o.locator().saveAndAnswer())));
        } catch (java.util.concurrent.RejectedExecutionException e) {
          refuse(ctx, ErrorCode.SHUTTING_DOWN, "the server is stopping");
        }
      } else if (frame instanceof Frame.StoreResume s) {
        origin.locator().offerResume(s.coveredUpTo(), s.blob());
      } else if (frame instanceof Frame.AgentStatus status
          && version >= WireProtocol.STATUS_VERSION) {
        agentStatus(status);
      } else if (frame instanceof Frame.Heartbeat && version >= WireProtocol.LIVENESS_VERSION) {
        // Its arrival reset the idle timer; nothing else to do.
      } else {
        refuse(ctx, ErrorCode.PROTOCOL_ERROR, "unexpected " + frame.getClass().getSimpleName());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      refuse(ctx, ErrorCode.SHUTTING_DOWN, "the server is stopping");
    }
  }

  private void handshake(ChannelHandlerContext ctx, Frame frame) {
    if (!(frame instanceof Frame.Hello hello)) {
      admission.helloReceived(ctx.channel());
      refuse(
          ctx,
          ErrorCode.PROTOCOL_ERROR,
          "the first frame must be Hello, got " + frame.getClass().getSimpleName());
      return;
    }
    try {
      connect = hello.parse();
    } catch (WireProtocolException e) {
      admission.helloReceived(ctx.channel());
      refuse(ctx, ErrorCode.PROTOCOL_ERROR, e.getMessage());
      return;
    }
    OptionalInt version = WireProtocol.negotiate(connect.minVersion(), connect.maxVersion());
    if (version.isEmpty()) {
      admission.helloReceived(ctx.channel());
      refuse(
          ctx,
          ErrorCode.UNSUPPORTED_VERSION,
          "the agent speaks LTL protocol versions "
              + connect.minVersion()
              + "-"
              + connect.maxVersion()
              + ", this server "
              + WireProtocol.MIN_VERSION
              + "-"
              + WireProtocol.MAX_VERSION);
      return;
    }
    // A version 1 agent's batches may not hold version 2 values (non-finite, native).
    parser.protocolVersion(WireProtocol.textVersion(version.getAsInt()));
    this.version = version.getAsInt();
    login = new AgentLogin(logins, remoteAddress(ctx));
    try {
      if (login.hello(connect, this.version)) {
        admit(ctx);
      }
      // else the SCRAM frames follow; the socket stays in the handshake (and its timeout) until
      // the login is done.
    } catch (AgentRejectedException e) {
      refused(ctx, e);
    }
  }

  /** A frame of the version 4 login. */
  private void loginStep(ChannelHandlerContext ctx, Frame frame) {
    try {
      Frame answer = login.scram(frame);
      ctx.writeAndFlush(answer);
      if (login.done()) {
        admit(ctx);
      }
    } catch (AgentRejectedException e) {
      refused(ctx, e);
    }
  }

  private static Optional<java.net.InetAddress> remoteAddress(ChannelHandlerContext ctx) {
    return ctx.channel().remoteAddress() instanceof java.net.InetSocketAddress a
        ? Optional.ofNullable(a.getAddress())
        : Optional.empty();
  }

  /** The agent is logged in: its permission, its origin, a place. */
  private void admit(ChannelHandlerContext ctx) {
    admission.helloReceived(ctx.channel());
    OriginPipeline p;
    try {
      p = gate.admit(connect.user(), connect, version);
    } catch (AgentRejectedException e) {
      refused(ctx, e);
      return;
    }
    welcome(ctx, p);
  }

  private void refused(ChannelHandlerContext ctx, AgentRejectedException e) {
    admission.helloReceived(ctx.channel());
    if (e.repeated()) {
      LOG.debug("agent from {} refused: {}", ctx.channel().remoteAddress(), e.getMessage());
    } else if (e.code() == ErrorCode.LOG_TRANSFER_STOPPED) {
      LOG.warn(
          "agent from {} refused: {} (later refusals are logged at DEBUG until log transfer is"
              + " resumed)",
          ctx.channel().remoteAddress(),
          e.getMessage());
    } else {
      // Wrong passwords, unknown origins: a flood of them is one line per code per minute.
      admission.helloRefused(ctx.channel(), e.code(), e.getMessage());
    }
    refuse(ctx, e.code(), e.getMessage());
  }

  private void welcome(ChannelHandlerContext ctx, OriginPipeline p) {
    if (!admission.openSession(ctx.channel())) {
      refuse(
          ctx,
          ErrorCode.TOO_MANY_CONNECTIONS,
          "the server already has "
              + admission.maxSessions()
              + " agent connections (exec_max_connections "
              + admission.maxSessions()
              + "); retry later");
      return;
    }
    if (!p.claim(
        this,
        reason ->
            ctx.channel()
                .eventLoop()
                .execute(() -> refuse(ctx, ErrorCode.LOG_TRANSFER_STOPPED, reason)))) {
      refuse(
          ctx,
          ErrorCode.ORIGIN_BUSY,
          "another agent is connected for origin "
              + p.state().name()
              + "; retry after it disconnects");
      return;
    }
    origin = p;
    LtlCompression method =
        this.version >= WireProtocol.COMPRESSION_VERSION
            ? LtlCompression.choose(connect.compression(), compression)
            : LtlCompression.NONE;
    SslHandler tls = ctx.pipeline().get(SslHandler.class);
    LOG.info(
        "agent {} of user {} connected for origin {} from {} (protocol version {}, {},"
            + " compression {})",
        connect.agent().orElse("(unnamed)"),
        connect.user(),
        p.state().name(),
        ctx.channel().remoteAddress(),
        version,
        tls == null ? "plaintext" : "TLS " + tls.engine().getSession().getProtocol(),
        method.configName());
    LinkBytes.countInto(ctx.pipeline(), p.execStats().link);
    ctx.pipeline().get(FrameCodec.Decoder.class).maxFrameLength(maxFrameBytes);
    boolean heartbeats = this.version >= WireProtocol.LIVENESS_VERSION;
    ctx.writeAndFlush(
        new Frame.Welcome(
            this.version,
            p.state().durableOqid(),
            p.locator().resumeBlob(),
            heartbeats ? Optional.of(liveness) : Optional.empty(),
            method));
    // Everything after the Welcome, both ways, is compressed (the agent sends nothing between
    // its Hello and the Welcome, so nothing compressed can have arrived yet).
    LinkCompression.start(ctx.pipeline(), method);
    ctx.pipeline()
        .addBefore(
            ctx.name(),
            "openrs-ltl-liveness",
            new IdleStateHandler(
                liveness.idleTimeoutMillis(),
                heartbeats ? liveness.heartbeatIntervalMillis() : 0,
                0,
                TimeUnit.MILLISECONDS));
  }

  /** Keeps the agent's report for the admin commands and logs what is new in it, once. */
  private void agentStatus(Frame.AgentStatus status) {
    List<AgentReport.Item> items = new ArrayList<>(status.items().size());
    for (Frame.StatusItem i : status.items()) {
      items.add(
          new AgentReport.Item(
              i.kind() == Frame.StatusKind.TABLE_NOT_REPLICATED, i.subject(), i.message()));
    }
    String agent = connect.agent().orElse("(unnamed)");
    List<AgentReport.Item> added =
        origin.state().agentReported(new AgentReport(agent, Instant.now(), items));
    // At most MAX_LOGGED_ITEMS lines per report: a report may hold 10,000 items.
    for (AgentReport.Item i : added.subList(0, Math.min(added.size(), MAX_LOGGED_ITEMS))) {
      LOG.warn(
          "origin {}: agent {} reports {}{}: {} (admin who, rep)",
          origin.state().name(),
          agent,
          i.tableLeftOut() ? "table not replicated: " : "warning",
          i.tableLeftOut() ? i.subject() : i.subject().isEmpty() ? "" : " on " + i.subject(),
          i.message());
    }
    if (added.size() > MAX_LOGGED_ITEMS) {
      LOG.warn(
          "origin {}: agent {} reports {} more new items (admin who, rep)",
          origin.state().name(),
          agent,
          added.size() - MAX_LOGGED_ITEMS);
    }
  }

  /** New items of an agent's report logged one line each; the rest in one line. */
  static final int MAX_LOGGED_ITEMS = 20;

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
    if (!(event instanceof IdleStateEvent idle) || closed) {
      ctx.fireUserEventTriggered(event);
      return;
    }
    if (idle.state() == IdleState.WRITER_IDLE) {
      ctx.writeAndFlush(new Frame.Heartbeat());
    } else if (idle.state() == IdleState.READER_IDLE && !waitingForNrm) {
      // Nothing from the agent for the idle timeout while we were reading: it is dead, frozen or
      // cut off. Close without an Error (it would not read one); channelInactive frees the origin.
      LOG.warn(
          "agent for origin {} from {} sent nothing for {} ms (agent_heartbeat_interval {} ms x"
              + " agent_idle_heartbeats): closing its connection, which frees the origin",
          origin.state().name(),
          ctx.channel().remoteAddress(),
          liveness.idleTimeoutMillis(),
          liveness.heartbeatIntervalMillis());
      closed = true;
      ctx.close();
    }
  }

  private void batch(ChannelHandlerContext ctx, Frame.Batch batch) throws InterruptedException {
    long start = System.nanoTime();
    if (batch.sequence() != expectedSequence) {
      refuse(
          ctx,
          ErrorCode.PROTOCOL_ERROR,
          "batch sequence " + batch.sequence() + " where " + expectedSequence + " was expected");
      return;
    }
    if (!origin.state().logTransfer().running()) {
      refuse(
          ctx,
          ErrorCode.LOG_TRANSFER_STOPPED,
          origin.state().logTransfer().stoppedBecause().orElse("log transfer is suspended"));
      return;
    }
    byte[] text = batch.ltlText();
    bytesReceived += text.length;
    if (rejectedEarlier.isPresent()) {
      // The agent pipelines: batches after a rejected one were sent before it saw the answer.
      // Taking them would skip the rejected command (and its OQID would then count as a resend).
      origin.execStats().batchesRejected.increment();
      expectedSequence++;
      answer(
          ctx,
          new Frame.BatchRejected(
              batch.sequence(),
              0,
              1,
              1,
              Optional.ofNullable(lastTaken),
              "not taken: an earlier batch on this connection was rejected ("
                  + rejectedEarlier.get()
                  + "); reconnect and resend from the truncation point"),
          start);
      return;
    }
    List<LtlCommand.InTransaction> commands = new ArrayList<>();
    LtlParseException parseError = null;
    String notInTransaction = null;
    try {
      parser.parse(
          text,
          0,
          text.length,
          c -> {
            if (c instanceof LtlCommand.InTransaction t) {
              commands.add(stamp(t));
            } else {
              throw new NotATransactionCommand(c);
            }
          });
    } catch (LtlParseException e) {
      parseError = e;
    } catch (NotATransactionCommand e) {
      notInTransaction = e.getMessage();
    }
    origin.execStats().cmdsRecv.add(commands.size());
    origin.execStats().bytesReceived.add(text.length);
    if (notInTransaction != null) {
      refuse(ctx, ErrorCode.PROTOCOL_ERROR, notInTransaction);
      return;
    }
    Frame answer;
    if (parseError == null) {
      if (!commands.isEmpty()) {
        lastTaken = commands.get(commands.size() - 1).oqid();
      }
      answer = new Frame.BatchAccepted(batch.sequence(), commands.size());
    } else {
      origin.execStats().batchesRejected.increment();
      if (!commands.isEmpty()) {
        lastTaken = commands.get(commands.size() - 1).oqid();
      }
      Optional<Oqid> last = Optional.ofNullable(lastTaken);
      rejectedEarlier =
          Optional.of(
              "batch "
                  + batch.sequence()
                  + " at line "
                  + parseError.line()
                  + ", column "
                  + parseError.column());
      answer =
          new Frame.BatchRejected(
              batch.sequence(),
              commands.size(),
              parseError.line(),
              parseError.column(),
              last,
              parseError.getMessage());
      LOG.warn(
          "origin {}: batch {} rejected after {} commands: {}",
          origin.state().name(),
          batch.sequence(),
          commands.size(),
          parseError.getMessage());
    }
    expectedSequence++;
    if (commands.isEmpty()) {
      answer(ctx, answer, start);
      return;
    }
    if (!origin.nrmThread()) {
      if (!origin.writeInline(commands)) {
        refuse(
            ctx,
            ErrorCode.LOG_TRANSFER_STOPPED,
            origin.state().logTransfer().stoppedBecause().orElse("log transfer stopped"));
        return;
      }
      answer(ctx, answer, start);
      return;
    }
    hand(ctx, commands, text.length, answer, start);
  }

  private void hand(
      ChannelHandlerContext ctx,
      List<LtlCommand.InTransaction> commands,
      long bytes,
      Frame answer,
      long start) {
    boolean queued =
        origin.offer(
            commands,
            bytes,
            () ->
                ctx.channel()
                    .eventLoop()
                    .execute(
                        () -> {
                          if (closed) {
                            return;
                          }
                          origin.execStats().nrmWaits.increment();
                          origin.execStats().nrmWaitNanos.add(System.nanoTime() - waitStartNanos);
                          waitingForNrm = false;
                          hand(ctx, commands, bytes, answer, start);
                          while (!waitingForNrm && !closed && !backlog.isEmpty()) {
                            process(ctx, backlog.poll());
                          }
                          if (!waitingForNrm) {
                            ctx.channel().config().setAutoRead(true);
                          }
                        }));
    if (queued) {
      answer(ctx, answer, start);
    } else {
      waitingForNrm = true;
      waitStartNanos = System.nanoTime();
      ctx.channel().config().setAutoRead(false);
    }
  }

  private void answer(ChannelHandlerContext ctx, Frame answer, long start) {
    ctx.writeAndFlush(answer);
    origin.execStats().batches.increment();
    origin.execStats().batchNanos.add(System.nanoTime() - start);
  }

  private LtlCommand.InTransaction stamp(LtlCommand.InTransaction c) {
    if (!(c instanceof LtlCommand.Ticket t)) {
      return c;
    }
    List<String> headers = new ArrayList<>(t.headers());
    headers.add("EXEC=" + Instant.now().truncatedTo(ChronoUnit.MICROS));
    headers.add("B=" + bytesReceived);
    return new LtlCommand.Ticket(t.tran(), t.oqid(), t.time(), headers);
  }

  private void refuse(ChannelHandlerContext ctx, ErrorCode code, String message) {
    if (closed) {
      return;
    }
    closed = true;
    FrameCodec.closeWithError(ctx.channel(), code, message);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    if (origin != null) {
      origin.release(this);
      LOG.info("agent for origin {} disconnected", origin.state().name());
    }
    ctx.fireChannelInactive();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (cause instanceof WireProtocolException
        || cause.getCause() instanceof WireProtocolException) {
      refuse(ctx, ErrorCode.PROTOCOL_ERROR, cause.getMessage());
    } else if (cause instanceof java.io.IOException) {
      ctx.close();
    } else {
      LOG.error("agent session failed", cause);
      refuse(ctx, ErrorCode.INTERNAL, cause.toString());
    }
  }

  private static final class NotATransactionCommand extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NotATransactionCommand(LtlCommand c) {
      super(
          "a batch holds only transaction commands; got "
              + c.getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT)
              + " (use the GetTruncation frame)",
          null,
          false,
          false);
    }
  }
}
