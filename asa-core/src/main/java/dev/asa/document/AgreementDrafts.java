package dev.asa.document;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.AgreementTerms;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.Role;
import dev.asa.agreement.SignatureRefusedException;
import dev.asa.agreement.Violations;
import dev.asa.crypto.Ed25519Signature;
import dev.asa.lifecycle.Action;
import dev.asa.lifecycle.Lifecycle;
import dev.asa.lifecycle.State;
import dev.asa.template.TemplateApplier;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Turns what a client posts into a new agreement: applies the template if one is named, fills the
 * members the server owns when absent (agreement_id, created_at), validates the result like any
 * document, and checks what only creation can check: its dates are not already past, the signatures
 * it carries (if any) verify, and the status it names (if any) is the one it gets.
 *
 * <p>A document usually arrives unsigned and PROPOSED; each party then signs with {@code POST
 * /agreements/{id}/sign}. Two parties that agreed off the server may send the document with their
 * Ed25519 signatures over its {@code agreement_hash} under {@code signatures}: each is verified by
 * {@link Agreement#withSignature} exactly as a later sign call would be, and the lifecycle decides
 * the state (both: ACTIVE; one: PROPOSED, that signature recorded). Activating it (evaluator,
 * funding timers, events) is the server's business, as for the second signature of a sign call.
 */
public final class AgreementDrafts {
  private AgreementDrafts() {}

  /**
   * How far before the server's clock a {@code created_at} may lie: transit and clock skew. An
   * older date is refused: the server records when it received the agreement.
   */
  public static final Duration CREATED_AT_TOLERANCE = Duration.ofMinutes(5);

  public static Agreement propose(JsonNode input, Instant now, Supplier<String> newId) {
    if (!(input instanceof ObjectNode object)) {
      throw new InvalidDocumentException("", "an agreement must be a JSON object");
    }
    ObjectNode doc = TemplateApplier.apply(object);
    Map<Role, Ed25519Signature> signatures = signatures(doc.remove("signatures"));
    JsonNode status = doc.remove("status");
    if (status != null && !status.isTextual()) {
      throw new InvalidDocumentException("/status", "must be a string, e.g. \"proposed\"");
    }
    if (!doc.has("agreement_id")) {
      doc.put("agreement_id", newId.get());
    }
    if (!doc.has("created_at")) {
      doc.put("created_at", now.truncatedTo(ChronoUnit.SECONDS).toString());
    }
    doc.put("status", State.PROPOSED.wireName());
    Agreement agreement = AgreementDocuments.read(doc);
    checkDates(agreement.terms(), now);
    Violations refused = new Violations();
    State state = State.PROPOSED;
    for (Map.Entry<Role, Ed25519Signature> s : signatures.entrySet()) {
      try {
        agreement = agreement.withSignature(s.getKey(), s.getValue());
        state =
            Lifecycle.next(
                state, Action.SIGN, new Lifecycle.Facts(agreement.isFullySigned(), false));
      } catch (SignatureRefusedException e) {
        refused.add(
            "/signatures/" + s.getKey().wireName(),
            e.getMessage()
                + " (the hash of the document as sent: a document signed before it is sent must"
                + " carry its agreement_id and created_at, which the server would otherwise add)");
      }
    }
    refused.throwIfAny();
    if (status != null && !status.asText().equals(state.wireName())) {
      throw new InvalidDocumentException(
          "/status",
          "'"
              + status.asText()
              + "' is not the state this document starts in: it starts as \""
              + state.wireName()
              + "\" ("
              + (agreement.isFullySigned()
                  ? "both parties' signatures verify"
                  : agreement.isSignedBy(Role.CLIENT) || agreement.isSignedBy(Role.PROVIDER)
                      ? "one party's signature is still missing"
                      : "nobody has signed it yet")
              + "); leave status out or name that state");
    }
    if (state != State.PROPOSED) {
      agreement = agreement.withState(state);
    }
    if (object.has("template")) {
      String template = object.get("template").asText();
      agreement = agreement.withFacts(f -> f.withTemplate(template));
    }
    return agreement;
  }

  /**
   * A new agreement starts now: a created_at older than {@link #CREATED_AT_TOLERANCE}, or an
   * expires_at already reached, is refused rather than accepted and expired at once.
   */
  private static void checkDates(AgreementTerms terms, Instant now) {
    Violations v = new Violations();
    if (terms.createdAt().isBefore(now.minus(CREATED_AT_TOLERANCE))) {
      v.add(
          "/created_at",
          terms.createdAt()
              + " is already past (the server's time is "
              + now.truncatedTo(ChronoUnit.SECONDS)
              + "): a new agreement is dated when it is created; leave created_at out for the"
              + " server to set it, or send the document within "
              + CREATED_AT_TOLERANCE.toMinutes()
              + " minutes of dating it");
    }
    terms
        .expiry()
        .filter(at -> !at.isAfter(now))
        .ifPresent(at ->
            v.add(
                "/expires_at",
                at
                    + " is already past (the server's time is "
                    + now.truncatedTo(ChronoUnit.SECONDS)
                    + "): the agreement would expire as it is created; give a later expires_at"));
    v.throwIfAny();
  }

  /** The signatures a document arrives with: only the client's and the provider's, well formed. */
  private static Map<Role, Ed25519Signature> signatures(JsonNode node) {
    Map<Role, Ed25519Signature> found = new EnumMap<>(Role.class);
    if (node == null) {
      return found;
    }
    if (!node.isObject()) {
      throw new InvalidDocumentException(
          "/signatures", "must be an object with the client's and/or the provider's signature");
    }
    Violations v = new Violations();
    for (Map.Entry<String, JsonNode> member : node.properties()) {
      String at = "/signatures/" + member.getKey();
      Role role =
          switch (member.getKey()) {
            case "client" -> Role.CLIENT;
            case "provider" -> Role.PROVIDER;
            default -> null;
          };
      if (role == null) {
        v.add(at, "only the client and the provider sign an agreement");
        continue;
      }
      JsonNode s = member.getValue();
      if (!s.path("scheme").asText("").equals("ed25519")) {
        v.add(at + "/scheme", "must be \"ed25519\"");
        continue;
      }
      try {
        found.put(role, Ed25519Signature.fromBase64Url(s.path("value").asText("")));
      } catch (IllegalArgumentException e) {
        v.add(
            at + "/value",
            "not an Ed25519 signature (64 bytes, unpadded base64url): " + e.getMessage());
      }
    }
    v.throwIfAny();
    return found;
  }
}
