package dev.asa.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class Utf8Test {

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource({
    "overlong '/', c0af",
    "overlong NUL, c080",
    "overlong 3-byte '/', e080af",
    "overlong 4-byte, f08082af",
    "high surrogate U+D800, eda080",
    "low surrogate U+DC00, edb080",
    "surrogate pair encoded separately, eda0bdedb2a9",
    "above U+10FFFF, f4908080",
    "stray continuation byte, 80",
    "truncated 2-byte, c3",
    "truncated 3-byte, e282",
    "invalid byte FE, fe",
    "invalid byte FF, ff",
  })
  void malformedSequencesAreRefusedWithTheirOffset(String what, String hex) {
    byte[] bad = HexFormat.of().parseHex(hex);
    byte[] body =
        concat(
            "{\"a\":\"x".getBytes(StandardCharsets.US_ASCII),
            bad,
            "\"}".getBytes(StandardCharsets.US_ASCII));
    assertThatThrownBy(() -> Utf8.decode(body))
        .isInstanceOf(Utf8.MalformedException.class)
        .satisfies(e -> assertThat(((Utf8.MalformedException) e).offset()).isEqualTo(7));
  }

  @Test
  void wellFormedTextRoundTrips() {
    long seed = System.nanoTime();
    System.out.println("Utf8Test.wellFormedTextRoundTrips seed = " + seed);
    Random random = new Random(seed);
    for (int i = 0; i < 2_000; i++) {
      StringBuilder s = new StringBuilder();
      for (int n = random.nextInt(20); n > 0; n--) {
        int cp;
        do {
          cp = random.nextInt(Character.MAX_CODE_POINT + 1);
        } while (cp >= Character.MIN_SURROGATE && cp <= Character.MAX_SURROGATE);
        s.appendCodePoint(cp);
      }
      String text = s.toString();
      assertThat(Utf8.decode(text.getBytes(StandardCharsets.UTF_8)))
          .as("seed %d", seed)
          .isEqualTo(text);
    }
    assertThat(Utf8.decode(new byte[0])).isEmpty();
  }

  private static byte[] concat(byte[]... parts) {
    int n = 0;
    for (byte[] p : parts) {
      n += p.length;
    }
    byte[] out = new byte[n];
    int at = 0;
    for (byte[] p : parts) {
      System.arraycopy(p, 0, out, at, p.length);
      at += p.length;
    }
    return out;
  }
}
