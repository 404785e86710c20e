package dev.asa.crypto;

import java.security.SecureRandom;
import java.util.Objects;
import org.bouncycastle.math.ec.rfc8032.Ed25519;

/**
 * An Ed25519 private key, held as its 32-byte RFC 8032 seed.
 *
 * <p>Not a record on purpose: a record would print the seed in {@link #toString} and compare seeds
 * in {@code equals}. The seed leaves this object only through {@link KeyFile}.
 */
public final class Ed25519PrivateKey {

  /** Length of an Ed25519 seed in bytes. */
  public static final int SEED_LENGTH = 32;

  private final byte[] seed;
  private final byte[] publicKeyBytes;
  private final Ed25519PublicKey publicKey;

  private Ed25519PrivateKey(byte[] seed) {
    this.seed = seed;
    this.publicKeyBytes = new byte[Ed25519PublicKey.LENGTH];
    Ed25519.generatePublicKey(seed, 0, publicKeyBytes, 0);
    this.publicKey = new Ed25519PublicKey(publicKeyBytes);
  }

  /** A fresh key from {@code random}; pass a {@link SecureRandom} you trust, never a seeded one. */
  public static Ed25519PrivateKey generate(SecureRandom random) {
    Objects.requireNonNull(random, "random");
    byte[] seed = new byte[SEED_LENGTH];
    random.nextBytes(seed);
    return new Ed25519PrivateKey(seed);
  }

  /**
   * The key with this RFC 8032 seed (the "secret key" of the RFC's test vectors).
   *
   * @throws IllegalArgumentException if {@code seed} is not 32 bytes
   */
  public static Ed25519PrivateKey fromSeed(byte[] seed) {
    if (seed == null || seed.length != SEED_LENGTH) {
      throw new IllegalArgumentException(
          "an Ed25519 seed is "
              + SEED_LENGTH
              + " bytes, got "
              + (seed == null ? "null" : seed.length));
    }
    return new Ed25519PrivateKey(seed.clone());
  }

  /** The matching public key, derived once when this key was made. */
  public Ed25519PublicKey publicKey() {
    return publicKey;
  }

  /** The deterministic Ed25519 signature of {@code message}. */
  public Ed25519Signature sign(byte[] message) {
    Objects.requireNonNull(message, "message");
    byte[] signature = new byte[Ed25519Signature.LENGTH];
    // Passing the public key spares BouncyCastle from deriving it again on every signature.
    Ed25519.sign(seed, 0, publicKeyBytes, 0, message, 0, message.length, signature, 0);
    return new Ed25519Signature(signature);
  }

  /** The seed (a copy), for {@link KeyFile} only. */
  byte[] seed() {
    return seed.clone();
  }

  /** Names the public key only; the seed never appears in logs. */
  @Override
  public String toString() {
    return "Ed25519PrivateKey[public=" + publicKey.toBase64Url() + "]";
  }
}
