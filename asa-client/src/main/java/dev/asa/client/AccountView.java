package dev.asa.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A key's ledger account ({@code GET /accounts/{key}}, readable by that key and the operator): its
 * balances and its newest entries.
 *
 * @param account the account, e.g. {@code party:<key>}
 * @param balances what the account holds, per currency code (exact decimals, negative for money
 *     that left it), in the server's order
 * @param complete false when the account has more entries than were listed
 * @param entries the newest entries, newest first
 * @param json the whole answer, a copy
 */
public record AccountView(
    String account,
    Map<String, BigDecimal> balances,
    boolean complete,
    List<Entry> entries,
    ObjectNode json) {

  private static final String WHAT = "an account answer";

  /** Checks that nothing is null and keeps private copies. */
  public AccountView {
    Objects.requireNonNull(account, "account");
    balances = Collections.unmodifiableMap(new LinkedHashMap<>(balances));
    entries = List.copyOf(entries);
    json = Objects.requireNonNull(json, "json").deepCopy();
  }

  /**
   * One leg of a ledger transfer on this account.
   *
   * @param transferId the transfer's id
   * @param agreementId the agreement it belongs to
   * @param kind e.g. {@code fund}, {@code hold}, {@code release}, {@code refund}
   * @param direction {@code credit} or {@code debit}
   * @param amount how much, an exact decimal
   * @param currency its currency code
   * @param at when
   */
  public record Entry(
      String transferId,
      String agreementId,
      String kind,
      String direction,
      BigDecimal amount,
      String currency,
      Instant at) {

    /** Checks that nothing is null. */
    public Entry {
      Objects.requireNonNull(transferId, "transferId");
      Objects.requireNonNull(agreementId, "agreementId");
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(direction, "direction");
      Objects.requireNonNull(amount, "amount");
      Objects.requireNonNull(currency, "currency");
      Objects.requireNonNull(at, "at");
    }

    static Entry from(JsonNode e) {
      String what = "an entry of " + WHAT;
      return new Entry(
          Members.text(e, "transfer_id", what),
          Members.text(e, "agreement_id", what),
          Members.text(e, "kind", what),
          Members.text(e, "direction", what),
          Members.decimal(e, "amount", what),
          Members.text(e, "currency", what),
          Members.instant(e, "at", what));
    }
  }

  /**
   * Reads an account.
   *
   * @param answer the body of {@code GET /accounts/{key}}
   * @return the view
   * @throws IllegalArgumentException if a member named above is missing or of the wrong kind; the
   *     message names it
   */
  public static AccountView from(JsonNode answer) {
    ObjectNode o = Members.object(answer, WHAT);
    return new AccountView(
        Members.text(o, "account", WHAT),
        Members.decimals(o, "balances", WHAT),
        Members.bool(o, "complete", WHAT),
        Members.requiredObjects(o, "entries", WHAT).stream().map(Entry::from).toList(),
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
