package dev.asa.scoring;

import dev.asa.agreement.Escrow;
import dev.asa.agreement.GraduatedRelease;
import dev.asa.agreement.Money;
import dev.asa.agreement.Tier;
import java.math.BigDecimal;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How much of the payment a verification releases (whitepaper 8.2, NOTES.md "Decisions"). This is
 * the only place that rule lives.
 */
public final class Release {

  private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

  private Release() {}

  /**
   * The percentage of the payment to release to the provider.
   *
   * <ul>
   *   <li>A failed quality gate releases nothing, whatever the scores.
   *   <li>Graduated release in tiers mode: the tier the composite falls into, matched by value (see
   *       {@link #tierPercent}).
   *   <li>Graduated release in continuous mode: the composite itself, so that {@code score / 100 *
   *       amount} is released; clamped to 0..100 because count or duration dimensions can push a
   *       composite outside that range.
   *   <li>Otherwise (no graduated release, or no payment at all, when the figure is only
   *       informational): everything on PASS, nothing on FAIL.
   * </ul>
   *
   * @param payment the agreement's payment terms, or null when there is no escrow
   * @param composite the reported (rounded) composite score
   * @param gatesPassed whether the quality gates passed
   * @param passed whether the determination is PASS
   */
  public static BigDecimal percent(
      Escrow.Payment payment, BigDecimal composite, boolean gatesPassed, boolean passed) {
    Objects.requireNonNull(composite, "composite");
    if (!gatesPassed) {
      return BigDecimal.ZERO;
    }
    GraduatedRelease graduated = payment == null ? GraduatedRelease.DISABLED : payment.release();
    if (!graduated.enabled()) {
      return passed ? HUNDRED : BigDecimal.ZERO;
    }
    return switch (graduated.mode()) {
      case TIERS -> tierPercent(graduated.tiers(), composite);
      case CONTINUOUS -> composite.max(BigDecimal.ZERO).min(HUNDRED);
    };
  }

  /**
   * The release percentage of the tier a composite falls into, independent of the order in which
   * the tiers are listed: of the {@code composite_score_gte} tiers the composite reaches, the one
   * with the highest score; if it reaches none, the tightest {@code composite_score_lt} floor tier
   * that applies; if there is none either, 0. Where two tiers have the same bound, the smaller
   * release wins, so that a contradictory list never pays more than one reading of it allows.
   */
  static BigDecimal tierPercent(List<Tier> tiers, BigDecimal composite) {
    Optional<Tier> reached =
        tiers.stream()
            .filter(t -> t.bound() == Tier.Bound.GTE && t.matches(composite))
            .max(
                Comparator.comparing(Tier::score)
                    .thenComparing(Tier::releasePercent, Comparator.reverseOrder()));
    if (reached.isPresent()) {
      return reached.get().releasePercent();
    }
    return tiers.stream()
        .filter(t -> t.bound() == Tier.Bound.LT && t.matches(composite))
        .min(Comparator.comparing(Tier::score).thenComparing(Tier::releasePercent))
        .map(Tier::releasePercent)
        .orElse(BigDecimal.ZERO);
  }

  /**
   * Divides an amount: the released share is rounded down to the currency's minor unit (by {@link
   * Money#percent}) and the refund is the rest, so released + refunded is exactly the amount and
   * rounding never takes from the client more than the percentage allows.
   *
   * @param percent 0 to 100
   */
  public static Settlement split(Money amount, BigDecimal percent) {
    Objects.requireNonNull(amount, "amount");
    Objects.requireNonNull(percent, "percent");
    if (percent.signum() < 0 || percent.compareTo(HUNDRED) > 0) {
      throw new IllegalArgumentException(
          "a release percentage is between 0 and 100, got " + percent.toPlainString());
    }
    Money released = amount.percent(percent);
    return new Settlement(released, amount.minus(released));
  }
}
