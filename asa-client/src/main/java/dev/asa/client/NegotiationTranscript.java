package dev.asa.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.lifecycle.State;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An agreement's negotiation as a transcript ({@code GET /agreements/{id}/negotiation}): every
 * counter, acceptance and rejection from the event log, oldest first, each changed term with its
 * value before and after. The negotiation's own state, the parties' standing evaluator proposals
 * and each party's record as the other sees it are in {@link #json()}.
 *
 * @param agreementId the agreement
 * @param state the agreement's lifecycle state now
 * @param rounds the messages, oldest first; empty while the terms are as proposed
 * @param json the whole answer, a copy
 */
public record NegotiationTranscript(
    String agreementId, State state, List<Round> rounds, ObjectNode json) {

  private static final String WHAT = "a negotiation transcript";

  /** Checks that nothing is null and keeps private copies. */
  public NegotiationTranscript {
    Objects.requireNonNull(agreementId, "agreementId");
    Objects.requireNonNull(state, "state");
    rounds = List.copyOf(rounds);
    json = Objects.requireNonNull(json, "json").deepCopy();
  }

  /**
   * One message of the negotiation, or the server's rejection when it timed out.
   *
   * @param round the negotiation's round
   * @param at when it was recorded
   * @param event the event it recorded: {@code negotiated}, {@code accepted} or {@code rejected}
   * @param party who sent it, {@code client} or {@code provider}; empty when the server ended the
   *     negotiation (a timeout)
   * @param action {@code counter}, {@code accept} or {@code reject}; empty when the server ended
   *     the negotiation
   * @param rationaleCode the reason the party gave, e.g. {@code price_too_high}
   * @param changes for a counter, each term it changed
   * @param priceNote for a counter, what the price bounds said of its price; empty when they said
   *     nothing
   * @param priceFlag for a counter, the flag on a price outside the band around the market median
   * @param reason for a rejection, why
   * @param agreementHash the terms' {@code sha256:...} after the message, when it leaves terms to
   *     sign
   */
  public record Round(
      long round,
      Instant at,
      String event,
      Optional<String> party,
      Optional<String> action,
      Optional<String> rationaleCode,
      List<Change> changes,
      Optional<String> priceNote,
      Optional<PriceFlag> priceFlag,
      Optional<String> reason,
      Optional<String> agreementHash) {

    /** Checks that nothing is null and keeps a private copy of the changes. */
    public Round {
      Objects.requireNonNull(at, "at");
      Objects.requireNonNull(event, "event");
      Objects.requireNonNull(party, "party");
      Objects.requireNonNull(action, "action");
      Objects.requireNonNull(rationaleCode, "rationaleCode");
      changes = List.copyOf(changes);
      Objects.requireNonNull(priceNote, "priceNote");
      Objects.requireNonNull(priceFlag, "priceFlag");
      Objects.requireNonNull(reason, "reason");
      Objects.requireNonNull(agreementHash, "agreementHash");
    }

    static Round from(JsonNode r) {
      String what = "a round of " + WHAT;
      return new Round(
          Members.integer(r, "round", what),
          Members.instant(r, "at", what),
          Members.text(r, "event", what),
          Members.optionalText(r, "party"),
          Members.optionalText(r, "action"),
          Members.optionalText(r, "rationale_code"),
          Members.objects(r, "changes", what).stream().map(Change::from).toList(),
          Members.optionalText(r, "price_note").filter(note -> !note.isEmpty()),
          Members.optionalChild(r, "price_flag").map(PriceFlag::from),
          Members.optionalText(r, "reason"),
          Members.optionalText(r, "agreement_hash"));
    }
  }

  /**
   * One term a counter changed. A term's value is whatever JSON the agreement document holds there.
   *
   * @param path the term's dotted path, e.g. {@code escrow.payment.amount}
   * @param before its value before; empty when the term was not set
   * @param after its value after; empty when the counter removed it
   */
  public record Change(String path, Optional<JsonNode> before, Optional<JsonNode> after) {

    /** Checks that nothing is null and keeps private copies of the values. */
    public Change {
      Objects.requireNonNull(path, "path");
      before = before.map(JsonNode::deepCopy);
      after = after.map(JsonNode::deepCopy);
    }

    static Change from(JsonNode c) {
      return new Change(
          Members.text(c, "path", "a change of " + WHAT), value(c, "before"), value(c, "after"));
    }

    private static Optional<JsonNode> value(JsonNode c, String name) {
      JsonNode v = c.path(name);
      return v.isMissingNode() || v.isNull() ? Optional.empty() : Optional.of(v);
    }

    /**
     * The value before, a copy: change it freely.
     *
     * @return the value, or empty when the term was not set
     */
    @Override
    public Optional<JsonNode> before() {
      return before.map(JsonNode::deepCopy);
    }

    /**
     * The value after, a copy: change it freely.
     *
     * @return the value, or empty when the counter removed the term
     */
    @Override
    public Optional<JsonNode> after() {
      return after.map(JsonNode::deepCopy);
    }
  }

  /**
   * A price outside the band around the market median: flagged, not blocked (whitepaper 7.3).
   * Amounts are the exact decimals the server wrote.
   *
   * @param amount the price proposed
   * @param median the median it was compared with
   * @param source where the median came from, e.g. {@code closed_agreements}
   * @param ratio the price over the median, rounded to 4 decimals for display
   */
  public record PriceFlag(BigDecimal amount, BigDecimal median, String source, BigDecimal ratio) {

    /** Checks that nothing is null. */
    public PriceFlag {
      Objects.requireNonNull(amount, "amount");
      Objects.requireNonNull(median, "median");
      Objects.requireNonNull(source, "source");
      Objects.requireNonNull(ratio, "ratio");
    }

    static PriceFlag from(JsonNode f) {
      String what = "a price flag of " + WHAT;
      return new PriceFlag(
          Members.decimal(f, "amount", what),
          Members.decimal(f, "median", what),
          Members.text(f, "source", what),
          Members.decimal(f, "ratio", what));
    }
  }

  /**
   * Reads a transcript.
   *
   * @param answer the body of {@code GET /agreements/{id}/negotiation}
   * @return the view
   * @throws IllegalArgumentException if a member named above is missing or of the wrong kind; the
   *     message names it
   */
  public static NegotiationTranscript from(JsonNode answer) {
    ObjectNode o = Members.object(answer, WHAT);
    return new NegotiationTranscript(
        Members.text(o, "agreement_id", WHAT),
        Members.state(o, "state", WHAT),
        Members.requiredObjects(o, "rounds", WHAT).stream().map(Round::from).toList(),
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
