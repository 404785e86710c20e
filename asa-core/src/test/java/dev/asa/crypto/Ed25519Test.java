package dev.asa.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class Ed25519Test {

  private static final HexFormat HEX = HexFormat.of();

  /** A test vector of RFC 8032 section 7.1, all fields in hex. */
  record Vector(String name, String secretKey, String publicKey, String message, String signature) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Vector> rfc8032Vectors() {
    return Stream.of(
        new Vector(
            "TEST 1",
            "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
            "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
            "",
            "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"),
        new Vector(
            "TEST 2",
            "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
            "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
            "72",
            "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"),
        new Vector(
            "TEST 3",
            "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
            "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
            "af82",
            "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"),
        new Vector(
            "TEST SHA(abc)",
            "833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42",
            "ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf",
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
                + "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
            "dc2a4459e7369633a52b1bf277839a00201009a3efbf3ecb69bea2186c26b589"
                + "09351fc9ac90b3ecfdfbc7c66431e0303dca179c138ac17ad9bef1177331a704"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rfc8032Vectors")
  void rfc8032Vector(Vector v) {
    Ed25519PrivateKey key = Ed25519PrivateKey.fromSeed(HEX.parseHex(v.secretKey()));
    byte[] message = HEX.parseHex(v.message());
    Ed25519PublicKey publicKey = new Ed25519PublicKey(HEX.parseHex(v.publicKey()));
    Ed25519Signature signature = new Ed25519Signature(HEX.parseHex(v.signature()));

    assertThat(key.publicKey()).isEqualTo(publicKey);
    assertThat(key.sign(message)).isEqualTo(signature);
    assertThat(publicKey.verify(message, signature)).isTrue();
  }

  @Test
  void theShaAbcVectorSignsSha512OfAbc() throws Exception {
    byte[] sha512 =
        MessageDigest.getInstance("SHA-512").digest("abc".getBytes(StandardCharsets.US_ASCII));
    assertThat(HEX.formatHex(sha512)).isEqualTo(rfc8032Vectors().toList().get(3).message());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rfc8032Vectors")
  void verifyRefusesAnyFlippedBit(Vector v) {
    byte[] message = HEX.parseHex(v.message());
    byte[] signature = HEX.parseHex(v.signature());
    byte[] publicKey = HEX.parseHex(v.publicKey());

    for (int bit = 0; bit < message.length * 8; bit++) {
      byte[] tampered = flip(message, bit);
      assertThat(new Ed25519PublicKey(publicKey).verify(tampered, new Ed25519Signature(signature)))
          .as("message bit %d", bit)
          .isFalse();
    }
    for (int bit = 0; bit < signature.length * 8; bit++) {
      Ed25519Signature tampered = new Ed25519Signature(flip(signature, bit));
      assertThat(new Ed25519PublicKey(publicKey).verify(message, tampered))
          .as("signature bit %d", bit)
          .isFalse();
    }
    for (int bit = 0; bit < publicKey.length * 8; bit++) {
      Ed25519PublicKey tampered = new Ed25519PublicKey(flip(publicKey, bit));
      assertThat(tampered.verify(message, new Ed25519Signature(signature)))
          .as("public key bit %d", bit)
          .isFalse();
    }
  }

  /**
   * Keys are decoded once and kept (DecodedPoints): verifying with a kept key gives what a fresh
   * decoding gives, for valid and invalid keys alike, also across the bound where the keys kept are
   * forgotten.
   */
  @Test
  void aKeptDecodingVerifiesAsAFreshOne() {
    java.util.Random random = new java.util.Random(19);
    byte[] message = "the same request".getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < DecodedPoints.MAX_KEYS + 100; i++) {
      byte[] seed = new byte[32];
      random.nextBytes(seed);
      Ed25519PrivateKey key = Ed25519PrivateKey.fromSeed(seed);
      Ed25519Signature signature = key.sign(message);
      assertThat(key.publicKey().verify(message, signature)).isTrue();
      assertThat(key.publicKey().verify(message, signature)).as("kept").isTrue();
      assertThat(key.publicKey().verify(flip(message, i % 64), signature)).isFalse();
      byte[] garbage = new byte[32];
      random.nextBytes(garbage);
      boolean fresh =
          org.bouncycastle.math.ec.rfc8032.Ed25519.verify(
              signature.bytes(), 0, garbage, 0, message, 0, message.length);
      assertThat(new Ed25519PublicKey(garbage).verify(message, signature)).isEqualTo(fresh);
    }
  }

  @Test
  void generatedKeysSignAndVerify() {
    Ed25519PrivateKey key = Ed25519PrivateKey.generate(new SecureRandom());
    byte[] message = "agreement".getBytes(StandardCharsets.UTF_8);

    Ed25519Signature signature = key.sign(message);

    assertThat(key.publicKey().verify(message, signature)).isTrue();
    Ed25519PublicKey other = Ed25519PrivateKey.generate(new SecureRandom()).publicKey();
    assertThat(other.verify(message, signature)).isFalse();
  }

  @Test
  void privateKeyToStringHidesTheSeed() {
    byte[] seed = HEX.parseHex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60");
    Ed25519PrivateKey key = Ed25519PrivateKey.fromSeed(seed);

    assertThat(key.toString())
        .doesNotContain(Base64Url.encode(seed))
        .doesNotContain(HEX.formatHex(seed))
        .contains(key.publicKey().toBase64Url());
  }

  @Test
  void keysAndSignaturesAreDefensivelyCopied() {
    byte[] bytes = new byte[32];
    Ed25519PublicKey key = new Ed25519PublicKey(bytes);
    bytes[0] = 1;
    key.bytes()[1] = 1;
    assertThat(key.bytes()).isEqualTo(new byte[32]);

    byte[] seed = new byte[32];
    Ed25519PrivateKey privateKey = Ed25519PrivateKey.fromSeed(seed);
    Ed25519PublicKey before = privateKey.publicKey();
    seed[0] = 1;
    assertThat(privateKey.sign(new byte[0]))
        .isEqualTo(Ed25519PrivateKey.fromSeed(new byte[32]).sign(new byte[0]));
    assertThat(privateKey.publicKey()).isEqualTo(before);
  }

  @Test
  void base64UrlRoundTrip() {
    Ed25519PrivateKey key = Ed25519PrivateKey.generate(new SecureRandom());
    Ed25519Signature signature = key.sign(new byte[] {1, 2, 3});

    assertThat(key.publicKey().toBase64Url()).hasSize(43);
    assertThat(signature.toBase64Url()).hasSize(86);
    assertThat(Ed25519PublicKey.fromBase64Url(key.publicKey().toBase64Url()))
        .isEqualTo(key.publicKey());
    assertThat(Ed25519Signature.fromBase64Url(signature.toBase64Url())).isEqualTo(signature);
  }

  @Test
  void wrongLengthsAreRefused() {
    assertThatThrownBy(() -> new Ed25519PublicKey(new byte[31]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("an Ed25519 public key is 32 bytes, got 31");
    assertThatThrownBy(() -> new Ed25519Signature(new byte[65]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("an Ed25519 signature is 64 bytes, got 65");
    assertThatThrownBy(() -> Ed25519PrivateKey.fromSeed(new byte[64]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("an Ed25519 seed is 32 bytes, got 64");
    assertThatThrownBy(() -> Ed25519PublicKey.fromBase64Url(Base64Url.encode(new byte[33])))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("32 bytes, got 33");
    assertThatThrownBy(() -> Ed25519Signature.fromBase64Url("AAAA="))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Ed25519 signature must be base64url without padding");
  }

  private static byte[] flip(byte[] bytes, int bit) {
    byte[] copy = bytes.clone();
    copy[bit / 8] ^= (byte) (1 << (bit % 8));
    return copy;
  }
}
