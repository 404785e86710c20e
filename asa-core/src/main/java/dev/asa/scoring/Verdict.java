package dev.asa.scoring;

import java.util.Objects;
import java.util.Optional;

/**
 * What a verification decided (see {@link Verdicts#decide}): the scorecard to record, and what the
 * series guarantee and the shadow gate had to say besides it.
 *
 * @param scorecard the final scorecard; its determination already carries any shadow override
 * @param guarantee how the provider's series fared against the criteria's guarantee; empty when the
 *     criteria promise none
 * @param shadowWarning the warning to attach when the shadow gate proceeds with a warning; empty
 *     otherwise
 */
public record Verdict(
    Scorecard scorecard,
    Optional<GuaranteeCheck.Outcome> guarantee,
    Optional<String> shadowWarning) {

  public Verdict {
    Objects.requireNonNull(scorecard, "scorecard");
    Objects.requireNonNull(guarantee, "guarantee");
    Objects.requireNonNull(shadowWarning, "shadowWarning");
  }

  /** PASS or FAIL, and how much of the payment it releases. */
  public Determination determination() {
    return scorecard.determination();
  }
}
