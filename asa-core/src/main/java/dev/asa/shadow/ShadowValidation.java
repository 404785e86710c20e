package dev.asa.shadow;

import java.util.List;
import java.util.Objects;

/**
 * The outcome of checking one deliverable against a seal.
 *
 * @param sealedHash the commitment the seal states (the report's {@code sealed_hash})
 * @param seal whether the seal held when it was checked; when not, the score is advisory and the
 *     gate is {@link Gate#BLOCKED}
 * @param results one per criterion, in the seal's order
 */
public record ShadowValidation(
    Commitment sealedHash, SealVerification seal, List<CriterionResult> results) {

  public ShadowValidation {
    Objects.requireNonNull(sealedHash, "sealedHash");
    Objects.requireNonNull(seal, "seal");
    results = List.copyOf(results);
  }

  public boolean sealBroken() {
    return !seal.valid();
  }

  public TestSuite suite() {
    return new TestSuite(results.stream().map(CriterionResult::toTestResult).toList());
  }

  public ShadowScore score() {
    return ShadowScore.of(suite());
  }

  /** The spec-format report; a broken seal makes it advisory with {@code seal_broken: true}. */
  public ShadowReport report() {
    ShadowReport report = ShadowReport.of(suite()).withSealedHash(sealedHash.toString());
    return sealBroken()
        ? report.withSealBroken(
            "the seal is broken, so the criteria checked may not be the ones sealed: "
                + seal.problem().orElseThrow())
        : report;
  }

  public Gate gate() {
    return Gate.of(score(), sealBroken());
  }
}
