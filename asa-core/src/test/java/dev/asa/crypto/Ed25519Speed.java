package dev.asa.crypto;

import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.Signature;

/**
 * Rough timing of Ed25519 signing and verification: BouncyCastle's RFC 8032 code (what this project
 * uses) against the JDK's "Ed25519" JCA provider. Run by hand, not by the test suite:
 *
 * <pre>
 * java -cp asa-core/target/classes:asa-core/target/test-classes:bcprov.jar dev.asa.crypto.Ed25519Speed
 * </pre>
 */
public final class Ed25519Speed {

  private static final int OPERATIONS = 20_000;
  private static final int ROUNDS = 3; // the first rounds warm up the JIT

  private Ed25519Speed() {}

  public static void main(String[] args) throws Exception {
    byte[] message = new byte[256];
    new SecureRandom().nextBytes(message);

    Ed25519PrivateKey bcKey = Ed25519PrivateKey.generate(new SecureRandom());
    Ed25519Signature bcSignature = bcKey.sign(message);

    KeyPair jdkKeys = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
    Signature jdkSigner = Signature.getInstance("Ed25519");
    jdkSigner.initSign(jdkKeys.getPrivate());
    jdkSigner.update(message);
    byte[] jdkSignature = jdkSigner.sign();
    Signature jdkVerifier = Signature.getInstance("Ed25519");

    for (int round = 1; round <= ROUNDS; round++) {
      System.out.printf("round %d of %d (%,d operations each)%n", round, ROUNDS, OPERATIONS);

      report("BouncyCastle sign  ", () -> bcKey.sign(message));
      report("BouncyCastle verify", () -> check(bcKey.publicKey().verify(message, bcSignature)));
      report(
          "JDK          sign  ",
          () -> {
            jdkSigner.initSign(jdkKeys.getPrivate());
            jdkSigner.update(message);
            jdkSigner.sign();
          });
      report(
          "JDK          verify",
          () -> {
            jdkVerifier.initVerify(jdkKeys.getPublic());
            jdkVerifier.update(message);
            check(jdkVerifier.verify(jdkSignature));
          });
    }
  }

  private interface Operation {
    void run() throws Exception;
  }

  private static void report(String label, Operation operation) throws Exception {
    long start = System.nanoTime();
    for (int i = 0; i < OPERATIONS; i++) {
      operation.run();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.printf("  %s %,10.0f ops/s%n", label, OPERATIONS / seconds);
  }

  private static void check(boolean verified) {
    if (!verified) {
      throw new AssertionError("a valid signature failed to verify; the benchmark is broken");
    }
  }
}
