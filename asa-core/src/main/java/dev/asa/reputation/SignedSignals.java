package dev.asa.reputation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Identity;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.Role;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.crypto.Ed25519Signature;
import dev.asa.json.ExactNumbers;
import dev.asa.json.Jcs;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.Collection;

/**
 * Signing and checking ARP signals. The proof is an Ed25519 signature over the RFC 8785 (JCS) form
 * of the signal object without its {@code verification} member, written in standard base64 as ARP's
 * example writes it; {@code verification.key} names the signing key (base64url, as every key in
 * this project), so a reader knows which of the keys it trusts to check it with.
 *
 * <p>A foreign signal is checked over the object exactly as it arrived, extra members included, and
 * only then read: nothing in it counts before the signature does, and the signature covers the
 * subject and role, so a signal cannot be moved to another agent or role.
 */
public final class SignedSignals {
  private SignedSignals() {}

  /** The {@code verification.method} of signals this project signs and accepts. */
  public static final String METHOD = "ed25519-jcs";

  /** Longest text member accepted in a foreign signal. */
  static final int MAX_TEXT = 512;

  /** The signal with its {@code verification}: {@code method}, {@code proof}, {@code key}. */
  public static ObjectNode sign(Signal signal, Ed25519PrivateKey key) {
    ObjectNode o = signal.toJson();
    Ed25519Signature proof = key.sign(Jcs.canonicalize(o));
    ObjectNode v = o.putObject("verification");
    v.put("method", METHOD);
    v.put("proof", Base64.getEncoder().encodeToString(proof.bytes()));
    v.put("key", key.publicKey().toBase64Url());
    return o;
  }

  /** A signal whose signature verified, with the key that signed it. */
  public record Verified(Signal signal, Ed25519PublicKey signer, ObjectNode json) {}

  /**
   * Checks a received signal and reads it.
   *
   * @param at the JSON pointer of the signal in the request, for error messages
   * @param trusted the keys whose signals count
   * @throws InvalidDocumentException naming the member at fault: unsigned, signed by a key not
   *     trusted, a signature that does not verify, or a member missing or malformed
   */
  public static Verified verify(
      JsonNode received, String at, Collection<Ed25519PublicKey> trusted) {
    if (!(received instanceof ObjectNode object)) {
      throw new InvalidDocumentException(at, "a signal is a JSON object");
    }
    JsonNode verification = object.get("verification");
    if (!(verification instanceof ObjectNode v)) {
      throw new InvalidDocumentException(
          at + "/verification", "a signal must carry its verification {method, proof, key}");
    }
    if (!METHOD.equals(v.path("method").asText(null))) {
      throw new InvalidDocumentException(
          at + "/verification/method", "only " + METHOD + " signatures are accepted");
    }
    Ed25519PublicKey key;
    try {
      key = Ed25519PublicKey.fromBase64Url(text(v, at + "/verification", "key"));
    } catch (IllegalArgumentException e) {
      throw new InvalidDocumentException(at + "/verification/key", e.getMessage());
    }
    if (!trusted.contains(key)) {
      throw new InvalidDocumentException(
          at + "/verification/key",
          "signals signed by this key are not accepted: the operator trusts it not (--arp-trust)");
    }
    Ed25519Signature proof;
    try {
      proof =
          new Ed25519Signature(Base64.getDecoder().decode(text(v, at + "/verification", "proof")));
    } catch (IllegalArgumentException e) {
      throw new InvalidDocumentException(
          at + "/verification/proof", "not a base64 Ed25519 signature: " + e.getMessage());
    }
    ObjectNode signed = object.deepCopy();
    signed.remove("verification");
    byte[] input;
    try {
      input = Jcs.canonicalize(signed);
    } catch (IllegalArgumentException e) {
      throw new InvalidDocumentException(at, "the signal has no canonical form: " + e.getMessage());
    }
    if (!key.verify(input, proof)) {
      throw new InvalidDocumentException(
          at + "/verification/proof",
          "the signature does not verify over the signal as sent (altered, or signed over another"
              + " form than JCS without verification)");
    }
    return new Verified(read(signed, at), key, object.deepCopy());
  }

  private static Signal read(ObjectNode o, String at) {
    JsonNode subject = o.get("subject");
    if (!(subject instanceof ObjectNode s)) {
      throw new InvalidDocumentException(
          at + "/subject", "a signal names its subject {scheme, value}");
    }
    Role role;
    try {
      role = Role.fromWire(text(o, at, "role"));
    } catch (IllegalArgumentException e) {
      throw new InvalidDocumentException(at + "/role", e.getMessage());
    }
    BigDecimal confidence = number(o, at, "confidence");
    if (confidence.signum() < 0 || confidence.compareTo(BigDecimal.ONE) > 0) {
      throw new InvalidDocumentException(at + "/confidence", "a confidence lies between 0 and 1");
    }
    JsonNode sample = o.get("sample_size");
    if (sample == null
        || !sample.isIntegralNumber()
        || !sample.canConvertToLong()
        || sample.longValue() < 0
        || sample.longValue() > 1_000_000_000L) {
      throw new InvalidDocumentException(
          at + "/sample_size", "a whole number between 0 and 1000000000");
    }
    Instant timestamp;
    try {
      timestamp = Instant.parse(text(o, at, "timestamp"));
    } catch (DateTimeParseException e) {
      throw new InvalidDocumentException(
          at + "/timestamp", "an RFC 3339 UTC time, e.g. 2026-03-26T00:00:00Z");
    }
    String subjectKey = null;
    if (s.has("key")) {
      try {
        subjectKey = Ed25519PublicKey.fromBase64Url(text(s, at + "/subject", "key")).toBase64Url();
      } catch (IllegalArgumentException e) {
        throw new InvalidDocumentException(at + "/subject/key", e.getMessage());
      }
    }
    return new Signal(
        text(o, at, "signal_type"),
        text(o, at, "signal_id"),
        text(o, at, "source"),
        new Identity(text(s, at + "/subject", "scheme"), text(s, at + "/subject", "value"), null),
        subjectKey,
        role,
        number(o, at, "value"),
        confidence,
        text(o, at, "window"),
        sample.longValue(),
        timestamp);
  }

  private static String text(JsonNode o, String at, String member) {
    JsonNode n = o.get(member);
    if (n == null || !n.isTextual() || n.textValue().isBlank()) {
      throw new InvalidDocumentException(at + "/" + member, "a non-empty string is required");
    }
    if (n.textValue().length() > MAX_TEXT) {
      throw new InvalidDocumentException(at + "/" + member, "at most " + MAX_TEXT + " characters");
    }
    return n.textValue();
  }

  /** A number read from its JSON text (never through a double), finite and of sane size. */
  private static BigDecimal number(JsonNode o, String at, String member) {
    JsonNode n = o.get(member);
    if (n == null || !n.isNumber()) {
      throw new InvalidDocumentException(at + "/" + member, "a number is required");
    }
    BigDecimal d = n.decimalValue();
    if (!ExactNumbers.isExact(n) || d.abs().compareTo(BigDecimal.valueOf(1_000_000_000L)) > 0) {
      throw new InvalidDocumentException(
          at + "/" + member, "a number of at most 1000000000 in size, exact as a double");
    }
    return d;
  }
}
