package dev.asa.negotiation;

import dev.asa.agreement.Identity;
import dev.asa.text.Identities;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
   * A closed agreement as the market median sees it: who traded with whom, at what price, and how
   * much the provider's record weighs ({@link #weightOfRecord}).
   */
  public record ClosedDeal(
      Identity client, Identity provider, BigDecimal price, BigDecimal weight) {
    public ClosedDeal {
      Objects.requireNonNull(client, "client");
      Objects.requireNonNull(provider, "provider");
      Objects.requireNonNull(price, "price");
      Objects.requireNonNull(weight, "weight");
      if (weight.signum() <= 0) {
        throw new IllegalArgumentException("a deal's weight is positive");
      }
    }

    /** A deal whose provider has no record: the least weight. */
    public ClosedDeal(Identity client, Identity provider, BigDecimal price) {
      this(client, provider, price, weightOfRecord(0));
    }

    /**
     * The trading pair, the same whichever side each was on and however the names are written
     * ({@link Identities#comparable}): A selling to B and B selling to A are one pair.
     */
    String pair() {
      String a = client.scheme() + ":" + Identities.comparable(client.value());
      String b = provider.scheme() + ":" + Identities.comparable(provider.value());
      return a.compareTo(b) <= 0 ? a + "\n" + b : b + "\n" + a;
    }
  }

  /**
   * The median over closed deals, newest first, counting each trading pair once, at its latest
   * price, and only when at least {@code policy.minClosedForMedian()} distinct pairs traded. Two
   * agents closing five agreements with each other (at a price of their choosing) are one voice,
   * not a market: without this they alone would set the anchor every later negotiation of the type
   * is flagged against.
   */
  public static Optional<MarketMedian> fromClosedDeals(
      List<ClosedDeal> newestFirst, NegotiationPolicy policy) {
    List<ClosedDeal> latest = latestDealPerPair(newestFirst);
    if (latest.size() < policy.minClosedForMedian()) {
      return Optional.empty();
    }
    return weightedMedian(latest)
        .filter(m -> m.signum() > 0)
        .map(m -> new MarketMedian(m, CLOSED_AGREEMENTS));
  }

  /**
   * How much a pair's price weighs in the median, from its provider's record here: {@code n / (n +
   * 10)} for a record of {@code n} agreements (ARP's confidence), and never less than 0.1, so that
   * a newcomer's price still counts, a tenth as much as a seasoned provider's. A ring of fresh
   * identities trading among themselves at an invented price moves the median little.
   */
  public static BigDecimal weightOfRecord(long agreements) {
    BigDecimal c =
        BigDecimal.valueOf(agreements)
            .divide(BigDecimal.valueOf(agreements + 10), 4, RoundingMode.HALF_EVEN);
    return c.max(MIN_WEIGHT);
  }

  static final BigDecimal MIN_WEIGHT = new BigDecimal("0.1");

  /** Each distinct pair's latest price, newest pair first. */
  public static List<BigDecimal> latestPricePerPair(List<ClosedDeal> newestFirst) {
    return latestDealPerPair(newestFirst).stream().map(ClosedDeal::price).toList();
  }

  private static List<ClosedDeal> latestDealPerPair(List<ClosedDeal> newestFirst) {
    Map<String, ClosedDeal> latest = new LinkedHashMap<>();
    for (ClosedDeal deal : newestFirst) {
      latest.putIfAbsent(deal.pair(), deal);
    }
    return List.copyOf(latest.values());
  }

  /**
   * The weighted median: prices in order, the first whose cumulative weight reaches half the total;
   * exactly half, the mean of it and the next. With equal weights it is the plain median.
   */
  static Optional<BigDecimal> weightedMedian(List<ClosedDeal> deals) {
    if (deals.isEmpty()) {
      return Optional.empty();
    }
    List<ClosedDeal> sorted = new ArrayList<>(deals);
    sorted.sort(java.util.Comparator.comparing(ClosedDeal::price));
    BigDecimal total =
        sorted.stream().map(ClosedDeal::weight).reduce(BigDecimal.ZERO, BigDecimal::add);
    BigDecimal half = total.divide(BigDecimal.valueOf(2));
    BigDecimal cumulative = BigDecimal.ZERO;
    for (int i = 0; i < sorted.size(); i++) {
      cumulative = cumulative.add(sorted.get(i).weight());
      int reached = cumulative.compareTo(half);
      if (reached > 0 || (reached == 0 && i == sorted.size() - 1)) {
        return Optional.of(sorted.get(i).price());
      }
      if (reached == 0) {
        return Optional.of(
            sorted
                .get(i)
                .price()
                .add(sorted.get(i + 1).price())
                .divide(BigDecimal.valueOf(2), 18, RoundingMode.HALF_EVEN)
                .stripTrailingZeros());
      }
    }
    throw new IllegalStateException("the cumulative weight never reached half the total");
  }

  /**
   * The median of prices, one per distinct trading pair (see {@link #fromClosedDeals}), when there
   * are at least {@code policy.minClosedForMedian()} of them (fewer say too little about a market).
   */
  public static Optional<MarketMedian> fromClosed(
      Collection<BigDecimal> prices, NegotiationPolicy policy) {
    if (prices.size() < policy.minClosedForMedian()) {
      return Optional.empty();
    }
    List<BigDecimal> sorted = new ArrayList<>(prices);
    sorted.sort(null);
    int n = sorted.size();
    BigDecimal m =
        n % 2 == 1
            ? sorted.get(n / 2)
            : sorted
                .get(n / 2 - 1)
                .add(sorted.get(n / 2))
                .divide(BigDecimal.valueOf(2), 18, RoundingMode.HALF_EVEN)
                .stripTrailingZeros();
    return m.signum() > 0 ? Optional.of(new MarketMedian(m, CLOSED_AGREEMENTS)) : Optional.empty();
  }

  /**
   * A message's market_reference counts only when its source is one the server was configured to
   * trust: otherwise a party could anchor the bounds with a figure of its own invention.
   */
  public static Optional<MarketMedian> fromReference(
      NegotiationMessage.MarketReference reference, Set<String> trustedSources) {
    if (reference == null
        || !trustedSources.contains(reference.source())
        || reference.median().signum() <= 0) {
      return Optional.empty();
    }
    return Optional.of(new MarketMedian(reference.median(), reference.source()));
  }
}
