package dev.asa.shadow;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GateTest {

  @ParameterizedTest(name = "{0}/{1} -> {2}")
  @CsvSource({
    "0, 10, PROCEED",
    "15, 100, PROCEED",
    "3, 20, PROCEED",
    "16, 100, PROCEED_WITH_WARNING",
    "4, 25, PROCEED_WITH_WARNING",
    // shown as 15.0, but the exact fraction is above 15
    "17, 113, PROCEED_WITH_WARNING",
    "30, 100, PROCEED_WITH_WARNING",
    "3, 10, PROCEED_WITH_WARNING",
    "31, 100, QUARANTINE",
    "50, 100, QUARANTINE",
    "4, 8, QUARANTINE",
    "51, 100, FAIL",
    "6, 10, FAIL",
    "10, 10, FAIL",
  })
  void decidesOnTheExactFraction(int failed, int total, Gate gate) {
    assertThat(Gate.of(new ShadowScore(total, failed), false)).isEqualTo(gate);
  }

  @Test
  void aBrokenSealBlocksWhateverTheScore() {
    assertThat(Gate.of(new ShadowScore(10, 0), true)).isEqualTo(Gate.BLOCKED);
    assertThat(Gate.of(new ShadowScore(10, 10), true)).isEqualTo(Gate.BLOCKED);
  }
}
