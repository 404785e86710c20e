package dev.asa.shadow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.StrictJson;
import dev.asa.crypto.Ed25519PrivateKey;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Objects;
import java.util.Set;

/**
 * Everything a seal is: the signed statement, and the nonce and criteria it commits to. The server
 * stores this (where the provider cannot read it), validates against it, and after verification
 * reveals it as it is: {@link #toJson()} is the bundle of {@code GET /agreements/{id}/seal}, which
 * {@code asa shadow verify-seal} and {@link SealVerification} check offline.
 *
 * <pre>
 * {"statement":{"agreement_id":"...","commitment":"sha256:...","sealed_at":"...","sealer":"..."},
 *  "signature":"<base64url Ed25519>","signer":"did:key:z6Mk...",
 *  "nonce":"<base64url, 32 bytes>","criteria":[...]}</pre>
 *
 * <p>Constructing one does not check it (a stored or received bundle may be tampered with; that is
 * what {@link SealVerification} is for). {@link #seal} is the only way to make a new one, and it
 * makes a consistent one.
 */
public record SealedEnvelope(Seal seal, Nonce nonce, SealedCriteria criteria) {

  private static final Set<String> MEMBERS =
      Set.of("statement", "signature", "signer", "nonce", "criteria");

  public SealedEnvelope {
    Objects.requireNonNull(seal, "seal");
    Objects.requireNonNull(nonce, "nonce");
    Objects.requireNonNull(criteria, "criteria");
  }

  /**
   * Seals criteria: a fresh nonce from {@code random}, the commitment, the statement and its
   * signature with {@code key} (the server's key).
   */
  public static SealedEnvelope seal(
      SealStatement.Subject subject,
      SealedCriteria criteria,
      String sealer,
      Instant now,
      SecureRandom random,
      Ed25519PrivateKey key) {
    Nonce nonce = Nonce.generate(random);
    Commitment commitment = Commitment.compute(nonce, criteria);
    Seal seal = Seal.sign(new SealStatement(subject, commitment, now, sealer), key);
    return new SealedEnvelope(seal, nonce, criteria);
  }

  /** The commitment the statement makes (not recomputed: see {@link SealVerification}). */
  public Commitment commitment() {
    return seal.statement().commitment();
  }

  public ObjectNode toJson() {
    ObjectNode o = seal.toJson();
    o.put("nonce", nonce.toBase64Url());
    o.set("criteria", criteria.toJson());
    return o;
  }

  /**
   * Reads a bundle strictly.
   *
   * @throws InvalidDocumentException listing every violation with its JSON pointer; a bundle that
   *     reads is not yet a valid one
   */
  public static SealedEnvelope parse(JsonNode node) {
    StrictJson errors = new StrictJson();
    if (errors.object(node, "", "a revealed seal") == null) {
      errors.throwIfAny();
    }
    errors.allowOnly(node, "", MEMBERS);
    Seal seal = Seal.parse(node, "", errors);
    String nonceText = errors.text(node, "", "nonce", 64);
    Nonce nonce = null;
    if (nonceText != null) {
      try {
        nonce = Nonce.fromBase64Url(nonceText);
      } catch (IllegalArgumentException e) {
        errors.add("/nonce", e.getMessage());
      }
    }
    SealedCriteria criteria = SealedCriteria.parse(node.get("criteria"), "/criteria", null, errors);
    errors.throwIfAny();
    return new SealedEnvelope(seal, nonce, criteria);
  }
}
