package dev.asa.server.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.ChallengeReason;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.Role;
import dev.asa.agreement.StrictJson;
import dev.asa.crypto.Ed25519Signature;
import dev.asa.integrity.CanarySet;
import dev.asa.json.Json;
import dev.asa.negotiation.NegotiationMessage;
import dev.asa.server.escrow.FundRequest;
import dev.asa.server.escrow.x402.X402;
import dev.asa.server.pool.Suspension;
import dev.asa.server.verification.engine.EvaluationConfig;
import dev.asa.server.work.Command;
import dev.asa.server.work.Delivery;
import dev.asa.server.work.SubmittedResult;
import dev.asa.shadow.SealRequest;
import dev.asa.text.ControlCharacters;
import java.math.BigDecimal;
import java.util.Base64;
import java.util.Optional;

/**
 * Request bodies read into {@link Command}s: strictly (unknown members refused), each bad field
 * named by its JSON pointer in a 422. Values with a reader of their own (a delivery, a negotiation
 * message, sealed criteria, an evaluator's scores) are read by it.
 */
public final class CommandBodies {
  private static final StrictJson STRICT = StrictJson.failFast();

  private CommandBodies() {}

  /**
   * A document that is its own command (an agreement proposal, a verification request): the use
   * case reads it with the core's document reader, because the document itself is what it stores
   * (signed terms; a verification job that can be resumed).
   */
  public static JsonNode document(JsonNode body) {
    return body;
  }

  /** A call that takes no body ({@code close}); whatever is sent is ignored, as before. */
  public static Void none(JsonNode body) {
    return null;
  }

  public static Command.Sign sign(JsonNode body) {
    ObjectNode b = STRICT.object(body, "", "a sign request");
    STRICT.allowOnly(b, "", "party", "signature", "agreement_hash");
    Optional<String> signedHash = Optional.ofNullable(STRICT.optionalText(b, "", "agreement_hash"));
    Role role = signingRole(STRICT.text(b, "", "party", "\"client\" or \"provider\""));
    if (!(b.get("signature") instanceof ObjectNode signature)) {
      throw new InvalidDocumentException(
          "/signature",
          "required: {\"scheme\": \"ed25519\", \"value\": \"<base64url signature>\"}");
    }
    String scheme = STRICT.text(signature, "/signature", "scheme", "\"ed25519\"");
    if (!scheme.equals("ed25519")) {
      throw new InvalidDocumentException(
          "/signature/scheme", "unsupported scheme '" + scheme + "'; only ed25519 is accepted");
    }
    String value =
        STRICT.text(signature, "/signature", "value", "base64url of the 64-byte signature");
    try {
      return new Command.Sign(role, Ed25519Signature.fromBase64Url(value), signedHash);
    } catch (IllegalArgumentException e) {
      throw new InvalidDocumentException("/signature/value", e.getMessage());
    }
  }

  /**
   * {@code {"closed_before": "2026-01-01"}} (a date: its first instant, UTC) or an RFC 3339 time:
   * the agreements that ended before it are archived. Never in the future.
   */
  public static java.time.Instant archive(JsonNode body, java.time.Instant now) {
    ObjectNode b = STRICT.object(body, "", "an archive request");
    STRICT.allowOnly(b, "", "closed_before");
    String text = STRICT.text(b, "", "closed_before", "a date (2026-01-01) or an RFC 3339 time");
    java.time.Instant cutoff;
    try {
      cutoff =
          text.length() == 10
              ? java.time.LocalDate.parse(text).atStartOfDay(java.time.ZoneOffset.UTC).toInstant()
              : java.time.Instant.parse(text);
    } catch (java.time.format.DateTimeParseException e) {
      throw new InvalidDocumentException(
          "/closed_before", "'" + text + "' is neither a date (2026-01-01) nor an RFC 3339 time");
    }
    if (cutoff.isAfter(now)) {
      throw new InvalidDocumentException(
          "/closed_before", cutoff + " is in the future: only agreements that ended are archived");
    }
    return cutoff;
  }

  /** {@code {"chain_url": "https://..."}} or {@code {"chain": [entries...]}}, one of them. */
  public static Command.Anchor anchor(JsonNode body) {
    ObjectNode b = STRICT.object(body, "", "an anchoring request");
    STRICT.allowOnly(b, "", "chain_url", "chain");
    boolean url = b.has("chain_url");
    boolean chain = b.has("chain");
    if (url == chain) {
      throw new InvalidDocumentException(
          url ? "/chain" : "/chain_url",
          url
              ? "give chain_url or chain, not both"
              : "required: chain_url (the chain as JSON Lines) or chain (its entries)");
    }
    if (url) {
      String u = STRICT.text(b, "", "chain_url", "an http(s) URL");
      if (!u.startsWith("https://") && !u.startsWith("http://")) {
        throw new InvalidDocumentException("/chain_url", "an http(s) URL");
      }
      return new Command.Anchor(u, null);
    }
    if (!b.get("chain").isArray()) {
      throw new InvalidDocumentException("/chain", "an array of CoC entries");
    }
    return new Command.Anchor(null, b.get("chain"));
  }

  public static Command.Negotiate negotiate(JsonNode body) {
    ObjectNode b = STRICT.object(body, "", "a negotiation message");
    return new Command.Negotiate(
        Optional.ofNullable(STRICT.optionalText(b, "", "party")), NegotiationMessage.parse(b));
  }

  /** An empty body is a fund request with nothing to add (a ledger or callback escrow). */
  public static FundRequest fund(JsonNode body) {
    ObjectNode b =
        isAbsent(body) ? Json.object() : STRICT.object(body, "", "a fund request").deepCopy();
    JsonNode amount = b.remove("amount");
    JsonNode currency = b.remove("currency");
    if (amount != null && !amount.isTextual()) {
      throw new InvalidDocumentException(
          "/amount", "a decimal string such as \"12.50\": the agreement's escrow amount, exactly");
    }
    if (currency != null && !currency.isTextual()) {
      throw new InvalidDocumentException(
          "/currency", "the agreement's currency code, such as \"USD\"");
    }
    return new FundRequest(
        Optional.ofNullable(amount).map(JsonNode::asText),
        Optional.ofNullable(currency).map(JsonNode::asText),
        b);
  }

  /**
   * The provider's stake: no body, or an object the escrow binding reads (the ledger's takes no
   * members, and names any it is sent).
   */
  public static Command.Stake stake(JsonNode body) {
    return new Command.Stake(
        isAbsent(body) ? Json.object() : STRICT.object(body, "", "a collateral stake request"));
  }

  /**
   * As {@link #fund(JsonNode)}, with an x402 PaymentPayload that may come in the {@code
   * PAYMENT-SIGNATURE} header (x402's HTTP transport: base64 of its JSON) instead of the body.
   *
   * @param paymentSignature the header's value, or null when absent
   */
  public static FundRequest fund(JsonNode body, String paymentSignature) {
    FundRequest request = fund(body);
    if (paymentSignature == null) {
      return request;
    }
    ObjectNode b = request.bindingPayload();
    if (b.has("x402")) {
      throw new InvalidDocumentException(
          "/x402",
          "the payment payload came twice, in the body and in "
              + X402.PAYMENT_SIGNATURE_HEADER
              + ": send it once");
    }
    b.set("x402", paymentHeader(paymentSignature));
    return new FundRequest(request.amount(), request.currency(), b);
  }

  /** The header's PaymentPayload: base64 of UTF-8 JSON, read by the same rules as a body. */
  private static JsonNode paymentHeader(String value) {
    byte[] json;
    try {
      json = Base64.getDecoder().decode(value.strip());
    } catch (IllegalArgumentException e) {
      throw badPaymentHeader("is not base64 (RFC 4648, standard alphabet): " + e.getMessage());
    }
    try {
      return RequestBodies.parse(json);
    } catch (JsonProcessingException e) {
      throw badPaymentHeader("does not hold JSON: " + e.getOriginalMessage());
    } catch (RequestException e) {
      throw badPaymentHeader("is not UTF-8: " + e.problem().detail());
    }
  }

  private static RequestException badPaymentHeader(String why) {
    return new RequestException(
        Problem.of(
            "invalid-header",
            "Malformed " + X402.PAYMENT_SIGNATURE_HEADER + " header",
            400,
            "the "
                + X402.PAYMENT_SIGNATURE_HEADER
                + " header "
                + why
                + "; send base64 of the PaymentPayload's JSON"));
  }

  public static Command.Deliver deliver(JsonNode body) {
    ObjectNode b = STRICT.object(body, "", "a delivery");
    STRICT.allowOnly(b, "", "content", "format", "content_url", "content_hash");
    return new Command.Deliver(Delivery.parse(b, ""));
  }

  /**
   * {@code {evaluator_result}} (the assigned evaluator's scores) or {@code {verification_config}}
   * (run the server's engine), or nothing.
   */
  public static Command.Verify verify(JsonNode body) {
    if (isAbsent(body)) {
      return new Command.Verify(SubmittedResult.NONE, Optional.empty());
    }
    ObjectNode b = STRICT.object(body, "", "a verify request");
    STRICT.allowOnly(b, "", "evaluator_result", "verification_config");
    if (b.has("verification_config")) {
      if (b.has("evaluator_result")) {
        throw new InvalidDocumentException(
            "/verification_config",
            "give either evaluator_result (your scores) or verification_config (the server's"
                + " evaluators), not both");
      }
      return new Command.Verify(
          SubmittedResult.NONE, Optional.of(EvaluationConfig.parse(b.get("verification_config"))));
    }
    return new Command.Verify(SubmittedResult.parse(b.get("evaluator_result")), Optional.empty());
  }

  /**
   * {@code POST /evaluator/tasks/{task_id}/result}: {@code {"evaluator_result": {...}}}, as the
   * agreement route takes it.
   */
  public static Command.TaskAnswer taskAnswer(JsonNode body) {
    ObjectNode b = STRICT.object(body, "", "a task answer");
    STRICT.allowOnly(b, "", "evaluator_result");
    JsonNode result = b.get("evaluator_result");
    if (result == null || result.isNull()) {
      throw new InvalidDocumentException(
          "/evaluator_result",
          "required: {\"dimensions\": [{\"name\", \"score\", \"evidence\"}, ...]}, a score for"
              + " each dimension of the task's criteria");
    }
    return new Command.TaskAnswer(SubmittedResult.parseTaskAnswer(result), result);
  }

  public static Command.Challenge challenge(JsonNode body) {
    ObjectNode b = STRICT.object(body, "", "a challenge");
    STRICT.allowOnly(b, "", "party", "reason_code");
    Optional<String> claimed = Optional.ofNullable(STRICT.optionalText(b, "", "party"));
    String code = STRICT.text(b, "", "reason_code", "one of " + ChallengeReason.allWireNames());
    try {
      return new Command.Challenge(claimed, ChallengeReason.fromWire(code));
    } catch (IllegalArgumentException e) {
      throw new InvalidDocumentException("/reason_code", e.getMessage());
    }
  }

  public static Command.Ruling ruling(JsonNode body) {
    ObjectNode b = STRICT.object(body, "", "a ruling");
    if (b.has("ajp_decision")) {
      return ajpRuling(b);
    }
    STRICT.allowOnly(b, "", "release_percent", "reason");
    JsonNode p = b.get("release_percent");
    if (p == null
        || !p.isNumber()
        || p.decimalValue().signum() < 0
        || p.decimalValue().compareTo(BigDecimal.valueOf(100)) > 0) {
      throw new InvalidDocumentException(
          "/release_percent",
          "required: a number from 0 to 100, the share released to the provider");
    }
    if (p.decimalValue().scale() > 2) {
      throw new InvalidDocumentException("/release_percent", "at most two decimals");
    }
    String reason = STRICT.text(b, "", "reason", "the reason for the ruling, kept in the record");
    if (reason.isBlank() || reason.length() > 2000) {
      throw new InvalidDocumentException("/reason", "a non-blank text of at most 2000 characters");
    }
    return new Command.Ruling(p.decimalValue(), reason);
  }

  /**
   * A ruling that comes back from the Agent Justice Protocol: {@code {"ajp_decision": <its section
   * 6.6 decision>, "reason"?}}. Only what decides the money is read (the claim it answers and the
   * fault it found); the rest is AJP's and kept in the record as the reason's source.
   */
  private static Command.Ruling ajpRuling(ObjectNode b) {
    STRICT.allowOnly(b, "", "ajp_decision", "reason");
    ObjectNode d = STRICT.object(b.get("ajp_decision"), "/ajp_decision", "an AJP decision");
    String claimId = STRICT.text(d, "/ajp_decision", "claim_id", "the claim the decision answers");
    ObjectNode fault =
        STRICT.object(
            d.get("fault_determination"), "/ajp_decision/fault_determination", "the fault found");
    int claimant = wholePercent(fault, "claimant_fault_pct");
    int respondent = wholePercent(fault, "respondent_fault_pct");
    int none = wholePercent(fault, "no_fault_pct");
    if (claimant + respondent + none != 100) {
      throw new InvalidDocumentException(
          "/ajp_decision/fault_determination",
          "claimant_fault_pct, respondent_fault_pct and no_fault_pct sum to 100, not "
              + (claimant + respondent + none));
    }
    String decisionId = d.path("decision_id").asText("");
    String reason =
        b.has("reason")
            ? STRICT.text(b, "", "reason", "the reason for the ruling")
            : "AJP decision "
                + decisionId
                + ": claimant "
                + claimant
                + "% at fault, respondent "
                + respondent
                + "%, no fault "
                + none
                + "%"
                + (fault.path("basis").isTextual()
                    ? " (" + fault.path("basis").asText() + ")"
                    : "");
    if (reason.isBlank() || reason.length() > 2000) {
      throw new InvalidDocumentException("/reason", "a non-blank text of at most 2000 characters");
    }
    return new Command.Ruling(
        null, reason, new Command.AjpDecision(decisionId, claimId, claimant, respondent, none));
  }

  private static int wholePercent(ObjectNode fault, String member) {
    JsonNode n = fault.get(member);
    if (n == null || !n.isIntegralNumber() || n.asInt(-1) < 0 || n.asInt(-1) > 100) {
      throw new InvalidDocumentException(
          "/ajp_decision/fault_determination/" + member, "a whole number from 0 to 100");
    }
    return n.asInt();
  }

  public static Command.Seal seal(JsonNode body) {
    return new Command.Seal(SealRequest.parse(body));
  }

  public static Command.Validate validate(JsonNode body) {
    ObjectNode b = STRICT.object(body, "", "a validate request");
    STRICT.allowOnly(b, "", "content", "format");
    return new Command.Validate(
        STRICT.text(b, "", "content", "the delivered work, as text"),
        Optional.ofNullable(STRICT.optionalText(b, "", "format")));
  }

  /** {@code {"reason": "..."}}: why the operator suspends an evaluator (shown to everyone). */
  public static Suspension suspension(JsonNode body) {
    ObjectNode b = STRICT.object(body, "", "a suspension");
    STRICT.allowOnly(b, "", "reason");
    String reason =
        STRICT.text(
            b, "", "reason", "why the evaluator is suspended, shown to it and in the registry");
    String control = ControlCharacters.problemWith(reason);
    if (reason.isBlank() || reason.length() > Suspension.MAX_REASON || control != null) {
      throw new InvalidDocumentException(
          "/reason",
          control != null
              ? control
              : "a non-blank text of at most " + Suspension.MAX_REASON + " characters");
    }
    return new Suspension(reason.strip());
  }

  /**
   * A canary set, as the JSON array of a canary file ({@code PUT /admin/canaries}); every problem
   * named by the pointer of its canary.
   */
  public static CanarySet canaries(JsonNode body) {
    return CanarySet.fromJson(isAbsent(body) ? null : body);
  }

  private static boolean isAbsent(JsonNode body) {
    return body == null || body.isNull() || body.isMissingNode();
  }

  private static Role signingRole(String party) {
    return switch (party) {
      case "client" -> Role.CLIENT;
      case "provider" -> Role.PROVIDER;
      default ->
          throw new InvalidDocumentException(
              "/party", "must be \"client\" or \"provider\", not '" + party + "'");
    };
  }
}
