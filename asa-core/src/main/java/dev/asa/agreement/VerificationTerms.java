package dev.asa.agreement;

import java.util.Objects;

/**
 * How and when the result is enforced. With {@code optimistic} the result waits out the challenge
 * window before money moves; with {@code pessimistic} it is enforced at once.
 *
 * @param depth the section 5.3 depth the agreement asks for ({@code structural}, {@code semantic},
 *     {@code composite}, as the schema allows), or null when it names none
 */
public record VerificationTerms(
    Strategy strategy,
    long challengeWindowSeconds,
    long evaluatorTimeoutSeconds,
    Visibility resultVisibility,
    String depth) {

  /** Applied when an agreement has no {@code verification} member. */
  public static final VerificationTerms DEFAULTS =
      new VerificationTerms(Strategy.OPTIMISTIC, 7200, 600, Visibility.PARTIES, null);

  public VerificationTerms {
    Objects.requireNonNull(strategy, "strategy");
    Objects.requireNonNull(resultVisibility, "resultVisibility");
    if (challengeWindowSeconds < 0) {
      throw new IllegalArgumentException("challenge_window_seconds must not be negative");
    }
  }

  public enum Strategy {
    OPTIMISTIC,
    PESSIMISTIC;

    public static Strategy fromWire(String name) {
      return Wire.parse(Strategy.class, name, "verification strategy");
    }
  }

  public enum Visibility {
    PARTIES,
    PARTIES_AND_ARP,
    PUBLIC;

    public static Visibility fromWire(String name) {
      return Wire.parse(Visibility.class, name, "result_visibility");
    }
  }
}
