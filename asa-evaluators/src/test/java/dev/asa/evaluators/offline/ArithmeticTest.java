package dev.asa.evaluators.offline;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ArithmeticTest {

  private static Arithmetic read(String answer) {
    return Arithmetic.of(answer, "Work it out.");
  }

  @Test
  void aWrongSumIsFoundAndARightOneIsNot() {
    assertThat(read("The sentence is 7 - 3 = 10.").wrong()).containsExactly("7 - 3 = 10");
    assertThat(read("The sentence is 7 - 3 = 4.").wrong()).isEmpty();
    assertThat(read("The sentence is 7 - 3 = 4.").checked()).isEqualTo(1);
  }

  @Test
  void aChainIsReadWholeWithPrecedenceAndBrackets() {
    assertThat(read("S = 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 = 55").wrong()).isEmpty();
    assertThat(read("So 5 x 5 x 5 = 625.").wrong()).containsExactly("5 x 5 x 5 = 625");
    assertThat(read("We get 2 * (3 + 4) = 14 and 2 * 3 + 4 = 6 + 4 = 10.").wrong()).isEmpty();
    assertThat(read("Then 1+1+1+1=3+1+1 follows.").wrong()).containsExactly("1+1+1+1=3+1+1");
    assertThat(read("Area = (1/2) * 8 = 4, and 2^3 = 8.").wrong()).isEmpty();
    assertThat(read("It costs 2 x $45 = $90, so $100 + $90 + $80 = $280.").wrong())
        .containsExactly("$100 + $90 + $80 = $280");
    assertThat(read("In markdown: 5 \\* 8 - 2 + 3 = 41.").wrong()).isEmpty();
    assertThat(read("In LaTeX: $3 \\times 4 = 12$ and $-2 - -3 = 1$.").wrong()).isEmpty();
  }

  @Test
  void roundedValuesAndPercentagesHold() {
    assertThat(read("10/3 = 3.33, 7/2 = 3, 2/3 = 0.67, 1/4 = 25% and 1,000 * 3 = 3,000.").wrong())
        .isEmpty();
    assertThat(read("Yet 22/7 = 3.14159 and 3 + 4 = 8.").wrong())
        .containsExactly("22/7 = 3.14159", "3 + 4 = 8");
  }

  @Test
  void whatIsNotASumOfPlainNumbersIsLeftAlone() {
    Arithmetic algebra =
        read(
            "3x + 10 = 5(x - 2)\n\n3x + 10 = 5x - 10\n\n10 + 10 = 5x - 3x\n\n20 = 2x\n\n"
                + "f(2) = 5(2)^3 - 2(2) + 3. It takes 3 hours * 60 = 170 minutes, 50 * 20% = 11, "
                + "and 1. 2 = 3.");
    assertThat(algebra.checked()).isZero();
    assertThat(read("0(1 - 3) + (-1)(3 - 0) + 3(0 - 1) = 9").checked()).isZero();
    assertThat(read("A ratio 16:9 = 1.78 and the year 2020-2021 ran on.").checked()).isZero();
  }

  /**
   * A provider writes the deliverable: a sum a hundred thousand terms long with an "=" that breaks
   * it is read piece by piece (the first, unbounded pattern overflowed the stack at five thousand).
   */
  @Test
  void aHostileRunOfTermsIsReadInOnePass() {
    String run = "1+".repeat(100_000) + "1 x= 5. Then 2 + 2 = 5.";
    assertThat(read(run).wrong()).containsExactly("2 + 2 = 5");
    assertThat(read("9".repeat(200_000) + " + 1 = 3").checked()).isZero();
  }

  @Test
  void aWrongSumQuotedFromTheRequestOrDeniedIsNoMistake() {
    assertThat(Arithmetic.of("Because 2 + 2 = 5 is a slogan.", "Why is 2+2=5 wrong?").wrong())
        .isEmpty();
    assertThat(read("Some say 7 - 3 = 10, which is not true.").wrong()).isEmpty();
  }
}
