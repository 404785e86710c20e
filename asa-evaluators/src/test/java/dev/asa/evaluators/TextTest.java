package dev.asa.evaluators;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TextTest {

  @Test
  void countWritesWhatTheFormatterWrote() {
    long seed = System.nanoTime();
    System.out.println("TextTest seed: " + seed);
    Random random = new Random(seed);
    long[] edges = {
      0,
      1,
      -1,
      9,
      10,
      99,
      100,
      999,
      1_000,
      -1_000,
      9_999,
      12_345,
      123_456,
      1_234_567,
      Long.MAX_VALUE,
      Long.MIN_VALUE,
      Integer.MAX_VALUE,
      Integer.MIN_VALUE
    };
    for (long n : edges) {
      assertThat(Text.count(n)).as("n = %d", n).isEqualTo(String.format(Locale.ROOT, "%,d", n));
    }
    for (int i = 0; i < 10_000; i++) {
      long n = random.nextLong() >> random.nextInt(64);
      assertThat(Text.count(n))
          .as("n = %d (seed %d)", n, seed)
          .isEqualTo(String.format(Locale.ROOT, "%,d", n));
    }
  }
}
