package dev.asa.negotiation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.agreement.Identity;
import dev.asa.negotiation.MarketMedian.ClosedDeal;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MarketMedianTest {
  private static final NegotiationPolicy P = NegotiationPolicy.DEFAULTS; // 5 distinct pairs

  private static Identity id(String value) {
    return new Identity("api_key", value, null);
  }

  private static ClosedDeal deal(String client, String provider, String price) {
    return new ClosedDeal(id(client), id(provider), new BigDecimal(price));
  }

  @Test
  void fiveDealsBetweenOnePairAreNoMarket() {
    List<ClosedDeal> selfDealt = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      selfDealt.add(deal("mallory", "mallory-sock", "1000.00"));
    }
    assertThat(MarketMedian.fromClosedDeals(selfDealt, P)).isEmpty();
  }

  @Test
  void pricesWeighByTheProvidersRecordSoFreshIdentitiesMoveTheMedianLittle() {
    // Four fresh identities trade at 999 among themselves; one seasoned provider (30 agreements
    // here) trades at 10. Plain, the median is 999; weighted (0.1 each against 0.75), it is 10.
    List<ClosedDeal> deals = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      deals.add(
          new ClosedDeal(
              id("ring-" + i),
              id("sock-" + i),
              new BigDecimal("999"),
              MarketMedian.weightOfRecord(0)));
    }
    deals.add(
        new ClosedDeal(
            id("alice"), id("bob"), new BigDecimal("10"), MarketMedian.weightOfRecord(30)));
    assertThat(MarketMedian.weightOfRecord(0)).isEqualByComparingTo("0.1");
    assertThat(MarketMedian.weightOfRecord(30)).isEqualByComparingTo("0.75");
    assertThat(MarketMedian.fromClosedDeals(deals, P).orElseThrow().median())
        .isEqualByComparingTo("10");
  }

  @Test
  void equalWeightsGiveThePlainMedianEvenCountsTheMeanOfTheMiddleTwo() {
    List<ClosedDeal> deals =
        List.of(
            deal("a", "p1", "8"),
            deal("b", "p2", "12"),
            deal("c", "p3", "9"),
            deal("d", "p4", "11"),
            deal("e", "p5", "10"),
            deal("f", "p6", "13"));
    assertThat(MarketMedian.fromClosedDeals(deals, P).orElseThrow().median())
        .isEqualByComparingTo("10.5");
  }

  @Test
  void fiveDistinctPairsMakeAMedian() {
    List<ClosedDeal> deals =
        List.of(
            deal("a", "p1", "8.00"),
            deal("b", "p2", "12.00"),
            deal("c", "p3", "9.00"),
            deal("d", "p4", "11.00"),
            deal("e", "p5", "10.00"));
    assertThat(MarketMedian.fromClosedDeals(deals, P).orElseThrow().median())
        .isEqualByComparingTo("10");
  }

  @Test
  void aPairWrittenAnotherWayOrWithSidesSwappedIsStillOnePair() {
    List<ClosedDeal> deals =
        List.of(
            deal("mallory", "sock", "1000"),
            deal("MALLORY\u200B", "sock", "1000"),
            deal("sock", "mallory", "1000"),
            deal(" \uFF4Dallory", "SOCK ", "1000"),
            deal("mallory", "so\u00ADck", "1000"));
    assertThat(MarketMedian.latestPricePerPair(deals)).hasSize(1);
    assertThat(MarketMedian.fromClosedDeals(deals, P)).isEmpty();
  }

  @Test
  void eachPairCountsAtItsLatestPrice() {
    // Newest first: the pair (a, p1) last traded at 10; its older 1000 does not count.
    List<ClosedDeal> deals =
        List.of(
            deal("a", "p1", "10"),
            deal("a", "p1", "1000"),
            deal("b", "p2", "10"),
            deal("c", "p3", "10"),
            deal("d", "p4", "10"),
            deal("e", "p5", "10"));
    assertThat(MarketMedian.latestPricePerPair(deals)).hasSize(5);
    assertThat(MarketMedian.fromClosedDeals(deals, P).orElseThrow().median())
        .isEqualByComparingTo("10");
  }

  /**
   * However many agreements one pair closes, at whatever price, the median moves no further than
   * one more honest pair would move it: the self-dealt pair is one value among the honest ones.
   */
  @Test
  void oneSelfDealingPairCannotOutvoteTheMarket() {
    long seed = System.nanoTime();
    System.out.println("MarketMedianTest.oneSelfDealingPairCannotOutvoteTheMarket seed = " + seed);
    Random random = new Random(seed);
    for (int round = 0; round < 500; round++) {
      List<ClosedDeal> deals = new ArrayList<>();
      List<BigDecimal> honest = new ArrayList<>();
      int pairs = 5 + random.nextInt(10);
      for (int i = 0; i < pairs; i++) {
        BigDecimal price = BigDecimal.valueOf(5 + random.nextInt(10));
        honest.add(price);
        deals.add(new ClosedDeal(id("client-" + i), id("provider-" + i), price));
      }
      for (int n = 1 + random.nextInt(50); n > 0; n--) {
        deals.add(deal(random.nextBoolean() ? "mallory" : "MALLORY", "sock", "100000"));
      }
      Collections.shuffle(deals, random);
      BigDecimal median = MarketMedian.fromClosedDeals(deals, P).orElseThrow().median();
      List<BigDecimal> sorted = new ArrayList<>(honest);
      sorted.sort(null);
      // One extra high value lifts the median at most to the honest price just above the middle.
      assertThat(median)
          .as("seed %d, round %d", seed, round)
          .isLessThanOrEqualTo(sorted.get((pairs + 1) / 2));
    }
  }
}
