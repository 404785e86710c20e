package dev.asa.crypto;

import com.goterl.lazysodium.SodiumJava;
import com.goterl.lazysodium.utils.LibraryLoader;
import dev.asa.testing.Fixtures;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.EdECPrivateKeySpec;
import java.security.spec.NamedParameterSpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Ed25519 sign and verify of what parties sign (the UTF-8 of an {@code agreement_hash} string, 71
 * bytes), with the same key in three implementations:
 *
 * <ul>
 *   <li>{@code bouncyCastle*}: BouncyCastle's RFC 8032 code, as {@link Ed25519PrivateKey} and
 *       {@link Ed25519PublicKey} call it (what the product uses);
 *   <li>{@code jdk*}: the JDK's own provider through JCA, {@code Signature.getInstance("Ed25519")},
 *       one {@link Signature} object reused with a fresh init per operation;
 *   <li>{@code libsodium*}: libsodium through lazysodium-java's JNA binding, loading only the
 *       library inside its jar ({@code BUNDLED_ONLY}, never the system's); measured here, not used
 *       by the product.
 * </ul>
 *
 * The setup checks that all three make the same (deterministic) signature and verify it. Run with
 * {@code ./asa bench-core Ed25519Benchmark}.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class Ed25519Benchmark {

  /** The key and message every implementation uses, and BouncyCastle's signature of it. */
  @State(Scope.Benchmark)
  public static class Shared {
    final Ed25519PrivateKey key = Fixtures.key("alice");
    final byte[] seed = key.seed();
    final byte[] publicKey = key.publicKey().bytes();
    final byte[] message =
        Digest.sha256("a template-sized agreement".getBytes(StandardCharsets.UTF_8))
            .toString()
            .getBytes(StandardCharsets.UTF_8);
    final Ed25519Signature signature = key.sign(message);
    final byte[] signatureBytes = signature.bytes();
  }

  /** The same key as JCA keys of the JDK's provider ("SunEC"). */
  @State(Scope.Benchmark)
  public static class Jdk {
    /** The DER prefix of an X.509 SubjectPublicKeyInfo of an Ed25519 key (RFC 8410). */
    private static final byte[] X509_PREFIX = HexFormat.of().parseHex("302a300506032b6570032100");

    PrivateKey privateKey;
    PublicKey publicKey;
    Signature signer;
    Signature verifier;

    @Setup
    public void setUp(Shared shared) throws GeneralSecurityException {
      KeyFactory factory = KeyFactory.getInstance("Ed25519");
      privateKey =
          factory.generatePrivate(new EdECPrivateKeySpec(NamedParameterSpec.ED25519, shared.seed));
      byte[] encoded = Arrays.copyOf(X509_PREFIX, X509_PREFIX.length + shared.publicKey.length);
      System.arraycopy(shared.publicKey, 0, encoded, X509_PREFIX.length, shared.publicKey.length);
      publicKey = factory.generatePublic(new X509EncodedKeySpec(encoded));
      signer = Signature.getInstance("Ed25519");
      verifier = Signature.getInstance("Ed25519");
      if (!Arrays.equals(sign(this, shared), shared.signatureBytes) || !verify(this, shared)) {
        throw new IllegalStateException("the JDK's Ed25519 disagrees with BouncyCastle's");
      }
    }
  }

  /** libsodium from lazysodium-java's jar. */
  @State(Scope.Benchmark)
  public static class Sodium {
    SodiumJava sodium;
    byte[] secretKey; // libsodium's 64-byte form: seed, then public key

    @Setup
    public void setUp(Shared shared) {
      sodium = new SodiumJava(LibraryLoader.Mode.BUNDLED_ONLY);
      byte[] publicKey = new byte[32];
      secretKey = new byte[64];
      if (sodium.crypto_sign_seed_keypair(publicKey, secretKey, shared.seed) != 0
          || !Arrays.equals(publicKey, shared.publicKey)) {
        throw new IllegalStateException("libsodium derives another public key from the seed");
      }
      byte[] signature = new byte[64];
      sodium.crypto_sign_detached(
          signature, null, shared.message, shared.message.length, secretKey);
      if (!Arrays.equals(signature, shared.signatureBytes)
          || sodium.crypto_sign_verify_detached(
                  shared.signatureBytes, shared.message, shared.message.length, shared.publicKey)
              != 0) {
        throw new IllegalStateException("libsodium's Ed25519 disagrees with BouncyCastle's");
      }
    }
  }

  @Benchmark
  public Ed25519Signature bouncyCastleSign(Shared shared) {
    return shared.key.sign(shared.message);
  }

  @Benchmark
  public boolean bouncyCastleVerify(Shared shared) {
    return shared.key.publicKey().verify(shared.message, shared.signature);
  }

  @Benchmark
  public byte[] jdkSign(Jdk jdk, Shared shared) throws GeneralSecurityException {
    return sign(jdk, shared);
  }

  @Benchmark
  public boolean jdkVerify(Jdk jdk, Shared shared) throws GeneralSecurityException {
    return verify(jdk, shared);
  }

  @Benchmark
  public byte[] libsodiumSign(Sodium sodium, Shared shared) {
    byte[] signature = new byte[64];
    sodium.sodium.crypto_sign_detached(
        signature, null, shared.message, shared.message.length, sodium.secretKey);
    return signature;
  }

  @Benchmark
  public boolean libsodiumVerify(Sodium sodium, Shared shared) {
    return sodium.sodium.crypto_sign_verify_detached(
            shared.signatureBytes, shared.message, shared.message.length, shared.publicKey)
        == 0;
  }

  private static byte[] sign(Jdk jdk, Shared shared) throws GeneralSecurityException {
    jdk.signer.initSign(jdk.privateKey);
    jdk.signer.update(shared.message);
    return jdk.signer.sign();
  }

  private static boolean verify(Jdk jdk, Shared shared) throws GeneralSecurityException {
    jdk.verifier.initVerify(jdk.publicKey);
    jdk.verifier.update(shared.message);
    return jdk.verifier.verify(shared.signatureBytes);
  }
}
