package dev.asa.scoring;

import dev.asa.agreement.AgreementTerms;
import dev.asa.agreement.Escrow;
import dev.asa.document.AgreementDrafts;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
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
 * Scoring one verification of a {@code general}-template agreement, as the server decides it: each
 * dimension against its SLO and shadow SLO, the weighted composite, the quality gate {@code
 * accuracy_gte_60}, the tier of the graduated release ({@link Verdicts#decide}), then the split of
 * the 10.00 USD payment ({@link Release#split}). Run with {@code ./asa bench-core
 * VerdictsBenchmark}.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@State(Scope.Benchmark)
public class VerdictsBenchmark {

  private VerdictInputs inputs;
  private Escrow.Payment payment;

  @Setup
  public void setUp() {
    AgreementTerms terms =
        AgreementDrafts.propose(
                dev.asa.testing.Fixtures.general(),
                Instant.parse("2026-11-24T08:00:00Z"),
                () -> "asa-bench-0001")
            .terms();
    payment = terms.escrow().paymentTerms().orElseThrow();
    Map<String, DimensionInput> scores = new LinkedHashMap<>();
    scores.put(
        "accuracy",
        DimensionInput.scored("accuracy", new BigDecimal("86"), "Spot-checked 5 claims.")
            .withShadow(new BigDecimal("2.5"), "1 unsupported claim in 40"));
    scores.put(
        "completeness",
        DimensionInput.scored("completeness", new BigDecimal("78"), "Covers 7 of 9 points.")
            .withShadow(new BigDecimal("12"), "Some repetition in section 3"));
    scores.put("relevance", DimensionInput.scored("relevance", new BigDecimal("91"), "On topic."));
    scores.put(
        "timeliness",
        DimensionInput.structural("timeliness", new BigDecimal("100"), "Delivered in time."));
    inputs =
        VerdictInputs.of(
            terms.qualityCriteria(),
            payment,
            scores,
            Map.of(Scorer.FORMAT_VALID, CheckResult.passed("valid markdown")));
    Settlement check = decideAndSplit();
    if (check.released().amount().signum() == 0) {
      throw new IllegalStateException("the benchmark's verification should release money");
    }
  }

  /** The verdict: scorecard, composite, gates, determination and release percentage. */
  @Benchmark
  public Verdict decide() {
    return Verdicts.decide(inputs);
  }

  /** The verdict and the money it moves. */
  @Benchmark
  public Settlement decideAndSplit() {
    Verdict verdict = Verdicts.decide(inputs);
    return Release.split(payment.amount(), verdict.determination().paymentReleasePercent());
  }
}
