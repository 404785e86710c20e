package dev.asa.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.lifecycle.State;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * An agreement's escrow ({@code GET /agreements/{id}/escrow}): its status, what it holds, the
 * provider's collateral, every ledger transfer and every payment message (webhook), and for an x402
 * escrow the payment requirements a client's payload must accept. The rest of a binding's own
 * description (the x402 {@code PaymentRequired}, an ERC-8183 binding's jobs) is in {@link #json()}.
 *
 * @param agreementId the agreement
 * @param state the agreement's lifecycle state
 * @param status {@code unfunded}, {@code held}, {@code frozen} (a dispute), {@code settled}, {@code
 *     nothing_held}, or {@code not_required} when the terms hold nothing in escrow
 * @param binding how it pays, e.g. {@code ledger}, {@code http_callback}, {@code x402}
 * @param enabled whether the terms hold money in escrow at all
 * @param amount what the terms put in escrow, when they name a payment
 * @param currency its currency code, when they name a payment
 * @param balances what the escrow account holds now, per currency code (exact decimals), in the
 *     server's order
 * @param collateral the provider's collateral, when the terms ask for one
 * @param transfers the ledger transfers of this agreement, oldest first
 * @param messages the payment messages sent to the binding's endpoint, oldest first
 * @param x402Requirements for an x402 escrow that can be funded, the requirements the client's
 *     payment must accept ({@code x402_requirements})
 * @param json the whole answer, a copy
 */
public record EscrowView(
    String agreementId,
    State state,
    String status,
    String binding,
    boolean enabled,
    Optional<BigDecimal> amount,
    Optional<String> currency,
    Map<String, BigDecimal> balances,
    Optional<Collateral> collateral,
    List<Transfer> transfers,
    List<Message> messages,
    Optional<PaymentRequirements> x402Requirements,
    ObjectNode json) {

  private static final String WHAT = "an escrow answer";

  /** Checks that nothing is null and keeps private copies. */
  public EscrowView {
    Objects.requireNonNull(agreementId, "agreementId");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(binding, "binding");
    Objects.requireNonNull(amount, "amount");
    Objects.requireNonNull(currency, "currency");
    balances = Collections.unmodifiableMap(new LinkedHashMap<>(balances));
    Objects.requireNonNull(collateral, "collateral");
    transfers = List.copyOf(transfers);
    messages = List.copyOf(messages);
    Objects.requireNonNull(x402Requirements, "x402Requirements");
    json = Objects.requireNonNull(json, "json").deepCopy();
  }

  /**
   * One ledger transfer: money from one account to another.
   *
   * @param transferId its id
   * @param kind {@code fund}, {@code hold}, {@code release} or {@code refund}; for a collateral,
   *     {@code deposit}, {@code stake}, {@code slash} or {@code return}
   * @param from the account debited
   * @param to the account credited
   * @param amount how much, an exact decimal
   * @param currency its currency code
   * @param at when
   */
  public record Transfer(
      String transferId,
      String kind,
      String from,
      String to,
      BigDecimal amount,
      String currency,
      Instant at) {

    /** Checks that nothing is null. */
    public Transfer {
      Objects.requireNonNull(transferId, "transferId");
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(from, "from");
      Objects.requireNonNull(to, "to");
      Objects.requireNonNull(amount, "amount");
      Objects.requireNonNull(currency, "currency");
      Objects.requireNonNull(at, "at");
    }

    static Transfer from(JsonNode t) {
      String what = "a transfer of " + WHAT;
      return new Transfer(
          Members.text(t, "transfer_id", what),
          Members.text(t, "kind", what),
          Members.text(t, "from", what),
          Members.text(t, "to", what),
          Members.decimal(t, "amount", what),
          Members.text(t, "currency", what),
          Members.instant(t, "at", what));
    }
  }

  /**
   * The provider's collateral ({@code collateral}), for terms with {@code escrow.collateral}.
   * Amounts are exact decimals.
   *
   * @param amount the stake the terms ask for
   * @param currency its currency code
   * @param status {@code awaiting}, {@code held}, {@code slashed}, {@code returned} or {@code
   *     not_staked}
   * @param trigger what slashed it, e.g. {@code verification_failure}, once slashed
   * @param slashed what went to the client, once settled
   * @param returned what went back to the provider, once settled
   */
  public record Collateral(
      BigDecimal amount,
      String currency,
      String status,
      Optional<String> trigger,
      Optional<BigDecimal> slashed,
      Optional<BigDecimal> returned) {

    /** Checks that nothing is null. */
    public Collateral {
      Objects.requireNonNull(amount, "amount");
      Objects.requireNonNull(currency, "currency");
      Objects.requireNonNull(status, "status");
      Objects.requireNonNull(trigger, "trigger");
      Objects.requireNonNull(slashed, "slashed");
      Objects.requireNonNull(returned, "returned");
    }

    static Collateral from(JsonNode c) {
      String what = "the collateral of " + WHAT;
      return new Collateral(
          Members.decimal(c, "amount", what),
          Members.text(c, "currency", what),
          Members.text(c, "status", what),
          Members.optionalText(c, "trigger"),
          Members.optionalDecimal(c, "slashed"),
          Members.optionalDecimal(c, "returned"));
    }
  }

  /**
   * One payment message to the binding's endpoint (a webhook) and how its delivery went.
   *
   * @param webhookId its id
   * @param kind what it announces, e.g. {@code escrow.hold}
   * @param destination where it is sent
   * @param status {@code pending}, {@code delivered} or {@code failed}
   * @param attempts how often it was tried
   * @param nextAttemptAt when it is tried next, while pending
   * @param lastError why the last attempt failed, if it did
   * @param deliveredAt when the endpoint took it, once it did
   */
  public record Message(
      String webhookId,
      String kind,
      String destination,
      String status,
      long attempts,
      Optional<Instant> nextAttemptAt,
      Optional<String> lastError,
      Optional<Instant> deliveredAt) {

    /** Checks that nothing is null. */
    public Message {
      Objects.requireNonNull(webhookId, "webhookId");
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(destination, "destination");
      Objects.requireNonNull(status, "status");
      Objects.requireNonNull(nextAttemptAt, "nextAttemptAt");
      Objects.requireNonNull(lastError, "lastError");
      Objects.requireNonNull(deliveredAt, "deliveredAt");
    }

    static Message from(JsonNode m) {
      String what = "a payment message of " + WHAT;
      return new Message(
          Members.text(m, "webhook_id", what),
          Members.text(m, "kind", what),
          Members.text(m, "destination", what),
          Members.text(m, "status", what),
          Members.integer(m, "attempts", what),
          Members.optionalInstant(m, "next_attempt_at"),
          Members.optionalText(m, "last_error"),
          Members.optionalInstant(m, "delivered_at"));
    }
  }

  /**
   * The x402 PaymentRequirements an x402 escrow offers ({@code x402_requirements}), as the x402
   * protocol names their members; what the facilitator adds for its kind ({@code extra}) is in
   * {@link EscrowView#json()}.
   *
   * @param scheme the payment scheme, e.g. {@code exact} or {@code upto}
   * @param network the network, e.g. {@code eip155:8453}
   * @param amount the escrow's amount in the asset's atomic units, a decimal string as x402 writes
   *     it
   * @param asset the token's address
   * @param payTo the address paid
   * @param maxTimeoutSeconds how long the payment's authorization must stay valid
   */
  public record PaymentRequirements(
      String scheme,
      String network,
      String amount,
      String asset,
      String payTo,
      long maxTimeoutSeconds) {

    /** Checks that nothing is null. */
    public PaymentRequirements {
      Objects.requireNonNull(scheme, "scheme");
      Objects.requireNonNull(network, "network");
      Objects.requireNonNull(amount, "amount");
      Objects.requireNonNull(asset, "asset");
      Objects.requireNonNull(payTo, "payTo");
    }

    static PaymentRequirements from(JsonNode r) {
      String what = "the x402 requirements of " + WHAT;
      return new PaymentRequirements(
          Members.text(r, "scheme", what),
          Members.text(r, "network", what),
          Members.text(r, "amount", what),
          Members.text(r, "asset", what),
          Members.text(r, "payTo", what),
          Members.integer(r, "maxTimeoutSeconds", what));
    }
  }

  /**
   * Reads an escrow answer.
   *
   * @param answer the body of {@code GET /agreements/{id}/escrow}
   * @return the view
   * @throws IllegalArgumentException if a member named above is missing or of the wrong kind; the
   *     message names it
   */
  public static EscrowView from(JsonNode answer) {
    ObjectNode o = Members.object(answer, WHAT);
    Map<String, BigDecimal> balances = new LinkedHashMap<>();
    JsonNode held = o.path("balances");
    for (var e : held.properties()) {
      balances.put(e.getKey(), Members.decimal(held, e.getKey(), WHAT + "'s balances"));
    }
    return new EscrowView(
        Members.text(o, "agreement_id", WHAT),
        Members.state(o, "state", WHAT),
        Members.text(o, "status", WHAT),
        Members.text(o, "binding", WHAT),
        Members.bool(o, "enabled", WHAT),
        Members.optionalDecimal(o, "amount"),
        Members.optionalText(o, "currency"),
        balances,
        Members.optionalChild(o, "collateral").map(Collateral::from),
        Members.objects(o, "transfers", WHAT).stream().map(Transfer::from).toList(),
        Members.objects(o, "messages", WHAT).stream().map(Message::from).toList(),
        Members.optionalChild(o, "x402_requirements").map(PaymentRequirements::from),
        o);
  }

  /**
   * The whole answer, a copy: change it freely.
   *
   * @return the answer as received
   */
  @Override
  public ObjectNode json() {
    return json.deepCopy();
  }
}
