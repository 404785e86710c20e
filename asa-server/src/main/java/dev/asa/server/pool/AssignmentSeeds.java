package dev.asa.server.pool;

import dev.asa.crypto.Digest;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.document.Agreement;
import dev.asa.integrity.Seed;
import java.nio.charset.StandardCharsets;

/**
 * The public randomness of an agreement's evaluator draw (whitepaper 3.6.1): the server's Ed25519
 * signature over {@value #CONTEXT} followed by the agreement hash. RFC 8032 signatures are
 * deterministic, so the server cannot try seeds until one picks the evaluator it likes, and the
 * parties cannot choose one either short of rewriting the terms they both sign; anyone holding the
 * server's public key checks the seed with one signature verification.
 *
 * <p>The context string keeps this signature from ever being mistaken for a signature of the
 * agreement itself, or for the threshold-noise seed ({@code ReleasePolicy}).
 */
public final class AssignmentSeeds {
  static final String CONTEXT = "asa/evaluator-assignment/v1/";

  /** How the seed is made, for the event that records it. */
  static final String RULE =
      "the server's ed25519 signature over the UTF-8 bytes of \""
          + CONTEXT
          + "\" followed by the agreement_hash";

  private final Ed25519PrivateKey serverKey;

  public AssignmentSeeds(Ed25519PrivateKey serverKey) {
    this.serverKey = serverKey;
  }

  Seed of(Agreement a) {
    return new Seed(serverKey.sign(message(a.hash())).bytes());
  }

  static byte[] message(Digest agreementHash) {
    return (CONTEXT + agreementHash).getBytes(StandardCharsets.UTF_8);
  }
}
