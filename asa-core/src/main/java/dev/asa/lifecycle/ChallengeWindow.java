package dev.asa.lifecycle;

import dev.asa.agreement.VerificationTerms;
import java.time.Instant;

/**
 * The period after verification during which either party may challenge the result. With the {@code
 * pessimistic} strategy there is no window: the result is enforced at once.
 */
public record ChallengeWindow(Instant opensAt, Instant closesAt) {

  public static ChallengeWindow after(Instant verifiedAt, VerificationTerms terms) {
    long seconds =
        terms.strategy() == VerificationTerms.Strategy.PESSIMISTIC
            ? 0
            : terms.challengeWindowSeconds();
    return new ChallengeWindow(verifiedAt, verifiedAt.plusSeconds(seconds));
  }

  /** Open from verification up to, but not including, {@code closesAt}. */
  public boolean isOpenAt(Instant now) {
    return !now.isBefore(opensAt) && now.isBefore(closesAt);
  }
}
