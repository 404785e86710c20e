package dev.asa.evaluators.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Counting runs read as their ends, and only those. */
class CountingRunsTest {

  @Test
  void aLongRunIsReadAsItsEnds() {
    CountingRuns.Read r =
        CountingRuns.of(
            "Spike Lee directed movies released in the year 2020, 2021, 2022, 2023, 2024, 2025,"
                + " 2026, 2027, 2028, 2029, 2030, 2031, 2032, 2033, 2034.");
    assertThat(r.text()).isEqualTo("Spike Lee directed movies released in the year 2020 to 2034.");
    assertThat(r.runs()).hasSize(1);
  }

  @Test
  void spacesStepsAndAnAndCountToo() {
    assertThat(CountingRuns.of("in 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52.").text())
        .isEqualTo("in 38 to 52.");
    assertThat(CountingRuns.of("Odd: 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23 and 25.").text())
        .isEqualTo("Odd: 1 to 25.");
  }

  @Test
  void shortRunsListsAndOtherNumbersStayAsWritten() {
    for (String kept :
        new String[] {
          "each row holds the numbers 1, 2, 3, 4, 5, 6, 7, 8, 9.",
          "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14",
          "Primes: 2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41.",
          "Pi is 3.14159 and e is 2.71828; 1,000,000 is a million.",
          "7 7 7 7 7 7 7 7 7 7 7 7 7 7"
        }) {
      assertThat(CountingRuns.of(kept).text()).as(kept).isEqualTo(kept);
      assertThat(CountingRuns.of(kept).runs()).isEmpty();
    }
  }

  @Test
  void onlyTheCountingStretchOfAListOfNumbersIsRead() {
    assertThat(
            CountingRuns.of("Scores 97, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 2 in all.").text())
        .isEqualTo("Scores 97, 3 to 14, 2 in all.");
  }

  /**
   * A hostile deliverable: runs one number short of the minimum, again and again, and numbers too
   * long to read. The pattern's separators and possessive quantifiers make refusing them linear; a
   * hang here would hold an evaluator.
   */
  @Test
  void runsJustShortOfTheMinimumAreRefusedQuickly() {
    StringBuilder almost = new StringBuilder();
    for (int r = 0; r < 2_000; r++) {
      for (int k = 0; k < CountingRuns.MIN_NUMBERS - 1; k++) {
        almost.append(2020 + k).append(k % 2 == 0 ? ", " : " ");
      }
      almost.append("x ").append("12345678901234567890 ".repeat(5));
    }
    String text = almost.toString();
    CountingRuns.Read read =
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
            Duration.ofSeconds(20), () -> CountingRuns.of(text));
    assertThat(read.runs()).isEmpty();
    assertThat(read.text()).isEqualTo(text);
  }
}
