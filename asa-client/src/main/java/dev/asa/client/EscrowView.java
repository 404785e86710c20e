package dev.asa.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * An agreement's escrow ({@code GET /agreements/{id}/escrow}): its status, what it holds and every
 * ledger transfer. Payment messages (webhooks) and x402 requirements are in {@link #json()}.
 *
 * @param agreementId the agreement
 * @param status {@code unfunded}, {@code held}, {@code frozen} (a dispute), {@code settled}, {@code
 *     nothing_held}, or {@code not_required} when the terms hold nothing in escrow
 * @param binding how it pays, e.g. {@code ledger}, {@code http_callback}, {@code x402}
 * @param enabled whether the terms hold money in escrow at all
 * @param amount what the terms put in escrow, when they name a payment
 * @param currency its currency code, when they name a payment
 * @param balances what the escrow account holds now, per currency code (exact decimals)
 * @param transfers the ledger transfers of this agreement, oldest first
 * @param json the whole answer, a copy
 */
public record EscrowView(
    String agreementId,
    String status,
    String binding,
    boolean enabled,
    Optional<BigDecimal> amount,
    Optional<String> currency,
    Map<String, BigDecimal> balances,
    List<Transfer> transfers,
    ObjectNode json) {

  private static final String WHAT = "an escrow answer";

  /** Checks that nothing is null and keeps private copies. */
  public EscrowView {
    Objects.requireNonNull(agreementId, "agreementId");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(binding, "binding");
    Objects.requireNonNull(amount, "amount");
    Objects.requireNonNull(currency, "currency");
    balances = Map.copyOf(balances);
    transfers = List.copyOf(transfers);
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
        Members.text(o, "status", WHAT),
        Members.text(o, "binding", WHAT),
        Members.bool(o, "enabled", WHAT),
        Members.optionalDecimal(o, "amount"),
        Members.optionalText(o, "currency"),
        balances,
        Members.objects(o, "transfers", WHAT).stream().map(Transfer::from).toList(),
        o);
  }

  /**
   * The provider's collateral, for terms with {@code escrow.collateral}: the terms ({@code amount},
   * {@code currency}, {@code slash_on}, {@code slash_percent}), its {@code status} ({@code
   * awaiting}, {@code held}, {@code slashed}, {@code returned}, {@code not_staked}), and once
   * settled what was {@code slashed} and {@code returned} and the {@code trigger}.
   *
   * @return a copy, or empty when the terms ask for no collateral
   */
  public Optional<ObjectNode> collateral() {
    return json.get("collateral") instanceof ObjectNode c
        ? Optional.of(c.deepCopy())
        : Optional.empty();
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
