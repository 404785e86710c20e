package dev.asa.negotiation;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The market median price for a service type and where it comes from; the anchor of the price
 * bounds (whitepaper section 7.3).
 */
public record MarketMedian(BigDecimal median, String source) {

  /** The source named when the median is computed from this store's own closed agreements. */
  public static final String CLOSED_AGREEMENTS = "closed_agreements";

  public MarketMedian {
    Objects.requireNonNull(median, "median");
    Objects.requireNonNull(source, "source");
    if (median.signum() <= 0) {
      throw new IllegalArgumentException("a market median must be positive");
    }
  }

  /**
   * The median of the prices of closed agreements, when there are at least
   * {@code policy.minClosedForMedian()} of them (fewer say too little about a market).
   */
  public static Optional<MarketMedian> fromClosed(Collection<BigDecimal> prices, NegotiationPolicy policy) {
    if (prices.size() < policy.minClosedForMedian()) {
      return Optional.empty();
    }
    List<BigDecimal> sorted = new ArrayList<>(prices);
    sorted.sort(null);
    int n = sorted.size();
    BigDecimal m = n % 2 == 1
        ? sorted.get(n / 2)
        : sorted.get(n / 2 - 1).add(sorted.get(n / 2)).divide(BigDecimal.valueOf(2), 18, RoundingMode.HALF_EVEN)
            .stripTrailingZeros();
    return m.signum() > 0 ? Optional.of(new MarketMedian(m, CLOSED_AGREEMENTS)) : Optional.empty();
  }

  /**
   * A message's market_reference counts only when its source is one the server was configured to
   * trust: otherwise a party could anchor the bounds with a figure of its own invention.
   */
  public static Optional<MarketMedian> fromReference(
      NegotiationMessage.MarketReference reference, Set<String> trustedSources) {
    if (reference == null || !trustedSources.contains(reference.source()) || reference.median().signum() <= 0) {
      return Optional.empty();
    }
    return Optional.of(new MarketMedian(reference.median(), reference.source()));
  }
}
