package dev.asa.json;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.crypto.Digest;
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
 * RFC 8785 canonicalisation of a template-sized agreement document (the {@code general} template
 * with the test parties, about 3 KB canonical), alone and with its SHA-256 digest: the work under
 * every agreement hash and event digest. Run with {@code ./asa bench-core JcsBenchmark}.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@State(Scope.Benchmark)
public class JcsBenchmark {

  private ObjectNode document;

  @Setup
  public void setUp() {
    document =
        AgreementDrafts.propose(
                Fixtures.general(), Instant.parse("2026-11-24T08:00:00Z"), () -> "asa-bench-0001")
            .toJson();
  }

  /** The canonical UTF-8 bytes. */
  @Benchmark
  public byte[] canonicalize() {
    return Jcs.canonicalize(document);
  }

  private final byte[] eventSized = new byte[300];

  /**
   * SHA-256 of an event's few hundred bytes, where looking the algorithm up among the providers
   * (which {@link Digest#sha256} no longer does per call) cost about as much as the hashing.
   */
  @Benchmark
  public Digest digestOfAnEvent() {
    return Digest.sha256(eventSized);
  }

  /** The same, looking the algorithm up each time (as before): the difference is the lookup. */
  @Benchmark
  public byte[] digestOfAnEventLookingUpSha256() throws Exception {
    return java.security.MessageDigest.getInstance("SHA-256").digest(eventSized);
  }

  /** The canonical bytes and their SHA-256: {@link Digest#ofCanonicalJson}. */
  @Benchmark
  public Digest canonicalizeAndDigest() {
    return Digest.ofCanonicalJson(document);
  }
}
