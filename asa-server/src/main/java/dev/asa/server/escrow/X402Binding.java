package dev.asa.server.escrow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.Money;
import dev.asa.document.Agreement;
import dev.asa.json.Json;
import dev.asa.scoring.Settlement;
import dev.asa.server.escrow.x402.Authorization;
import dev.asa.server.escrow.x402.Requirements;
import dev.asa.server.escrow.x402.X402;
import dev.asa.server.store.Write;
import dev.asa.server.store.escrow.LedgerStore;
import dev.asa.server.store.escrow.OutboxMessage;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code x402}: the client pays through an x402 facilitator (protocol version 2, scheme {@code
 * upto}). At funding the client's payment authorization for the whole escrow is checked by this
 * server and by the facilitator's {@code /verify}, then kept out of the readable document (whoever
 * holds it could settle it). At settlement the server asks the facilitator's {@code /settle} for
 * the released amount only, through the outbox; what is not settled is never taken from the client,
 * which is how the refund happens on this rail.
 *
 * <p>The requirements offered carry what the facilitator's {@code GET /supported} adds for its kind
 * (for {@code upto}, the {@code facilitatorAddress} a payer's Permit2 witness must name), as an
 * x402 resource server fills them in; an agreement whose binding the facilitator cannot serve is
 * refused at creation.
 *
 * <p>The {@code exact} scheme (EIP-3009) settles the whole signed amount or nothing, so it serves
 * only agreements whose every release is all or nothing: {@link Enforcement#check} refuses terms
 * that could release a part (tiers between 0 and 100 percent, continuous release, a 50/50 split on
 * timeout), and rulings must then release 0 or 100 percent.
 */
final class X402Binding implements EscrowBinding {
  /**
   * What {@code maxTimeoutSeconds} offers beyond the settlement horizon. The official x402 clients
   * sign an authorization valid until their own clock's whole second plus {@code
   * maxTimeoutSeconds}; the slack covers that rounding, the time between their signing and this
   * server's check, and a client clock up to five minutes behind.
   */
  static final Duration CLOCK_SLACK = Duration.ofMinutes(5);

  private final X402Facilitator facilitator;
  private final LedgerStore ledger;

  X402Binding(X402Facilitator facilitator, LedgerStore ledger) {
    this.facilitator = facilitator;
    this.ledger = ledger;
  }

  @Override
  public String type() {
    return "x402";
  }

  @Override
  public void check(JsonNode binding, Money amount) {
    facilitatorExtra(X402.requirements(binding, amount, 60));
  }

  /** An {@code exact} authorization (EIP-3009) moves its whole value or nothing. */
  @Override
  public Optional<String> wholeReleasesOnly(JsonNode binding) {
    return binding.path("scheme").asText(X402.UPTO).equals(X402.EXACT)
        ? Optional.of(
            "its x402 exact authorization (EIP-3009) can only move the whole amount or nothing")
        : Optional.empty();
  }

  /**
   * What the facilitator adds to requirements like {@code r}: the {@code extra} of its kind.
   *
   * @throws InvalidDocumentException when it does not support the kind, or an {@code upto} kind
   *     names no {@code facilitatorAddress} (no payer could then sign a Permit2 witness it can
   *     settle), or the binding names another one
   */
  private ObjectNode facilitatorExtra(Requirements r) {
    X402Facilitator.Kind kind =
        facilitator
            .kind(r.scheme(), r.network())
            .orElseThrow(() ->
                new InvalidDocumentException(
                    "/escrow/binding/network",
                    "the x402 facilitator at "
                        + facilitator.supportedUri()
                        + " does not support the "
                        + r.scheme()
                        + " scheme on "
                        + r.network()
                        + " (it supports: "
                        + String.join(", ", facilitator.kindsSupported())
                        + "); choose a network and scheme it supports"));
    ObjectNode extra = kind.extra() == null ? Json.object() : kind.extra();
    JsonNode address = extra.get("facilitatorAddress");
    if (r.scheme().equals(X402.UPTO) && (address == null || !address.isTextual())) {
      throw new InvalidDocumentException(
          "/escrow/binding/scheme",
          "the x402 facilitator at "
              + facilitator.supportedUri()
              + " names no facilitatorAddress for upto on "
              + r.network()
              + ", which the payer's Permit2 witness must name: this server could never settle"
              + " such a payment");
    }
    ObjectNode own = r.extra();
    if (address != null
        && own != null
        && own.path("facilitatorAddress").isTextual()
        && !X402.sameAddress(own.get("facilitatorAddress").textValue(), address.textValue())) {
      throw new InvalidDocumentException(
          "/escrow/binding/extra/facilitatorAddress",
          "names "
              + own.get("facilitatorAddress").textValue()
              + ", but the facilitator this server settles with is "
              + address.textValue()
              + "; leave it out: the server fills it in");
    }
    return extra;
  }

  @Override
  public Funded fund(Agreement a, ObjectNode body, Instant now) {
    JsonNode payload = body.get("x402");
    if (body.isEmpty()) {
      throw new PaymentRequiredException(
          "this escrow is funded by an x402 payment: send the PaymentPayload in the "
              + X402.PAYMENT_SIGNATURE_HEADER
              + " header (base64 of its JSON) or as {\"x402\": PaymentPayload}, accepting the"
              + " requirements in "
              + X402.PAYMENT_REQUIRED_HEADER,
          paymentRequired(a, offered(a), "payment required to fund the escrow"));
    }
    if (payload == null || body.size() != 1) {
      throw new InvalidDocumentException(
          "/x402",
          "required, and alone: the client's x402 v2 PaymentPayload authorizing the"
              + " escrow amount (GET /agreements/{id}/escrow shows the requirements it must accept)");
    }
    Duration horizon = Enforcement.settlementHorizon(a);
    Requirements requirements = offered(a);
    ObjectNode checked = X402.parsePayload(payload, requirements, now);
    // Whole seconds, as the authorization's own times are.
    Instant mustLast = Instant.ofEpochSecond(now.getEpochSecond()).plus(horizon);
    Instant expires = Authorization.of(checked).expiresAt();
    if (expires.isBefore(mustLast)) {
      throw new InvalidDocumentException(
          "/x402/payload",
          "the authorization expires at "
              + expires
              + ", before this escrow may have to settle (as late as "
              + mustLast
              + "); sign one valid until then");
    }
    X402Facilitator.VerifyResult verified = facilitator.verify(checked, requirements);
    if (!verified.isValid()) {
      throw new InvalidDocumentException(
          "/x402", "the x402 facilitator refused the authorization: " + verified.invalidReason());
    }
    ObjectNode facts = Json.object();
    facts.put("payer", verified.payer());
    facts.put("scheme", requirements.scheme());
    facts.put("network", requirements.network());
    facts.put("asset", requirements.asset());
    facts.put("pay_to", requirements.payTo());
    facts.put("authorized_atomic_amount", requirements.amount());
    facts.put("authorization_expires_at", expires.toString());
    return new Funded(
        List.of(new Write.PutAuthorization(a.id(), type(), Json.write(checked), now)), facts);
  }

  @Override
  public List<Write> settle(Agreement a, Settlement split, String reason, Instant now) {
    List<Write> writes = new ArrayList<>();
    if (split.released().amount().signum() == 0) {
      return writes; // nothing to settle: the authorization lapses, the client keeps everything
    }
    ObjectNode payload =
        (ObjectNode)
            Json.parseTrusted(
                ledger
                    .authorization(a.id())
                    .orElseThrow(() ->
                        new IllegalStateException(
                            "agreement "
                                + a.id()
                                + " is funded by x402 but has no authorization")));
    // What the client accepted at funding, whatever the facilitator says today: its upto kind may
    // name another of its signers by now, and the authorization names the one it named then.
    Requirements atAmount =
        Requirements.fromJson(payload.get("accepted"), X402.PAYLOAD_POINTER + "/accepted")
            .withAmount(X402.atomicAmount(split.released()));
    writes.add(
        new Write.Enqueue(
            new OutboxMessage(
                "msg_" + a.id() + "_x402_settle",
                a.id(),
                "x402.settle",
                facilitator.settleUri().toString(),
                X402.settleBody(payload, atAmount),
                now,
                0)));
    return writes;
  }

  /** The PaymentRequirements the client's payload must accept, so it can build one. */
  @Override
  public ObjectNode describe(Agreement a) {
    ObjectNode o = Json.object();
    Requirements offered;
    try {
      offered = offered(a);
    } catch (X402Facilitator.FacilitatorUnavailableException | InvalidDocumentException e) {
      // The view still shows the escrow; what cannot be offered now says why.
      o.put("x402_unavailable", e.getMessage());
      return o;
    }
    o.set("x402_requirements", offered.toJson());
    o.set("x402_payment_required", paymentRequired(a, offered, null));
    return o;
  }

  /**
   * What an x402 client reads to pay: the offered requirements, for the agreement's fund route (a
   * path: the server may be reached under several URLs).
   */
  private static ObjectNode paymentRequired(Agreement a, Requirements offered, String error) {
    return X402.paymentRequired(
        offered, "/agreements/" + a.id() + "/fund", "the escrow of ASA agreement " + a.id(), error);
  }

  /**
   * The requirements this escrow offers: the whole amount, for the horizon and its slack, with the
   * binding's {@code extra} and then what the facilitator adds for the kind ({@code upto}: {@code
   * assetTransferMethod} "permit2" and its {@code facilitatorAddress}), as the official x402 server
   * fills them in.
   */
  private Requirements offered(Agreement a) {
    Requirements r =
        X402.requirements(
            a.member("escrow").path("binding"),
            a.terms().escrow().paymentTerms().orElseThrow().amount(),
            (int)
                Math.min(
                    Integer.MAX_VALUE,
                    Enforcement.settlementHorizon(a).plus(CLOCK_SLACK).toSeconds()));
    ObjectNode extra = r.extra() == null ? Json.object() : r.extra();
    if (r.scheme().equals(X402.UPTO)) {
      extra.put("assetTransferMethod", "permit2");
    }
    facilitatorExtra(r).properties().forEach(e -> extra.putIfAbsent(e.getKey(), e.getValue()));
    return new Requirements(
        r.scheme(), r.network(), r.amount(), r.asset(), r.payTo(), r.maxTimeoutSeconds(), extra);
  }
}
