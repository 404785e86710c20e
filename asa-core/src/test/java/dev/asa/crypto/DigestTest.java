package dev.asa.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.asa.json.Json;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class DigestTest {

  private static final String ABC =
      "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

  @Test
  void sha256OfKnownInput() {
    Digest digest = Digest.sha256("abc".getBytes(StandardCharsets.US_ASCII));

    assertThat(digest.toString()).isEqualTo(ABC);
    assertThat(digest.hex()).isEqualTo(ABC.substring("sha256:".length()));
    assertThat(digest.bytes()).hasSize(32);
  }

  @Test
  void digestsCopiedFromOneInstanceDoNotShareState() throws Exception {
    // Eight threads hash at once, each its own input, with copies of the one looked-up digest.
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(8);
    try {
      java.util.List<java.util.concurrent.Future<Boolean>> results = new java.util.ArrayList<>();
      for (int t = 0; t < 8; t++) {
        byte[] input = ("input " + t).repeat(1_000).getBytes(StandardCharsets.US_ASCII);
        java.security.MessageDigest reference = java.security.MessageDigest.getInstance("SHA-256");
        byte[] expected = reference.digest(input);
        results.add(
            pool.submit(() -> {
              for (int i = 0; i < 2_000; i++) {
                if (!java.util.Arrays.equals(Digest.sha256(input).bytes(), expected)) {
                  return false;
                }
              }
              return true;
            }));
      }
      for (var r : results) {
        assertThat(r.get()).isTrue();
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(Digest.newSha256()).isNotSameAs(Digest.newSha256());
  }

  @Test
  void parseAndToStringRoundTrip() {
    Digest parsed = Digest.parse(ABC);

    assertThat(parsed.toString()).isEqualTo(ABC);
    assertThat(parsed).isEqualTo(Digest.sha256("abc".getBytes(StandardCharsets.US_ASCII)));
    assertThat(parsed.hashCode())
        .isEqualTo(Digest.sha256("abc".getBytes(StandardCharsets.US_ASCII)).hashCode());
    assertThat(parsed).isNotEqualTo(Digest.sha256(new byte[0]));
  }

  @Test
  void zeroIsTheGenesisDigest() {
    assertThat(Digest.ZERO).isEqualTo("sha256:" + "0".repeat(64));
    assertThat(Digest.parse(Digest.ZERO).bytes()).isEqualTo(new byte[32]);
  }

  @Test
  void ofCanonicalJsonHashesTheJcsForm() throws Exception {
    Digest a = Digest.ofCanonicalJson(Json.parse("{\"b\": 1.0, \"a\": [true]}"));
    Digest b = Digest.ofCanonicalJson(Json.parse("{\"a\":[true],\"b\":1}"));

    assertThat(a).isEqualTo(b);
    assertThat(a)
        .isEqualTo(Digest.sha256("{\"a\":[true],\"b\":1}".getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void parseRefusesEverythingElse() {
    String hex = ABC.substring("sha256:".length());
    assertRefused("SHA256:" + hex, "must start with 'sha256:'");
    assertRefused("sha512:" + hex, "must start with 'sha256:'");
    assertRefused(hex, "must start with 'sha256:'");
    assertRefused("sha256:" + hex.toUpperCase(), "lowercase hex");
    assertRefused("sha256:" + hex.substring(1), "64 hex digits");
    assertRefused("sha256:" + hex + "0", "64 hex digits");
    assertRefused(" " + ABC, "must start with 'sha256:'");
    assertRefused(ABC.substring(0, 70) + "g", "found 'g' at hex digit 63");
    assertRefused(null, "digest is missing");
  }

  @Test
  void isImmutable() {
    byte[] bytes = new byte[32];
    Digest digest = new Digest(bytes);
    bytes[0] = 1;
    digest.bytes()[1] = 1;

    assertThat(digest.toString()).isEqualTo(Digest.ZERO);
  }

  @Test
  void refusesWrongLength() {
    assertThatThrownBy(() -> new Digest(new byte[31]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a SHA-256 digest is 32 bytes, got 31");
  }

  private static void assertRefused(String text, String messagePart) {
    assertThatThrownBy(() -> Digest.parse(text))
        .as(text)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(messagePart);
  }
}
