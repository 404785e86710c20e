package dev.asa.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Random;
import org.bouncycastle.math.ec.rfc8032.Ed25519;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * libsodium against BouncyCastle, the verifier it replaces: the same answer on every honest and
 * every tampered signature, and never a "yes" where BouncyCastle says no; where they differ (keys
 * and Rs of small order, for which anyone can make signatures) libsodium refuses.
 */
class LibsodiumTest {
  private static final HexFormat HEX = HexFormat.of();

  /** The order of the base point, L = 2^252 + 27742317777372353535851937790883648493. */
  private static final BigInteger L =
      BigInteger.TWO.pow(252).add(new BigInteger("27742317777372353535851937790883648493"));

  /** The encoding of the neutral element (0, 1): a point of order 1. */
  private static final byte[] IDENTITY = HEX.parseHex("01" + "00".repeat(31));

  @BeforeAll
  static void libsodiumIsUsedWhereItCanBe() {
    // The build machines have Debian's libsodium23 (.ci/run installs it) and a JDK >= 22: there it
    // must load, or this test would compare BouncyCastle with itself.
    if (Runtime.version().feature() >= 22) {
      assertThat(Libsodium.available()).as(Libsodium.description()).isTrue();
      assertThat(Ed25519PublicKey.verifier()).isEqualTo("libsodium (native)");
    }
    assumeTrue(Libsodium.available(), "Java 21: no final foreign function API");
  }

  @Test
  void agreesWithBouncyCastleOnHonestAndTamperedSignatures() {
    long seed = System.nanoTime();
    System.out.println("LibsodiumTest seed: " + seed);
    Random random = new Random(seed);
    for (int i = 0; i < 500; i++) {
      byte[] secret = new byte[32];
      random.nextBytes(secret);
      byte[] message = new byte[random.nextInt(300)];
      random.nextBytes(message);
      Ed25519PrivateKey key = Ed25519PrivateKey.fromSeed(secret);
      byte[] publicKey = key.publicKey().bytes();
      byte[] signature = key.sign(message).bytes();

      assertSame(signature, message, publicKey, "honest, seed " + seed + " #" + i);
      assertThat(Libsodium.verify(signature, message, publicKey)).isTrue();

      byte[] badSignature = signature.clone();
      badSignature[random.nextInt(64)] ^= (byte) (1 << random.nextInt(8));
      assertSame(badSignature, message, publicKey, "signature bit, seed " + seed + " #" + i);

      if (message.length > 0) {
        byte[] badMessage = message.clone();
        badMessage[random.nextInt(message.length)] ^= (byte) (1 << random.nextInt(8));
        assertSame(signature, badMessage, publicKey, "message bit, seed " + seed + " #" + i);
      }
      byte[] otherKey = publicKey.clone();
      otherKey[random.nextInt(32)] ^= (byte) (1 << random.nextInt(8));
      assertSame(signature, message, otherKey, "key bit, seed " + seed + " #" + i);
    }
  }

  @Test
  void bothRefuseASignatureWhoseSIsNotReduced() {
    Ed25519PrivateKey key = Ed25519PrivateKey.fromSeed(new byte[32]);
    byte[] message = "malleable?".getBytes(StandardCharsets.UTF_8);
    byte[] signature = key.sign(message).bytes();
    BigInteger s = littleEndian(signature, 32, 32).add(L); // the same point equation, S + L
    byte[] malleated = signature.clone();
    System.arraycopy(toLittleEndian(s), 0, malleated, 32, 32);

    assertThat(bouncyCastle(malleated, message, key.publicKey().bytes())).isFalse();
    assertThat(Libsodium.verify(malleated, message, key.publicKey().bytes())).isFalse();
  }

  @Test
  void bothRefuseTheNeutralElementAsAKeyThatSignsAnything() throws Exception {
    // With A the neutral element, [S]B = R + [k]A is [S]B = R: (R = [s]B, S = s) "verifies" for
    // every message, a signature nobody had to hold a key to make.
    // [s]B for a scalar s: the public key of a seed whose secret scalar is s.
    byte[] seed = new byte[32];
    seed[0] = 3;
    byte[] r = Ed25519PrivateKey.fromSeed(seed).publicKey().bytes();
    byte[] signature = new byte[64];
    System.arraycopy(r, 0, signature, 0, 32);
    System.arraycopy(toLittleEndian(secretScalar(seed).mod(L)), 0, signature, 32, 32);
    byte[] message = "pay everything".getBytes(StandardCharsets.UTF_8);

    assertThat(Libsodium.verify(signature, message, IDENTITY)).isFalse();
    assertThat(bouncyCastle(signature, message, IDENTITY)).isFalse();
    assertThat(new Ed25519PublicKey(IDENTITY).verify(message, new Ed25519Signature(signature)))
        .isFalse();
  }

  @Test
  void onlyLibsodiumRefusesAnROfSmallOrder() throws Exception {
    // R the neutral element and S = k * a: [S]B = [k]A holds for the key's owner, who alone can
    // make it; a strict verifier refuses it all the same.
    byte[] seed = new byte[32];
    seed[0] = 7;
    Ed25519PrivateKey key = Ed25519PrivateKey.fromSeed(seed);
    byte[] publicKey = key.publicKey().bytes();
    byte[] message = "odd but owned".getBytes(StandardCharsets.UTF_8);
    BigInteger a = secretScalar(seed);
    MessageDigest sha = MessageDigest.getInstance("SHA-512");
    sha.update(IDENTITY);
    sha.update(publicKey);
    BigInteger k = littleEndian(sha.digest(message), 0, 64).mod(L);
    byte[] signature = new byte[64];
    System.arraycopy(IDENTITY, 0, signature, 0, 32);
    System.arraycopy(toLittleEndian(k.multiply(a).mod(L)), 0, signature, 32, 32);

    assertThat(bouncyCastle(signature, message, publicKey)).as("the one difference").isTrue();
    assertThat(Libsodium.verify(signature, message, publicKey)).isFalse();
    assertThat(key.publicKey().verify(message, new Ed25519Signature(signature))).isFalse();
  }

  private static void assertSame(byte[] signature, byte[] message, byte[] key, String what) {
    assertThat(Libsodium.verify(signature, message, key))
        .as(what)
        .isEqualTo(bouncyCastle(signature, message, key));
  }

  /** BouncyCastle as the product called it before libsodium (the key decoded the same way). */
  private static boolean bouncyCastle(byte[] signature, byte[] message, byte[] key) {
    Ed25519.PublicPoint point = Ed25519.validatePublicKeyPartialExport(key, 0);
    return point != null && Ed25519.verify(signature, 0, point, message, 0, message.length);
  }

  /** RFC 8032, 5.1.5: the clamped first half of SHA-512(seed), the key's secret scalar. */
  private static BigInteger secretScalar(byte[] seed) throws Exception {
    byte[] h = MessageDigest.getInstance("SHA-512").digest(seed);
    h[0] &= (byte) 248;
    h[31] &= 127;
    h[31] |= 64;
    return littleEndian(h, 0, 32);
  }

  private static BigInteger littleEndian(byte[] bytes, int offset, int length) {
    byte[] big = new byte[length];
    for (int i = 0; i < length; i++) {
      big[i] = bytes[offset + length - 1 - i];
    }
    return new BigInteger(1, big);
  }

  private static byte[] toLittleEndian(BigInteger n) {
    byte[] big = n.toByteArray();
    byte[] out = new byte[32];
    for (int i = 0; i < 32 && i < big.length; i++) {
      out[i] = big[big.length - 1 - i];
    }
    return out;
  }
}
