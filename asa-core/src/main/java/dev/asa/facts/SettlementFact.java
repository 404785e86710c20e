package dev.asa.facts;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.agreement.Money;
import dev.asa.scoring.Settlement;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * How an agreement's money was finally split; nothing changes it afterwards. Immutable.
 *
 * <p>A settlement is one of three kinds, each with only the members it has:
 *
 * <ul>
 *   <li>{@link Moved}: the escrow held the money and the settlement moved it, under a binding;
 *   <li>{@link NothingMoved}: the terms name an amount but nothing was held (never funded, a zero
 *       amount, escrow disabled); the amounts are what the terms say and a note says why;
 *   <li>{@link WithoutPaymentTerms}: the agreement has no payment terms at all.
 * </ul>
 *
 * <p>Each shares when it settled, why ({@code verification_result}, {@code ruling}, a timer's
 * name...) and the percentage released to the provider, and records how the agreement then ended
 * ({@link Ending}): closed on its verification result, closed on a ruling, or expired by a
 * dead-man's switch. It ends once: {@link #closedOnResult}, {@link #closedOnRuling} and {@link
 * #expired} refuse a settlement that has already ended.
 *
 * <p>Its one JSON form ({@link FactCodec}, laid out by {@link SettlementForm}) is what agreements
 * store and events carry; it is the same, member for member and in the same order, as the single
 * record this type replaced wrote.
 */
public sealed interface SettlementFact extends TypedFact
    permits SettlementFact.Moved, SettlementFact.NothingMoved, SettlementFact.WithoutPaymentTerms {

  /** When it settled. */
  Instant settledAt();

  /** Why it settled: {@code verification_result}, {@code ruling}, a timer's name... */
  String reason();

  /** The percentage of the amount released to the provider; the rest goes back to the client. */
  BigDecimal releasePercent();

  /** How the agreement ended with this settlement; empty until it is closed or expires. */
  Optional<Ending> ending();

  // ---- the kinds ---------------------------------------------------------------------------

  /** The money held in escrow moved: released to the provider, refunded to the client. */
  record Moved(
      Instant settledAt,
      String reason,
      BigDecimal releasePercent,
      Amounts amounts,
      String binding,
      Optional<Ending> ending)
      implements SettlementFact {
    public Moved {
      requireShared(settledAt, reason, releasePercent, ending);
      Objects.requireNonNull(amounts, "amounts");
      Objects.requireNonNull(binding, "binding");
    }
  }

  /**
   * The terms name an amount but nothing was held, so nothing moved: the amounts are what the terms
   * say, and {@code note} says why.
   */
  record NothingMoved(
      Instant settledAt,
      String reason,
      BigDecimal releasePercent,
      Amounts amounts,
      String note,
      Optional<Ending> ending)
      implements SettlementFact {
    public NothingMoved {
      requireShared(settledAt, reason, releasePercent, ending);
      Objects.requireNonNull(amounts, "amounts");
      Objects.requireNonNull(note, "note");
    }
  }

  /** The agreement has no payment terms: there was never anything to move. */
  record WithoutPaymentTerms(
      Instant settledAt, String reason, BigDecimal releasePercent, Optional<Ending> ending)
      implements SettlementFact {
    public WithoutPaymentTerms {
      requireShared(settledAt, reason, releasePercent, ending);
    }
  }

  /**
   * The agreement's amount and how it splits, each as a decimal string in the currency's minor unit
   * ({@code "8.50"}), as they are stored.
   */
  record Amounts(
      String amount, String currency, String releasedToProvider, String refundedToClient) {
    public Amounts {
      Objects.requireNonNull(amount, "amount");
      Objects.requireNonNull(currency, "currency");
      Objects.requireNonNull(releasedToProvider, "releasedToProvider");
      Objects.requireNonNull(refundedToClient, "refundedToClient");
    }

    /** The amounts of {@code amount} divided as {@code split}, which must add up to it. */
    public static Amounts of(Money amount, Settlement split) {
      if (!split.total().equals(amount)) {
        throw new IllegalArgumentException(
            "the split " + split + " does not add up to the amount " + amount);
      }
      return new Amounts(
          amount.toWire(),
          amount.currency().code(),
          split.released().toWire(),
          split.refunded().toWire());
    }
  }

  // ---- named factories ---------------------------------------------------------------------

  /** Money held under {@code binding} moved as {@code amounts} say. */
  static SettlementFact moved(
      Instant at, String reason, BigDecimal releasePercent, Amounts amounts, String binding) {
    return new Moved(at, reason, releasePercent, amounts, binding, Optional.empty());
  }

  /** Nothing was held, so nothing moved; {@code note} says why. */
  static SettlementFact nothingMoved(
      Instant at, String reason, BigDecimal releasePercent, Amounts amounts, String note) {
    return new NothingMoved(at, reason, releasePercent, amounts, note, Optional.empty());
  }

  /** The agreement has no payment terms. */
  static SettlementFact withoutPaymentTerms(Instant at, String reason, BigDecimal releasePercent) {
    return new WithoutPaymentTerms(at, reason, releasePercent, Optional.empty());
  }

  // ---- how it ended ------------------------------------------------------------------------

  /** How the agreement ended with its settlement. */
  sealed interface Ending permits Ending.ClosedOnResult, Ending.ClosedOnRuling, Ending.Expired {

    /** When it closed or expired. */
    Instant at();

    /**
     * Closed on its verification result.
     *
     * @param autoFiledDispute the dispute filed for a low score as it closed (the dispute fact's
     *     JSON), if one was
     */
    record ClosedOnResult(Instant at, String verificationId, Optional<JsonNode> autoFiledDispute)
        implements Ending {
      public ClosedOnResult {
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(verificationId, "verificationId");
        autoFiledDispute =
            Objects.requireNonNull(autoFiledDispute, "autoFiledDispute").map(JsonNode::deepCopy);
      }

      @Override
      public Optional<JsonNode> autoFiledDispute() {
        return autoFiledDispute.map(JsonNode::deepCopy);
      }
    }

    /**
     * Closed on a ruling that settled a dispute.
     *
     * @param verificationId the verification result the dispute was about, if there was one
     */
    record ClosedOnRuling(Instant at, Optional<String> verificationId, JsonNode ruling)
        implements Ending {
      public ClosedOnRuling {
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(verificationId, "verificationId");
        ruling = Objects.requireNonNull(ruling, "ruling").deepCopy();
      }

      @Override
      public JsonNode ruling() {
        return ruling.deepCopy();
      }
    }

    /** Ended by a dead-man's switch. */
    record Expired(Instant at) implements Ending {
      public Expired {
        Objects.requireNonNull(at, "at");
      }
    }
  }

  /** The settlement as the agreement closed on its verification result {@code verificationId}. */
  default SettlementFact closedOnResult(
      Instant at, String verificationId, Optional<JsonNode> autoFiledDispute) {
    return ended(new Ending.ClosedOnResult(at, verificationId, autoFiledDispute));
  }

  /** The settlement as the agreement closed on {@code ruling}. */
  default SettlementFact closedOnRuling(
      Instant at, JsonNode ruling, Optional<String> verificationId) {
    return ended(new Ending.ClosedOnRuling(at, verificationId, ruling));
  }

  /** The settlement as a dead-man's switch ended the agreement. */
  default SettlementFact expired(Instant at) {
    return ended(new Ending.Expired(at));
  }

  // ---- derived -----------------------------------------------------------------------------

  /** Whether money moved (only a {@link Moved} settlement moves any). */
  default boolean moneyMoved() {
    return this instanceof Moved;
  }

  /** The escrow's status once settled. */
  default EscrowStatus escrowStatus() {
    return moneyMoved() ? EscrowStatus.SETTLED : EscrowStatus.NOTHING_HELD;
  }

  /** The dispute filed for a low score as the agreement closed on its result, if one was. */
  default Optional<JsonNode> autoFiledDispute() {
    return ending()
        .flatMap(e ->
            e instanceof Ending.ClosedOnResult result
                ? result.autoFiledDispute()
                : Optional.empty());
  }

  // ---- helpers -----------------------------------------------------------------------------

  private SettlementFact ended(Ending ending) {
    if (ending().isPresent()) {
      throw new IllegalStateException(
          "the settlement has already ended (" + ending().get() + "); it ends once");
    }
    Optional<Ending> e = Optional.of(ending);
    return switch (this) {
      case Moved m ->
          new Moved(m.settledAt(), m.reason(), m.releasePercent(), m.amounts(), m.binding(), e);
      case NothingMoved n ->
          new NothingMoved(n.settledAt(), n.reason(), n.releasePercent(), n.amounts(), n.note(), e);
      case WithoutPaymentTerms w ->
          new WithoutPaymentTerms(w.settledAt(), w.reason(), w.releasePercent(), e);
    };
  }

  private static void requireShared(
      Instant settledAt, String reason, BigDecimal releasePercent, Optional<Ending> ending) {
    Objects.requireNonNull(settledAt, "settledAt");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(releasePercent, "releasePercent");
    Objects.requireNonNull(ending, "ending");
  }
}
