package dev.asa.shadow;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.crypto.DidKey;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Whether a seal holds: its signature verifies, and its nonce and criteria recompute to the
 * commitment it states. Optionally pinned: the signer is the key the checker trusts (the server's
 * published key), and the commitment is the one recorded elsewhere (the agreement's event log).
 * Without a pin, a bundle re-sealed wholesale under another key would still pass, so a verifier
 * that knows the server key should pass it.
 *
 * @param checks every check that was made, in order; the seal holds when all passed
 */
public record SealVerification(List<Outcome> checks, Commitment recomputed) {

  /** One named check, whether it passed, and what was found. */
  public record Outcome(String name, boolean passed, String detail) {}

  public SealVerification {
    checks = List.copyOf(checks);
  }

  public static SealVerification check(SealedEnvelope envelope) {
    return check(envelope, Optional.empty(), Optional.empty());
  }

  public static SealVerification check(
      SealedEnvelope envelope,
      Optional<Ed25519PublicKey> expectedSigner,
      Optional<Commitment> expectedCommitment) {
    Seal seal = envelope.seal();
    List<Outcome> checks = new ArrayList<>();
    String signer = DidKey.of(seal.signer());
    checks.add(
        seal.verify(seal.signer())
            ? new Outcome(
                "signature",
                true,
                "the Ed25519 signature over the statement verifies under " + signer)
            : new Outcome(
                "signature",
                false,
                "the Ed25519 signature does not verify under "
                    + signer
                    + ": the statement was altered after signing, or was signed with another key"));
    expectedSigner.ifPresent(key ->
        checks.add(
            key.equals(seal.signer())
                ? new Outcome("signer", true, "signed by the expected key " + DidKey.of(key))
                : new Outcome(
                    "signer",
                    false,
                    "signed by " + signer + ", not by the expected key " + DidKey.of(key))));
    Commitment recomputed = Commitment.compute(envelope.nonce(), envelope.criteria());
    Commitment stated = seal.statement().commitment();
    checks.add(
        recomputed.equals(stated)
            ? new Outcome(
                "commitment",
                true,
                "sha256 of JCS {nonce, criteria} is "
                    + recomputed
                    + ", the commitment the statement makes")
            : new Outcome(
                "commitment",
                false,
                "the statement commits to "
                    + stated
                    + " but the nonce and "
                    + envelope.criteria().size()
                    + " criteria give "
                    + recomputed
                    + ": criteria or nonce changed after sealing"));
    expectedCommitment.ifPresent(c ->
        checks.add(
            c.equals(stated)
                ? new Outcome(
                    "recorded_commitment", true, "the statement's commitment is the recorded " + c)
                : new Outcome(
                    "recorded_commitment",
                    false,
                    "the statement commits to " + stated + ", not to the recorded " + c)));
    return new SealVerification(checks, recomputed);
  }

  public boolean valid() {
    return checks.stream().allMatch(Outcome::passed);
  }

  /** The failed checks' details, joined; empty when the seal holds. */
  public Optional<String> problem() {
    List<String> failed =
        checks.stream().filter(c -> !c.passed()).map(c -> c.name() + ": " + c.detail()).toList();
    return failed.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", failed));
  }

  /**
   * {@code
   * {"valid":true,"recomputed_commitment":"sha256:...","checks":[{"name","passed","detail"}]}}.
   */
  public ObjectNode toJson() {
    ObjectNode o =
        Json.object().put("valid", valid()).put("recomputed_commitment", recomputed.toString());
    ArrayNode a = o.putArray("checks");
    checks.forEach(c ->
        a.addObject().put("name", c.name()).put("passed", c.passed()).put("detail", c.detail()));
    return o;
  }
}
