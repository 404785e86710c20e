package dev.asa.facts;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.facts.SettlementFact.Amounts;
import dev.asa.facts.SettlementFact.Ending;
import dev.asa.facts.SettlementFact.Moved;
import dev.asa.facts.SettlementFact.NothingMoved;
import dev.asa.facts.SettlementFact.WithoutPaymentTerms;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Optional;

/**
 * How {@link FactCodec} stores a {@link SettlementFact}: one flat object whose members, in this
 * order, are each written only when the kind has it.
 *
 * <pre>
 * settled_at, reason, release_percent,
 * amount, currency, released_to_provider, refunded_to_client   (Moved, NothingMoved)
 * money_moved                                                  (always: true for Moved only)
 * note                                                         (NothingMoved)
 * binding                                                      (Moved)
 * closed_at                                                    (closed on a result or a ruling)
 * expired_at                                                   (expired)
 * verification_id        (closed on a result; closed on a ruling, when there was a result)
 * ruling                                                       (closed on a ruling)
 * auto_filed_dispute                     (closed on a result, when it filed a dispute)
 * </pre>
 *
 * This is the form every version of the server has written, so stored facts and the events that
 * carry them read back unchanged. The kind follows from the members: {@code money_moved} true is
 * {@link Moved}; otherwise an {@code amount} is {@link NothingMoved}, none {@link
 * WithoutPaymentTerms}. A member the kind does not have is refused by the codec, which writes the
 * fact read again and finds the member missing.
 */
record SettlementForm(
    Instant settledAt,
    String reason,
    BigDecimal releasePercent,
    String amount,
    String currency,
    String releasedToProvider,
    String refundedToClient,
    boolean moneyMoved,
    String note,
    String binding,
    Instant closedAt,
    Instant expiredAt,
    String verificationId,
    JsonNode ruling,
    JsonNode autoFiledDispute) {

  static SettlementForm of(SettlementFact s) {
    Amounts amounts =
        switch (s) {
          case Moved m -> m.amounts();
          case NothingMoved n -> n.amounts();
          case WithoutPaymentTerms w -> null;
        };
    Ending ending = s.ending().orElse(null);
    return new SettlementForm(
        s.settledAt(),
        s.reason(),
        s.releasePercent(),
        amounts == null ? null : amounts.amount(),
        amounts == null ? null : amounts.currency(),
        amounts == null ? null : amounts.releasedToProvider(),
        amounts == null ? null : amounts.refundedToClient(),
        s.moneyMoved(),
        s instanceof NothingMoved n ? n.note() : null,
        s instanceof Moved m ? m.binding() : null,
        ending == null || ending instanceof Ending.Expired ? null : ending.at(),
        ending instanceof Ending.Expired x ? x.at() : null,
        ending == null ? null : verificationIdOf(ending).orElse(null),
        ending instanceof Ending.ClosedOnRuling r ? r.ruling() : null,
        s.autoFiledDispute().orElse(null));
  }

  private static Optional<String> verificationIdOf(Ending ending) {
    return switch (ending) {
      case Ending.ClosedOnResult r -> Optional.of(r.verificationId());
      case Ending.ClosedOnRuling r -> r.verificationId();
      case Ending.Expired x -> Optional.empty();
    };
  }

  SettlementFact fact() {
    if (moneyMoved) {
      return new Moved(settledAt, reason, releasePercent, amounts(), binding, ending());
    }
    if (amount != null) {
      return new NothingMoved(settledAt, reason, releasePercent, amounts(), note, ending());
    }
    return new WithoutPaymentTerms(settledAt, reason, releasePercent, ending());
  }

  private Amounts amounts() {
    return new Amounts(amount, currency, releasedToProvider, refundedToClient);
  }

  private Optional<Ending> ending() {
    if (expiredAt != null) {
      return Optional.of(new Ending.Expired(expiredAt));
    }
    if (closedAt == null) {
      return Optional.empty();
    }
    if (ruling != null && !ruling.isNull()) {
      return Optional.of(
          new Ending.ClosedOnRuling(closedAt, Optional.ofNullable(verificationId), ruling));
    }
    if (verificationId == null) {
      throw new IllegalStateException(
          "a stored settlement fact closed on a result names no verification_id");
    }
    return Optional.of(
        new Ending.ClosedOnResult(
            closedAt,
            verificationId,
            Optional.ofNullable(autoFiledDispute).filter(d -> !d.isNull())));
  }
}
