package dev.asa.scoring;

import static dev.asa.scoring.Fixtures.continuous;
import static dev.asa.scoring.Fixtures.currency;
import static dev.asa.scoring.Fixtures.gte;
import static dev.asa.scoring.Fixtures.lt;
import static dev.asa.scoring.Fixtures.money;
import static dev.asa.scoring.Fixtures.n;
import static dev.asa.scoring.Fixtures.notGraduated;
import static dev.asa.scoring.Fixtures.tiered;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.asa.agreement.Currency;
import dev.asa.agreement.Escrow;
import dev.asa.agreement.Money;
import dev.asa.agreement.Tier;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ReleaseTest {

  private static final List<Tier> WHITEPAPER_TIERS =
      List.of(gte("90", "100"), gte("75", "85"), gte("60", "50"), lt("60", "0"));

  private static BigDecimal passing(Escrow.Payment payment, String composite) {
    return Release.percent(payment, n(composite), true, true);
  }

  @ParameterizedTest(name = "composite {0} releases {1}%")
  @CsvSource({
    "92,     100",
    "90,     100",
    "89.999, 85",
    "80,     85",
    "75,     85",
    "74.999, 50",
    "65,     50",
    "60,     50",
    "59.999, 0",
    "40,     0",
  })
  void tiersAreMatchedByValueWhateverTheirOrder(String composite, String percent) {
    for (long seed = 0; seed < 24; seed++) {
      List<Tier> shuffled = new ArrayList<>(WHITEPAPER_TIERS);
      Collections.shuffle(shuffled, new Random(seed));
      Escrow.Payment payment = tiered(shuffled.toArray(Tier[]::new));
      assertThat(Release.percent(payment, n(composite), true, n(composite).compareTo(n("75")) >= 0))
          .as("tier order %s", shuffled)
          .isEqualByComparingTo(percent);
    }
  }

  @Test
  void belowEveryTierWithoutFloorReleasesNothing() {
    assertThat(passing(tiered(gte("90", "100"), gte("75", "85")), "70")).isEqualByComparingTo("0");
  }

  @Test
  void theTightestFloorTierApplies() {
    Escrow.Payment payment = tiered(lt("60", "20"), lt("40", "0"), gte("60", "100"));
    assertThat(passing(payment, "50")).isEqualByComparingTo("20");
    assertThat(passing(payment, "30")).isEqualByComparingTo("0");
  }

  @Test
  void continuousModeReleasesTheCompositeAsAPercentage() {
    assertThat(passing(continuous(), "86.1")).isEqualByComparingTo("86.1");
    assertThat(Release.percent(continuous(), n("42.5"), true, false)).isEqualByComparingTo("42.5");
    assertThat(passing(continuous(), "140")).isEqualByComparingTo("100");
    assertThat(passing(continuous(), "0")).isEqualByComparingTo("0");
  }

  @Test
  void failedGatesReleaseNothingInEveryMode() {
    for (Escrow.Payment payment : List.of(continuous(), tiered(gte("0", "100")), notGraduated())) {
      assertThat(Release.percent(payment, n("99"), false, false)).isEqualByComparingTo("0");
    }
    assertThat(Release.percent(null, n("99"), false, false)).isEqualByComparingTo("0");
  }

  @Test
  void withoutGraduatedReleaseOrWithoutPaymentItIsAllOrNothing() {
    assertThat(Release.percent(notGraduated(), n("80"), true, true)).isEqualByComparingTo("100");
    assertThat(Release.percent(notGraduated(), n("70"), true, false)).isEqualByComparingTo("0");
    assertThat(Release.percent(null, n("80"), true, true)).isEqualByComparingTo("100");
    assertThat(Release.percent(null, n("70"), true, false)).isEqualByComparingTo("0");
  }

  @Test
  void splitKeepsTheCurrencysDecimals() {
    Settlement usd = Release.split(money("10.00", "USD"), n("85"));
    assertThat(usd.released().toWire()).isEqualTo("8.50");
    assertThat(usd.refunded().toWire()).isEqualTo("1.50");

    Settlement usdc = Release.split(money("10.00", "USDC"), n("85"));
    assertThat(usdc.released().toWire()).isEqualTo("8.500000");
    assertThat(usdc.refunded().toWire()).isEqualTo("1.500000");
  }

  @Test
  void splitRoundsTheReleaseDownAndRefundsTheRest() {
    Settlement yen = Release.split(money("1000", "JPY"), n("33.333"));
    assertThat(yen.released().toWire()).isEqualTo("333");
    assertThat(yen.refunded().toWire()).isEqualTo("667");

    Settlement cents = Release.split(money("0.01", "USD"), n("99.99"));
    assertThat(cents.released().toWire()).isEqualTo("0.00");
    assertThat(cents.refunded().toWire()).isEqualTo("0.01");
  }

  @Test
  void splitRefusesPercentagesOutsideZeroToHundred() {
    assertThatThrownBy(() -> Release.split(money("1.00", "USD"), n("100.01")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("100.01");
    assertThatThrownBy(() -> Release.split(money("1.00", "USD"), n("-1")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void splitNeverCreatesOrLosesMoney() {
    long seed = System.nanoTime();
    System.out.println("ReleaseTest.splitNeverCreatesOrLosesMoney seed = " + seed);
    Random random = new Random(seed);
    List<Currency> currencies =
        List.of("USD", "JPY", "USDC", "DAI", "BTC", "SOL", "CREDIT").stream()
            .map(Fixtures::currency)
            .toList();
    for (int i = 0; i < 10_000; i++) {
      Currency currency = currencies.get(random.nextInt(currencies.size()));
      Money amount = new Money(randomAmount(random, currency), currency);
      BigDecimal percent = randomPercent(random);

      Settlement s = Release.split(amount, percent);

      String context =
          "seed " + seed + ", case " + i + ": " + amount + " at " + percent.toPlainString() + "%";
      assertThat(s.released().plus(s.refunded())).as(context).isEqualTo(amount);
      assertThat(s.released().amount().signum()).as(context).isGreaterThanOrEqualTo(0);
      assertThat(s.refunded().amount().signum()).as(context).isGreaterThanOrEqualTo(0);
      assertThat(s.released().amount()).as(context).isLessThanOrEqualTo(amount.amount());
      // Rounded down: never more than the exact share, and less by under one minor unit.
      BigDecimal exact = amount.amount().multiply(percent).divide(BigDecimal.valueOf(100));
      BigDecimal minorUnit = BigDecimal.ONE.movePointLeft(currency.decimals());
      assertThat(s.released().amount()).as(context).isLessThanOrEqualTo(exact);
      assertThat(exact.subtract(s.released().amount())).as(context).isLessThan(minorUnit);
    }
  }

  private static BigDecimal randomAmount(Random random, Currency currency) {
    long unscaled =
        switch (random.nextInt(4)) {
          case 0 -> random.nextInt(10); // tiny amounts, where rounding bites
          case 1 -> random.nextInt(1_000_000);
          default -> random.nextLong(1_000_000_000_000_000L);
        };
    return BigDecimal.valueOf(unscaled, random.nextInt(currency.decimals() + 1));
  }

  private static BigDecimal randomPercent(Random random) {
    return switch (random.nextInt(10)) {
      case 0 -> BigDecimal.ZERO;
      case 1 -> BigDecimal.valueOf(100);
      default ->
          BigDecimal.valueOf(random.nextInt(100_001), 3).setScale(3, RoundingMode.UNNECESSARY);
    };
  }

  @Test
  void currencyFixtureKnowsItsDecimals() {
    assertThat(currency("USDC").decimals()).isEqualTo(6);
  }
}
