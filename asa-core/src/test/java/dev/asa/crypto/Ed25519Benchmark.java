package dev.asa.crypto;

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
 *   <li>{@code bouncyCastle*}: BouncyCastle's RFC 8032 code, as {@link Ed25519PrivateKey} calls it
 *       to sign (what the product signs with) and as {@link Ed25519PublicKey} called it to verify
 *       before libsodium;
 *   <li>{@code productVerify}: {@link Ed25519PublicKey#verify} as it is: the machine's libsodium
 *       through the JDK's foreign function interface ({@link Libsodium}) where it can be used;
 *   <li>{@code jdk*}: the JDK's own provider through JCA, {@code Signature.getInstance("Ed25519")},
 *       one {@link Signature} object reused with a fresh init per operation.
 * </ul>
 *
 * The setup checks that the JDK makes BouncyCastle's (deterministic) signature and verifies it
 * ({@code LibsodiumTest} compares libsodium with BouncyCastle). Run with {@code ./asa bench-core
 * Ed25519Benchmark}.
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
    final Ed25519PublicKey verificationKey = key.publicKey();
    final org.bouncycastle.math.ec.rfc8032.Ed25519.PublicPoint point =
        org.bouncycastle.math.ec.rfc8032.Ed25519.validatePublicKeyPartialExport(publicKey, 0);
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

  @Benchmark
  public Ed25519Signature bouncyCastleSign(Shared shared) {
    return shared.key.sign(shared.message);
  }

  @Benchmark
  public boolean bouncyCastleVerify(Shared shared) {
    return org.bouncycastle.math.ec.rfc8032.Ed25519.verify(
        shared.signatureBytes, 0, shared.point, shared.message, 0, shared.message.length);
  }

  @Benchmark
  public boolean productVerify(Shared shared) {
    return shared.verificationKey.verify(shared.message, shared.signature);
  }

  @Benchmark
  public byte[] jdkSign(Jdk jdk, Shared shared) throws GeneralSecurityException {
    return sign(jdk, shared);
  }

  @Benchmark
  public boolean jdkVerify(Jdk jdk, Shared shared) throws GeneralSecurityException {
    return verify(jdk, shared);
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
