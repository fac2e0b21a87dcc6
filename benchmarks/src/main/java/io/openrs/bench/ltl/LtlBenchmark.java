package io.openrs.bench.ltl;

import io.openrs.ltl.ByteBuilder;
import io.openrs.ltl.LtlCommand;
import io.openrs.ltl.packed.PackedDecoder;
import io.openrs.ltl.packed.PackedEncoder;
import io.openrs.ltl.packed.PackedFormatException;
import io.openrs.ltl.text.LtlParseException;
import io.openrs.ltl.text.LtlParser;
import io.openrs.ltl.text.LtlWriter;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * LTL throughput on one core over the realistic mix ({@link RealisticMix}): every operation is one
 * command, so the score is commands per second. The setup prints the bytes per command, which turns
 * the score into MB/s.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar LtlBenchmark -t 1}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class LtlBenchmark {
  /** Commands per operation batch (whole transactions, begin and commit included). */
  public static final int COMMANDS = 20_000;

  private byte[] text;
  private int textLength;
  private byte[] packed;
  private int packedLength;
  private List<LtlCommand> commands;
  private final LtlParser parser = new LtlParser();
  private final PackedEncoder encoder = new PackedEncoder();
  private final PackedDecoder decoder = new PackedDecoder();
  private final LtlWriter writer = new LtlWriter();
  private final ByteBuilder out = new ByteBuilder(8 << 20);

  @Setup
  public void setup() {
    commands = new RealisticMix(42).commands(COMMANDS).subList(0, COMMANDS);
    ByteBuilder t = new ByteBuilder(8 << 20);
    ByteBuilder p = new ByteBuilder(8 << 20);
    for (LtlCommand c : commands) {
      writer.write(c, t);
      encoder.encode(c, p);
    }
    text = t.toByteArray();
    textLength = t.size();
    packed = p.toByteArray();
    packedLength = p.size();
    System.out.printf(
        "%nworkload: %d commands, %d bytes of LTL text (%.1f bytes/command), %d bytes packed"
            + " (%.1f bytes/command)%n",
        COMMANDS,
        textLength,
        textLength / (double) COMMANDS,
        packedLength,
        packedLength / (double) COMMANDS);
  }

  /** Text to commands. */
  @Benchmark
  @OperationsPerInvocation(COMMANDS)
  public void parse(Blackhole bh) throws LtlParseException {
    parser.parse(text, 0, textLength, bh::consume);
  }

  /** Text to commands to packed bytes: what NRM does with each batch. */
  @Benchmark
  @OperationsPerInvocation(COMMANDS)
  public int parseAndPack() throws LtlParseException {
    out.reset();
    parser.parse(text, 0, textLength, c -> encoder.encode(c, out));
    return out.size();
  }

  /** Commands to packed bytes. */
  @Benchmark
  @OperationsPerInvocation(COMMANDS)
  public int pack() {
    out.reset();
    for (int i = 0; i < COMMANDS; i++) {
      encoder.encode(commands.get(i), out);
    }
    return out.size();
  }

  /** Packed bytes to commands: what SQT/DSI do when reading a queue. */
  @Benchmark
  @OperationsPerInvocation(COMMANDS)
  public void unpack(Blackhole bh) throws PackedFormatException {
    decoder.decodeAll(packed, 0, packedLength, bh::consume);
  }

  /** Commands to text: what the agent does. */
  @Benchmark
  @OperationsPerInvocation(COMMANDS)
  public int write() {
    out.reset();
    for (int i = 0; i < COMMANDS; i++) {
      writer.write(commands.get(i), out);
    }
    return out.size();
  }
}
