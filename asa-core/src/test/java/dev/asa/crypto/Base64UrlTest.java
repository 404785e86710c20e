package dev.asa.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class Base64UrlTest {

  @Test
  void rfc4648Vectors() {
    String[][] vectors = {
      {"", ""},
      {"f", "Zg"},
      {"fo", "Zm8"},
      {"foo", "Zm9v"},
      {"foob", "Zm9vYg"},
      {"fooba", "Zm9vYmE"},
      {"foobar", "Zm9vYmFy"},
    };
    for (String[] v : vectors) {
      byte[] bytes = v[0].getBytes(StandardCharsets.US_ASCII);
      assertThat(Base64Url.encode(bytes)).isEqualTo(v[1]);
      assertThat(Base64Url.decode("test", v[1])).isEqualTo(bytes);
    }
  }

  @Test
  void usesTheUrlAlphabet() {
    byte[] bytes = {(byte) 0xfb, (byte) 0xff, (byte) 0xbf};
    assertThat(Base64Url.encode(bytes)).isEqualTo("-_-_");
    assertThat(Base64Url.decode("test", "-_-_")).isEqualTo(bytes);
  }

  @Test
  void roundTripsRandomBytes() {
    Random random = new Random(42);
    for (int length = 0; length < 70; length++) {
      byte[] bytes = new byte[length];
      random.nextBytes(bytes);
      assertThat(Base64Url.decode("test", Base64Url.encode(bytes))).isEqualTo(bytes);
    }
  }

  @Test
  void refusesPadding() {
    assertThatThrownBy(() -> Base64Url.decode("signature", "Zg=="))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("signature ")
        .hasMessageContaining("without padding");
  }

  @Test
  void refusesCharactersOutsideTheUrlAlphabet() {
    for (String bad : new String[] {"Zm+v", "Zm/v", "Zm9 v", "Zm9\nv", "Zm9é"}) {
      assertThatThrownBy(() -> Base64Url.decode("x", bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("x is not base64url: character");
    }
  }

  @Test
  void refusesImpossibleLength() {
    assertThatThrownBy(() -> Base64Url.decode("d", "Zm9vY"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("d is not base64url")
        .hasMessageContaining("length of 5");
  }

  @Test
  void refusesNonCanonicalTrailingBits() {
    // "Zg" is "f"; "Zh" carries the same byte plus non-zero unused bits.
    assertThatThrownBy(() -> Base64Url.decode("public key", "Zh"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "public key is not canonical base64url: its last character has non-zero unused bits");
    assertThatThrownBy(() -> Base64Url.decode("k", "Zm9"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not canonical");
  }

  @Test
  void refusesNull() {
    assertThatThrownBy(() -> Base64Url.decode("x", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("x is missing");
  }
}
