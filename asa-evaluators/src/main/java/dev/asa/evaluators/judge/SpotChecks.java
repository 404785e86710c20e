package dev.asa.evaluators.judge;

import dev.asa.evaluators.judge.JudgeReply.Claim;
import dev.asa.evaluators.judge.JudgeReply.Verdict;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.stream.Collectors;

/** What the spot-checked claims say about accuracy, in words and as the hallucination rate. */
final class SpotChecks {
  private SpotChecks() {}

  /**
   * Unsupported claims / claims checked × 100, two decimals. Unverifiable claims count as checked,
   * not as hallucinated.
   */
  static BigDecimal hallucinationRate(List<Claim> claims) {
    long unsupported = count(claims, Verdict.UNSUPPORTED);
    return BigDecimal.valueOf(unsupported * 100)
        .divide(BigDecimal.valueOf(claims.size()), 2, RoundingMode.HALF_EVEN)
        .stripTrailingZeros();
  }

  static String rateEvidence(List<Claim> claims) {
    return count(claims, Verdict.UNSUPPORTED)
        + " of "
        + claims.size()
        + " spot-checked claims unsupported by the judge's check";
  }

  /**
   * "Spot-checked 3 claims: 2 supported, 1 unsupported, 0 unverifiable. Unsupported: "X" (reason)."
   */
  static String summary(List<Claim> claims) {
    String head =
        "Spot-checked "
            + claims.size()
            + (claims.size() == 1 ? " claim: " : " claims: ")
            + count(claims, Verdict.SUPPORTED)
            + " supported, "
            + count(claims, Verdict.UNSUPPORTED)
            + " unsupported, "
            + count(claims, Verdict.UNVERIFIABLE)
            + " unverifiable.";
    String unsupported =
        claims.stream()
            .filter(c -> c.verdict() == Verdict.UNSUPPORTED)
            .map(c ->
                "\"" + c.claim() + "\"" + (c.reason().isEmpty() ? "" : " (" + c.reason() + ")"))
            .collect(Collectors.joining("; "));
    return unsupported.isEmpty() ? head : head + " Unsupported: " + unsupported + ".";
  }

  private static long count(List<Claim> claims, Verdict v) {
    return claims.stream().filter(c -> c.verdict() == v).count();
  }
}
