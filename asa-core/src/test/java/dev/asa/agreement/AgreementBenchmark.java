package dev.asa.agreement;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.crypto.Digest;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.crypto.Ed25519Signature;
import dev.asa.document.Agreement;
import dev.asa.document.AgreementDocuments;
import dev.asa.document.AgreementDrafts;
import dev.asa.testing.Fixtures;
import java.time.Instant;
import java.util.List;
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
 * What the server does with an agreement document of the {@code general} template, one operation at
 * a time: its hash, the schema check, the whole reader, a new draft from a partial document, and a
 * party's signature over the hash (checked alone, and added as {@code POST .../sign} adds it), and
 * the document written as an answer. Run with {@code ./asa bench-core AgreementBenchmark}.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@State(Scope.Benchmark)
public class AgreementBenchmark {

  private static final Instant NOW = Instant.parse("2026-11-24T08:00:00Z");

  private ObjectNode partial;
  private ObjectNode document;
  private Agreement proposed;
  private byte[] signingInput;
  private Ed25519PublicKey clientKey;
  private Ed25519Signature clientSignature;

  @Setup
  public void setUp() {
    partial = Fixtures.general();
    proposed = AgreementDrafts.propose(partial, NOW, () -> "asa-bench-0001");
    document = proposed.toJson();
    signingInput = proposed.signingInput();
    clientKey = Fixtures.key("alice").publicKey();
    clientSignature = Fixtures.key("alice").sign(signingInput);
    if (!AgreementSchemas.validate(document, 1).isEmpty()
        || !clientKey.verify(signingInput, clientSignature)) {
      throw new IllegalStateException("the benchmark's agreement does not validate or verify");
    }
  }

  /** {@code agreement_hash}: a copy without the unsigned members, JCS, SHA-256. */
  @Benchmark
  public Digest hash() {
    return Agreement.computeHash(document);
  }

  /** The JSON Schema check alone (the compiled schema is loaded once and reused). */
  @Benchmark
  public List<Violation> validateSchema() {
    return AgreementSchemas.validate(document, 1);
  }

  /** The reader for documents from outside: version, schema, typed terms, semantic rules, hash. */
  @Benchmark
  public Agreement read() {
    return AgreementDocuments.read(document);
  }

  /**
   * What {@code POST /agreements} does with a parsed partial body: template, server members, read.
   */
  @Benchmark
  public Agreement propose() {
    return AgreementDrafts.propose(partial, NOW, () -> "asa-bench-0001");
  }

  /** Ed25519 verification of a party's signature over the UTF-8 of the agreement_hash string. */
  @Benchmark
  public boolean verifySignature() {
    return clientKey.verify(signingInput, clientSignature);
  }

  /** What {@code POST /agreements/{id}/sign} does in the core: verify, then a signed copy. */
  @Benchmark
  public Agreement addSignature() {
    return proposed.withSignature(Role.CLIENT, clientSignature);
  }

  /**
   * The agreement as an answer shows it, written to UTF-8: its members shared, not copied ({@link
   * Agreement#toAnswerJson}).
   */
  @Benchmark
  public byte[] writeAnswer() {
    return dev.asa.json.Json.writeBytes(proposed.toAnswerJson());
  }

  private volatile byte[] written;

  /**
   * The same on a new virtual thread, as the server writes each answer: Jackson's buffers come from
   * {@code Json}'s shared pool, where its default of one set per thread allocated a set for every
   * virtual thread. Beside {@link #writeAnswer}, the difference is the thread (run with {@code
   * -prof gc} for the bytes allocated per answer).
   */
  @Benchmark
  public byte[] writeAnswerOnANewVirtualThread() throws InterruptedException {
    Thread.ofVirtual()
        .start(() -> written = dev.asa.json.Json.writeBytes(proposed.toAnswerJson()))
        .join();
    return written;
  }
}
