package dev.asa.shadow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.StrictJson;
import dev.asa.crypto.DidKey;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.crypto.Ed25519Signature;
import java.util.Objects;

/**
 * A signed {@link SealStatement}: Ed25519 over its JCS canonical bytes, with the signer's public
 * key.
 *
 * <p>There is no public constructor. A new seal comes only from {@link #sign}; a seal read from the
 * store or a revealed bundle comes from {@link SealedEnvelope#parse} and is a <em>claim</em> until
 * {@link SealVerification} (or {@link #verify}) says otherwise: the validator re-verifies every
 * time, whatever the store says.
 */
public final class Seal {

  private final SealStatement statement;
  private final Ed25519Signature signature;
  private final Ed25519PublicKey signer;

  Seal(SealStatement statement, Ed25519Signature signature, Ed25519PublicKey signer) {
    this.statement = Objects.requireNonNull(statement, "statement");
    this.signature = Objects.requireNonNull(signature, "signature");
    this.signer = Objects.requireNonNull(signer, "signer");
  }

  /**
   * Signs the statement with {@code key}; the seal names {@code key}'s public half as its signer.
   */
  public static Seal sign(SealStatement statement, Ed25519PrivateKey key) {
    Objects.requireNonNull(statement, "statement");
    Objects.requireNonNull(key, "key");
    return new Seal(statement, key.sign(statement.signingBytes()), key.publicKey());
  }

  public SealStatement statement() {
    return statement;
  }

  public Ed25519Signature signature() {
    return signature;
  }

  /** The public key the seal claims to be signed with (as {@code did:key} on the wire). */
  public Ed25519PublicKey signer() {
    return signer;
  }

  /** Whether the signature over the statement verifies under {@code key}. */
  public boolean verify(Ed25519PublicKey key) {
    return key.verify(statement.signingBytes(), signature);
  }

  /** {@code {"statement":{...},"signature":"<base64url>","signer":"did:key:z6Mk..."}}. */
  public ObjectNode toJson() {
    ObjectNode o = dev.asa.json.Json.object();
    o.set("statement", statement.toJson());
    o.put("signature", signature.toBase64Url());
    o.put("signer", DidKey.of(signer));
    return o;
  }

  /** Reads the three members of a seal (inside a bundle or on their own); null when unusable. */
  static Seal parse(JsonNode node, String pointer, StrictJson errors) {
    int before = errors.count();
    SealStatement statement =
        SealStatement.parse(node.get("statement"), StrictJson.child(pointer, "statement"), errors);
    String signatureText = errors.text(node, pointer, "signature", 128);
    Ed25519Signature signature = null;
    if (signatureText != null) {
      try {
        signature = Ed25519Signature.fromBase64Url(signatureText);
      } catch (IllegalArgumentException e) {
        errors.add(StrictJson.child(pointer, "signature"), e.getMessage());
      }
    }
    String signerText = errors.text(node, pointer, "signer", 128);
    Ed25519PublicKey signer = null;
    if (signerText != null) {
      try {
        signer =
            signerText.startsWith("did:")
                ? DidKey.parse(signerText)
                : Ed25519PublicKey.fromBase64Url(signerText);
      } catch (IllegalArgumentException e) {
        errors.add(
            StrictJson.child(pointer, "signer"),
            e.getMessage() + " (expected a did:key, or a base64url Ed25519 public key)");
      }
    }
    return errors.count() == before ? new Seal(statement, signature, signer) : null;
  }

  @Override
  public String toString() {
    return "Seal["
        + statement.subject().kind().member()
        + "="
        + statement.subject().id()
        + ", commitment="
        + statement.commitment()
        + "]";
  }
}
