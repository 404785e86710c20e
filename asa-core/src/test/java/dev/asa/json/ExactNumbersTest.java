package dev.asa.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ExactNumbersTest {

  @ParameterizedTest(name = "{0} is hashed as written")
  @ValueSource(
      strings = {
        "0",
        "-0",
        "0.0",
        "0.1",
        "1e2",
        "1E+2",
        "75",
        "75.5",
        "75.50",
        "-3.25",
        "100",
        "9007199254740992",
        "-9007199254740992",
        "1e21",
        "1e+23",
        "5e-324",
        "1.7976931348623157e308",
        "0.000001",
        "333333333.3333332",
        "1424953923781206.2"
      })
  void numbersJcsPrintsAsWrittenPass(String text) throws Exception {
    assertThat(ExactNumbers.inexact(Json.parse("{\"n\": " + text + "}"))).isEmpty();
  }

  @ParameterizedTest(name = "{0} is refused")
  @ValueSource(
      strings = {
        "75.000000000000001",
        "9007199254740993",
        "-9007199254740993",
        "1e309",
        "-1e309",
        "1e-400",
        "0.10000000000000000555",
        "12345678901234567890",
        "1.00000000000000000001"
      })
  void numbersThatJcsWouldChangeAreRefused(String text) throws Exception {
    assertThat(ExactNumbers.inexact(Json.parse("{\"n\": " + text + "}"))).containsExactly("/n");
  }

  @Test
  void pointsAtEveryOffendingNumberInDocumentOrder() throws Exception {
    String doc =
        """
        {"a": [1, 75.000000000000001, 2.5],
         "b/c": {"x~y": 9007199254740993, "ok": 0.1},
         "tiers": [{"composite_score_gte": 75.000000000000001, "release_percent": 100}]}
        """;
    assertThat(ExactNumbers.inexact(Json.parse(doc)))
        .containsExactly("/a/1", "/b~1c/x~0y", "/tiers/0/composite_score_gte");
  }

  @Test
  void stringsAreNotNumbers() throws Exception {
    assertThat(ExactNumbers.inexact(Json.parse("{\"amount\": \"75.000000000000001\"}"))).isEmpty();
  }

  /** Whatever double JCS prints, in whatever spelling of the same value, is accepted. */
  @Test
  void everyDoubleAsJcsPrintsItPasses() {
    long seed = System.nanoTime();
    System.out.println("ExactNumbersTest.everyDoubleAsJcsPrintsItPasses seed = " + seed);
    Random random = new Random(seed);
    for (int i = 0; i < 20_000; i++) {
      double d = randomFiniteDouble(random);
      String printed = Jcs.numberToString(d);
      BigDecimal written = new BigDecimal(printed);
      assertThat(ExactNumbers.isExact(written)).as("seed %d: %s", seed, printed).isTrue();
      // Same value, other spellings: trailing zeros, scientific notation.
      assertThat(ExactNumbers.isExact(written.setScale(written.scale() + 1 + random.nextInt(5))))
          .as("seed %d: %s with trailing zeros", seed, printed)
          .isTrue();
      assertThat(ExactNumbers.isExact(new BigDecimal(written.toEngineeringString())))
          .as("seed %d: %s", seed, written.toEngineeringString())
          .isTrue();
    }
  }

  /**
   * A double's printed form with digits added past the 17th (a value that is no longer that
   * decimal, though it may round to the same double) is refused: what would be hashed is not what
   * was written.
   */
  @Test
  void aPerturbedLongFormOfADoubleIsRefused() throws Exception {
    long seed = System.nanoTime();
    System.out.println("ExactNumbersTest.aPerturbedLongFormOfADoubleIsRefused seed = " + seed);
    Random random = new Random(seed);
    for (int i = 0; i < 20_000; i++) {
      double d = randomFiniteDouble(random);
      if (d == 0) {
        continue;
      }
      BigDecimal printed = new BigDecimal(Jcs.numberToString(d));
      // A few units in the 19th to 26th significant place, either way (18 digits at least after a
      // borrow).
      int place = 18 + random.nextInt(8);
      int leading =
          printed.precision() - printed.scale(); // exponent of the leading digit, plus one
      BigDecimal nudge =
          BigDecimal.ONE
              .scaleByPowerOfTen(leading - 1 - place)
              .multiply(BigDecimal.valueOf(1 + random.nextInt(9)));
      BigDecimal perturbed = random.nextBoolean() ? printed.add(nudge) : printed.subtract(nudge);
      assertThat(perturbed.round(new MathContext(17)).compareTo(perturbed))
          .as("has more than 17 digits")
          .isNotZero();
      assertThat(ExactNumbers.isExact(perturbed))
          .as("seed %d: %s (from %s)", seed, perturbed, printed)
          .isFalse();
      if (perturbed.precision() <= Json.MAX_NUMBER_DIGITS
          && Math.abs(leading) < Json.MAX_NUMBER_EXPONENT) {
        String text = "[" + perturbed + "]";
        assertThat(ExactNumbers.inexact(Json.parse(text)))
            .as("seed %d: %s", seed, text)
            .containsExactly("/0");
      }
    }
  }

  @Test
  void theExactBinaryValueOfADoubleIsNotItsJcsForm() {
    // 0.1 is hashed as "0.1"; the double's exact expansion is a different number, so it is refused.
    assertThat(ExactNumbers.isExact(new BigDecimal(0.1))).isFalse();
    assertThat(ExactNumbers.isExact(new BigDecimal("0.1"))).isTrue();
  }

  private static double randomFiniteDouble(Random random) {
    while (true) {
      double d =
          switch (random.nextInt(4)) {
            case 0 -> Double.longBitsToDouble(random.nextLong());
            case 1 -> random.nextGaussian() * Math.pow(10, random.nextInt(50) - 25);
            case 2 -> random.nextInt(20_000) / 100.0;
            default -> (double) (random.nextLong() >> random.nextInt(64));
          };
      if (Double.isFinite(d)) {
        return d;
      }
    }
  }
}
