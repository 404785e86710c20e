package dev.asa.negotiation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.Role;
import dev.asa.document.Agreement;
import dev.asa.document.AgreementDocuments;
import dev.asa.lifecycle.State;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The negotiation rules of whitepaper section 7.3, each in one method: turns and rounds ({@link
 * #checkSequence}), the round limit ({@link #roundLimit}), frozen accepted terms ({@link
 * #checkNotFrozen}), the asymmetry limit ({@link #checkAsymmetry}), validity after the change
 * ({@link #validate}, with {@link #renormalize}) and price bounds ({@link #priceFlag}).
 *
 * <p>Pure: no clock, no store. The caller passes the time, the stored state and the market median,
 * and persists what the {@link Outcome} says. Nothing is applied when a rule refuses a message.
 */
public final class Negotiator {
  private Negotiator() {}

  /** What a message did. */
  public sealed interface Outcome {
    NegotiationState next();
  }

  /**
   * The terms changed.
   *
   * @param newDocument the changed agreement: signatures removed (they covered the old terms),
   *     status negotiating; already validated. The caller records {@code next} as the agreement's
   *     negotiation fact (the document never holds it)
   * @param flag the price flag on the resulting price, or null
   * @param priceNote what the price bounds check found, for both parties
   */
  public record Changed(
      ObjectNode newDocument,
      NegotiationState next,
      List<Change> changes,
      PriceFlag flag,
      String priceNote)
      implements Outcome {
    public Changed {
      newDocument = newDocument.deepCopy();
      changes = List.copyOf(changes);
    }

    @Override
    public ObjectNode newDocument() {
      return newDocument.deepCopy();
    }
  }

  /**
   * The current terms (hash {@code next.acceptedHash()}) were accepted; they are frozen from now
   * on.
   */
  public record Accepted(NegotiationState next) implements Outcome {}

  /** The negotiation ended without agreement; the caller moves the agreement to REJECTED. */
  public record Rejected(NegotiationState next, String reason) implements Outcome {}

  /** One changed term, for the event log: before is a missing node when the term was absent. */
  public record Change(String path, JsonNode before, JsonNode after) {
    public Change {
      before = before.deepCopy();
      after = after.deepCopy();
    }
  }

  public static Outcome apply(
      Agreement current,
      Optional<NegotiationState> state,
      NegotiationMessage msg,
      Role party,
      Optional<MarketMedian> median,
      NegotiationPolicy policy,
      Instant now,
      Supplier<String> newNegotiationId) {
    Objects.requireNonNull(current, "current");
    Objects.requireNonNull(msg, "msg");
    Objects.requireNonNull(now, "now");
    if (party != Role.CLIENT && party != Role.PROVIDER) {
      throw new NegotiationRefusedException("only the client and the provider negotiate");
    }
    if (current.state() != State.PROPOSED && current.state() != State.NEGOTIATING) {
      throw new NegotiationRefusedException(
          "the agreement is "
              + current.state()
              + "; terms are negotiated only while PROPOSED or NEGOTIATING");
    }
    checkSequence(state, msg, party);
    NegotiationState next =
        state
            .map(s -> s.next(msg.round(), party, now))
            .orElseGet(() ->
                new NegotiationState(
                    newNegotiationId.get(), 1, party, now, now, null, null, false));

    Optional<Rejected> limit = roundLimit(next, policy);
    if (limit.isPresent()) {
      return limit.get();
    }
    return switch (msg.action()) {
      case REJECT ->
          new Rejected(
              next.endedNow(),
              "rejected by the " + party.wireName() + " (" + msg.rationale().wireName() + ")");
      case ACCEPT -> new Accepted(next.withAcceptedHash(current.hash().toString()));
      case PROPOSE, COUNTER -> change(current, next, msg, median, policy);
    };
  }

  /** Turns alternate, rounds count up by one, and later messages repeat the negotiation_id. */
  static void checkSequence(Optional<NegotiationState> state, NegotiationMessage msg, Role party) {
    if (state.isEmpty()) {
      if (msg.round() != 1) {
        throw new NegotiationRefusedException(
            "no negotiation has started on this agreement: the first message has round 1, not "
                + msg.round());
      }
      if (msg.negotiationId() != null) {
        throw new NegotiationRefusedException(
            "round 1 opens a negotiation: leave negotiation_id out, the server assigns it");
      }
      return;
    }
    NegotiationState s = state.get();
    if (s.ended()) {
      throw new NegotiationRefusedException("negotiation " + s.negotiationId() + " has ended");
    }
    if (!s.negotiationId().equals(msg.negotiationId())) {
      throw new NegotiationRefusedException(
          "wrong negotiation_id: this agreement's negotiation is " + s.negotiationId());
    }
    if (s.lastParty() == party) {
      throw new NegotiationRefusedException(
          "not your turn: the "
              + party.wireName()
              + " sent round "
              + s.round()
              + "; the "
              + party.counterparty().wireName()
              + " answers next");
    }
    if (msg.round() != s.round() + 1) {
      throw new NegotiationRefusedException(
          "wrong round "
              + msg.round()
              + ": the last message was round "
              + s.round()
              + ", so this one is round "
              + (s.round() + 1));
    }
  }

  /**
   * The message that would exceed maxRounds ends the negotiation, whatever its action: a bounded
   * negotiation cannot be extended by accepting late (whitepaper: "bounded ... ends with
   * REJECTED").
   */
  static Optional<Rejected> roundLimit(NegotiationState next, NegotiationPolicy policy) {
    if (next.round() <= policy.maxRounds()) {
      return Optional.empty();
    }
    return Optional.of(
        new Rejected(
            next.endedNow(),
            "round "
                + next.round()
                + " exceeds the "
                + policy.maxRounds()
                + "-round limit: the negotiation ends, agreement REJECTED"));
  }

  /** Accepted terms are what the parties sign, so they no longer move. */
  static void checkNotFrozen(NegotiationState next) {
    if (next.acceptedHash() != null) {
      throw new NegotiationRefusedException(
          "the terms were accepted (agreement_hash "
              + next.acceptedHash()
              + ") and are frozen: sign them or reject; no further changes");
    }
  }

  private static Changed change(
      Agreement current,
      NegotiationState next,
      NegotiationMessage msg,
      Optional<MarketMedian> median,
      NegotiationPolicy policy) {
    checkNotFrozen(next);
    ObjectNode before = current.toJson();
    ObjectNode doc = before;
    for (NegotiationMessage.Change c : msg.changes()) {
      c.path().checkValue(c.value(), doc);
      doc = c.path().write(doc, c.value());
    }
    if (msg.renormalizeWeights()) {
      doc = renormalize(doc);
    }
    ObjectNode changed = doc;
    List<Change> changes = diff(before, changed);
    checkAsymmetry(before, changes, policy);

    PriceFlag flag = median.flatMap(m -> priceFlag(changed, m, policy)).orElse(null);
    NegotiationState state = next.withPriceFlag(flag);
    doc.remove("signatures");
    doc.put("status", State.NEGOTIATING.wireName());
    validate(doc);
    String note =
        flag != null
            ? "price "
                + flag.amount().toPlainString()
                + " is "
                + flag.ratio().toPlainString()
                + "x the market median "
                + flag.median().toPlainString()
                + " ("
                + flag.source()
                + "), outside "
                + policy.priceBandLow()
                + "x-"
                + policy.priceBandHigh()
                + "x: flagged"
            : median.isPresent()
                ? "price within "
                    + policy.priceBandLow()
                    + "x-"
                    + policy.priceBandHigh()
                    + "x of the market median"
                : "no market median for this service type: price bounds not checked";
    return new Changed(doc, state, changes, flag, note);
  }

  /**
   * Every whitelisted term whose value differs, in whitelist order (renormalised weights included).
   */
  static List<Change> diff(ObjectNode before, ObjectNode after) {
    List<Change> out = new ArrayList<>();
    int dims =
        Math.max(
            before.at("/quality_criteria/dimensions").size(),
            after.at("/quality_criteria/dimensions").size());
    for (TermPath p : TermPath.all(Math.min(dims, TermPath.MAX_DIMENSION_INDEX + 1))) {
      JsonNode b = p.read(before);
      JsonNode a = p.read(after);
      if (!sameValue(b, a)) {
        out.add(new Change(p.path(), b, a));
      }
    }
    return out;
  }

  private static boolean sameValue(JsonNode a, JsonNode b) {
    if (a.isNumber() && b.isNumber()) {
      return a.decimalValue().compareTo(b.decimalValue()) == 0;
    }
    return a.equals(b);
  }

  /**
   * No round moves a numeric term by more than maxShift of its current value (exactly maxShift is
   * allowed). A term at 0 may only stay at 0, and a term without a current value cannot be set:
   * either way there is nothing to take a share of, and an unbounded first move is what the rule is
   * there to prevent.
   */
  static void checkAsymmetry(ObjectNode before, List<Change> changes, NegotiationPolicy policy) {
    for (Change c : changes) {
      TermPath p = TermPath.parse(c.path());
      if (!(p instanceof TermPath.Numeric n)) {
        continue;
      }
      if (c.before().isMissingNode() || !(c.before().isNumber() || c.before().isTextual())) {
        throw new NegotiationRefusedException(
            c.path()
                + " has no numeric current value, so no move can be measured against it; a negotiation"
                + " moves existing terms only");
      }
      BigDecimal cur = n.numeric(c.before());
      BigDecimal now = n.numeric(c.after());
      BigDecimal slack = cur.abs().multiply(policy.maxShift());
      BigDecimal low = cur.subtract(slack);
      BigDecimal high = cur.add(slack);
      if (now.compareTo(low) < 0 || now.compareTo(high) > 0) {
        throw new NegotiationRefusedException(
            c.path()
                + ": "
                + plain(now)
                + " moves more than "
                + plain(policy.maxShift().multiply(BigDecimal.valueOf(100)))
                + "% from the current value "
                + plain(cur)
                + " in one round; allowed range ["
                + plain(low)
                + ", "
                + plain(high)
                + "]");
      }
    }
  }

  /** Scales the weights to sum 1 (to 6 decimals; the validator allows 0.001), only when asked. */
  static ObjectNode renormalize(ObjectNode doc) {
    JsonNode dims = doc.at("/quality_criteria/dimensions");
    if (!(dims instanceof ArrayNode array)) {
      return doc;
    }
    BigDecimal sum = BigDecimal.ZERO;
    for (JsonNode d : array) {
      if (d.path("weight").isNumber()) {
        sum = sum.add(d.path("weight").decimalValue());
      }
    }
    if (sum.signum() == 0) {
      throw new InvalidDocumentException(
          "/renormalize_weights", "the weights sum to 0: nothing to renormalise");
    }
    for (JsonNode d : array) {
      if (d instanceof ObjectNode o && o.path("weight").isNumber()) {
        BigDecimal w = o.path("weight").decimalValue().divide(sum, 6, RoundingMode.HALF_EVEN);
        o.put("weight", w.doubleValue());
      }
    }
    return doc;
  }

  /** The changed document must still be a valid agreement (weights summing to 1 included). */
  static void validate(ObjectNode doc) {
    AgreementDocuments.read(doc);
  }

  /** Outside [low x median, high x median] is flagged; the bounds themselves are not. */
  static Optional<PriceFlag> priceFlag(
      ObjectNode doc, MarketMedian median, NegotiationPolicy policy) {
    JsonNode a = doc.at("/escrow/payment/amount");
    if (!a.isTextual()) {
      return Optional.empty();
    }
    BigDecimal amount = new BigDecimal(a.asText());
    BigDecimal m = median.median();
    if (amount.compareTo(m.multiply(policy.priceBandLow())) >= 0
        && amount.compareTo(m.multiply(policy.priceBandHigh())) <= 0) {
      return Optional.empty();
    }
    BigDecimal ratio = amount.divide(m, 4, RoundingMode.HALF_EVEN);
    return Optional.of(new PriceFlag(amount, m, median.source(), ratio));
  }

  private static String plain(BigDecimal d) {
    return d.stripTrailingZeros().toPlainString();
  }
}
