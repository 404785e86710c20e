package dev.asa.bench;

import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.crypto.Ed25519Signature;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Locale;
import org.bouncycastle.math.ec.rfc8032.Ed25519;

/**
 * What one unit's signatures alone cost on this machine, measured in this process with
 * BouncyCastle's Ed25519 (the measure issue 59 set): the floor, so that "server CPU per lifecycle"
 * can be read as a fraction of it, a figure that survives a change of machine where milliseconds do
 * not. Beside it, a verification as the server makes it ({@link Ed25519PublicKey#verify}: the
 * machine's libsodium where it can be used), so that the reader sees both.
 *
 * <p>A lifecycle's signatures: six request signatures (one per call), the client's and the
 * provider's agreement signatures, and the server's signature on the verification result: eight
 * verifications and one signature. A structural verification: its request signature.
 *
 * <p>Measured on one thread, in the benchmark's process: a warm-up long enough for the JIT to
 * compile the field arithmetic, then a timed stretch; once before the measured window, while the
 * clients wait, and once after it, when the servers have stopped ({@link #between}).
 */
record SignatureFloor(
    int verifications,
    int signatures,
    double verifyMicros,
    double signMicros,
    double serverVerifyMicros) {

  private static final Duration WARM_UP = Duration.ofSeconds(3);
  private static final Duration MEASURED = Duration.ofSeconds(2);

  static SignatureFloor of(BenchOptions.Scenario scenario) {
    return switch (scenario) {
      case LIFECYCLE -> measure(8, 1);
      case STRUCTURAL -> measure(1, 0);
    };
  }

  static SignatureFloor measure(int verifications, int signatures) {
    Ed25519PrivateKey key = Ed25519PrivateKey.generate(new SecureRandom());
    Ed25519PublicKey publicKey = key.publicKey();
    // About the size of an RFC 9421 signature base the server verifies.
    byte[] message =
        ("\"@method\": POST\n\"@target-uri\": http://127.0.0.1:8080/agreements/0b5e/sign\n"
                + "\"content-digest\": sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:\n"
                + "\"@signature-params\": (\"@method\" \"@target-uri\" \"content-digest\")"
                + ";created=1765000000;keyid=\"z6MkbenchmarkbenchmarkbenchmarkbenchmarkAAAA\""
                + ";nonce=\"b3f1c9a2e4d5\"")
            .getBytes(StandardCharsets.UTF_8);
    Ed25519Signature signature = key.sign(message);
    Verifier bouncyCastle = bouncyCastle(publicKey);
    Verifier server = publicKey::verify;
    timeVerify(bouncyCastle, message, signature, WARM_UP);
    timeVerify(server, message, signature, WARM_UP);
    timeSign(key, message, WARM_UP);
    return new SignatureFloor(
        verifications,
        signatures,
        timeVerify(bouncyCastle, message, signature, MEASURED),
        timeSign(key, message, MEASURED),
        timeVerify(server, message, signature, MEASURED));
  }

  /**
   * The mean of two measurements, one before the measured window and one after it: the machine's
   * speed drifts (on this development machine a verification took 55 us in one run and 94 us in the
   * next), and the mean is closer to the speed the server had in the window than either end.
   */
  static SignatureFloor between(SignatureFloor before, SignatureFloor after) {
    return new SignatureFloor(
        before.verifications,
        before.signatures,
        (before.verifyMicros + after.verifyMicros) / 2,
        (before.signMicros + after.signMicros) / 2,
        (before.serverVerifyMicros + after.serverVerifyMicros) / 2);
  }

  /**
   * A line saying how far the machine's speed moved between two measurements, when it moved by more
   * than a tenth (then milliseconds of this run compare poorly with another run's), or empty.
   */
  static String drift(SignatureFloor before, SignatureFloor after) {
    double moved = after.verifyMicros / before.verifyMicros;
    return Math.abs(moved - 1) <= 0.1
        ? ""
        : String.format(
            Locale.ROOT,
            "  %-28s a verification took %.0f us before the measured window and %.0f us after it"
                + " (the floor is their mean)",
            "machine speed moved",
            before.verifyMicros,
            after.verifyMicros);
  }

  /** The floor per unit, in milliseconds. */
  double millis() {
    return (verifications * verifyMicros + signatures * signMicros) / 1000;
  }

  /** The line the benchmark prints, with the server's CPU per unit read against the floor. */
  String describe(String unit, double serverMillis) {
    return String.format(
        Locale.ROOT,
        "  %-28s %.2f ms  (BouncyCastle's Ed25519: %d verifications at %.0f us, %d signing at %.0f"
            + " us: %,.0f %ss/s on one core; a verification as the server makes it, %s: %.0f us)%s",
        "signature floor per " + unit,
        millis(),
        verifications,
        verifyMicros,
        signatures,
        signMicros,
        1000 / millis(),
        unit,
        Ed25519PublicKey.verifier().startsWith("libsodium") ? "libsodium" : "BouncyCastle",
        serverVerifyMicros,
        Double.isNaN(serverMillis)
            ? ""
            : String.format(
                Locale.ROOT,
                "; the server at %.2f of it (floor / server CPU)",
                ratio(serverMillis)));
  }

  /** The floor over the server's CPU per unit: 1 would be a server that only checks signatures. */
  double ratio(double serverMillis) {
    return millis() / serverMillis;
  }

  /** One way to verify a signature of one key. */
  private interface Verifier {
    boolean verify(byte[] message, Ed25519Signature signature);
  }

  /** BouncyCastle's RFC 8032 code, called as the server called it before libsodium. */
  private static Verifier bouncyCastle(Ed25519PublicKey key) {
    Ed25519.PublicPoint point = Ed25519.validatePublicKeyPartialExport(key.bytes(), 0);
    return (message, signature) -> {
      byte[] sig = signature.bytes();
      return Ed25519.verify(sig, 0, point, message, 0, message.length);
    };
  }

  private static double timeVerify(
      Verifier key, byte[] message, Ed25519Signature signature, Duration stretch) {
    long end = System.nanoTime() + stretch.toNanos();
    long start = System.nanoTime();
    long n = 0;
    boolean all = true;
    while (System.nanoTime() < end) {
      all &= key.verify(message, signature);
      n++;
    }
    if (!all) {
      throw new IllegalStateException("a valid signature did not verify");
    }
    return (System.nanoTime() - start) / 1e3 / n;
  }

  private static double timeSign(Ed25519PrivateKey key, byte[] message, Duration stretch) {
    long end = System.nanoTime() + stretch.toNanos();
    long start = System.nanoTime();
    long n = 0;
    int sink = 0;
    while (System.nanoTime() < end) {
      sink += key.sign(message).bytes()[0];
      n++;
    }
    if (sink == 42) {
      System.out.print(""); // keeps the signatures from being optimised away
    }
    return (System.nanoTime() - start) / 1e3 / n;
  }
}
