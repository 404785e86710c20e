package dev.asa.document;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.facts.EscrowFact;
import dev.asa.json.Json;
import dev.asa.lifecycle.State;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * An active, funded agreement written as an answer shows it: from its kept members text ({@link
 * AnswerJson}, as the server does) against walking the same tree (as it did before); and what a
 * signature costs: its new document's members text written once ({@link MembersText}) against the
 * stored text as it was written before. Run with {@code ./asa bench-core AnswerJson}.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@org.openjdk.jmh.annotations.State(Scope.Benchmark)
public class AnswerJsonBenchmark {

  private final Agreement funded =
      AgreementDrafts.propose(
              Fixtures.general(), Instant.parse("2026-12-08T10:00:00Z"), () -> "asa-bench-answer")
          .withState(State.ACTIVE)
          .withFacts(f -> f.withEscrow(EscrowFact.unfunded()));

  private final ObjectNode tree = plain(funded);

  private final ObjectNode signed =
      funded
          .withSignature(
              dev.asa.agreement.Role.CLIENT, Fixtures.key("alice").sign(funded.signingInput()))
          .toJson();

  private final ObjectNode signedWithoutStatus = withoutStatus(signed);

  /** A signature's new document written once (MembersText), as the server stores it. */
  @Benchmark
  public MembersText membersTextAtASignature() {
    return MembersText.of(signed);
  }

  /** The same text as it was written before: the document without its status, walked whole. */
  @Benchmark
  public String storedTextByTheTree() {
    return Json.write(signedWithoutStatus);
  }

  private static ObjectNode withoutStatus(ObjectNode document) {
    ObjectNode copy = document.deepCopy();
    copy.remove("status");
    return copy;
  }

  @Benchmark
  public byte[] fromKeptText() {
    return Json.writeBytes(funded.toAnswerJson());
  }

  @Benchmark
  public byte[] walkingTheTree() {
    return Json.writeBytes(tree);
  }

  private static ObjectNode plain(Agreement a) {
    ObjectNode plain = a.toJson();
    plain.set(Agreement.FACTS_MEMBER, a.facts().toJson());
    return plain;
  }
}
