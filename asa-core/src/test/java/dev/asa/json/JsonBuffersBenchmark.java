package dev.asa.json;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.document.AgreementDrafts;
import dev.asa.testing.Fixtures;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * An answer written as the server writes it: a template-sized agreement document to UTF-8 on a new
 * virtual thread, one per request. Jackson's buffers are pooled across threads ({@link Json}'s
 * factory); with its default of one set per thread, each virtual thread allocated a set of its own.
 * Beside it, the same on one thread: the difference is the thread and the buffers. Run with {@code
 * ./asa bench-core JsonBuffersBenchmark -prof gc} to see the bytes allocated per operation.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@State(Scope.Benchmark)
public class JsonBuffersBenchmark {

  private ObjectNode document;
  private volatile byte[] written;

  @Setup
  public void setUp() {
    document =
        AgreementDrafts.propose(
                Fixtures.general(), Instant.parse("2026-11-24T08:00:00Z"), () -> "asa-bench-0001")
            .toJson();
  }

  /** On a new virtual thread, as a request's answer is. */
  @Benchmark
  public byte[] writeOnANewVirtualThread() throws InterruptedException {
    Thread.ofVirtual().start(() -> written = Json.writeBytes(document)).join();
    return written;
  }

  /** On the benchmark's own thread. */
  @Benchmark
  public byte[] writeOnThisThread() {
    return Json.writeBytes(document);
  }
}
