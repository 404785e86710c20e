package dev.asa.facts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.facts.SettlementFact.Amounts;
import dev.asa.facts.SettlementFact.Ending;
import dev.asa.facts.SettlementFact.Moved;
import dev.asa.facts.SettlementFact.NothingMoved;
import dev.asa.facts.SettlementFact.WithoutPaymentTerms;
import dev.asa.json.Json;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A {@link SettlementFact}'s one JSON form. Its members, in this order, each written only when the
 * kind has it:
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
 * carry them read back unchanged.
 */
final class SettlementJson {
  private SettlementJson() {}

  private static final List<String> MEMBERS =
      List.of(
          "settled_at",
          "reason",
          "release_percent",
          "amount",
          "currency",
          "released_to_provider",
          "refunded_to_client",
          "money_moved",
          "note",
          "binding",
          "closed_at",
          "expired_at",
          "verification_id",
          "ruling",
          "auto_filed_dispute");

  static ObjectNode write(SettlementFact s) {
    ObjectNode o = Json.object();
    o.put("settled_at", s.settledAt().toString());
    o.put("reason", s.reason());
    o.put("release_percent", s.releasePercent());
    switch (s) {
      case Moved m -> putAmounts(o, m.amounts());
      case NothingMoved n -> putAmounts(o, n.amounts());
      case WithoutPaymentTerms w -> {}
    }
    o.put("money_moved", s.moneyMoved());
    switch (s) {
      case Moved m -> o.put("binding", m.binding());
      case NothingMoved n -> o.put("note", n.note());
      case WithoutPaymentTerms w -> {}
    }
    s.ending().ifPresent(e -> putEnding(o, e));
    return o;
  }

  private static void putAmounts(ObjectNode o, Amounts a) {
    o.put("amount", a.amount());
    o.put("currency", a.currency());
    o.put("released_to_provider", a.releasedToProvider());
    o.put("refunded_to_client", a.refundedToClient());
  }

  private static void putEnding(ObjectNode o, Ending ending) {
    switch (ending) {
      case Ending.ClosedOnResult r -> {
        o.put("closed_at", r.at().toString());
        o.put("verification_id", r.verificationId());
        r.autoFiledDispute().ifPresent(d -> o.set("auto_filed_dispute", d));
      }
      case Ending.ClosedOnRuling r -> {
        o.put("closed_at", r.at().toString());
        r.verificationId().ifPresent(v -> o.put("verification_id", v));
        o.set("ruling", r.ruling());
      }
      case Ending.Expired x -> o.put("expired_at", x.at().toString());
    }
  }

  /**
   * The settlement a stored form records. The kind follows from the members: {@code money_moved}
   * true is {@link Moved}; otherwise an {@code amount} is {@link NothingMoved}, none {@link
   * WithoutPaymentTerms}. A form with a member its kind does not have is refused (it would be lost
   * when written again): the server never wrote one, so it is a bug.
   */
  static SettlementFact read(JsonNode o) {
    Instant settledAt = FactJson.instant(o, "settled_at");
    String reason = FactJson.text(o, "reason");
    BigDecimal percent = FactJson.number(o, "release_percent");
    Optional<Ending> ending = ending(o);
    SettlementFact s;
    if (o.path("money_moved").asBoolean()) {
      s = new Moved(settledAt, reason, percent, amounts(o), FactJson.text(o, "binding"), ending);
    } else if (FactJson.text(o, "amount") != null) {
      s =
          new NothingMoved(
              settledAt, reason, percent, amounts(o), FactJson.text(o, "note"), ending);
    } else {
      s = new WithoutPaymentTerms(settledAt, reason, percent, ending);
    }
    ObjectNode written = write(s);
    for (String member : MEMBERS) {
      if (FactJson.node(o, member) != null && !written.has(member)) {
        throw new IllegalStateException(
            "a stored settlement fact ("
                + s.getClass().getSimpleName()
                + ") has a member its kind does not: "
                + member);
      }
    }
    return s;
  }

  private static Amounts amounts(JsonNode o) {
    return new Amounts(
        FactJson.text(o, "amount"),
        FactJson.text(o, "currency"),
        FactJson.text(o, "released_to_provider"),
        FactJson.text(o, "refunded_to_client"));
  }

  private static Optional<Ending> ending(JsonNode o) {
    Instant closedAt = FactJson.instant(o, "closed_at");
    Instant expiredAt = FactJson.instant(o, "expired_at");
    Optional<String> verificationId = Optional.ofNullable(FactJson.text(o, "verification_id"));
    if (expiredAt != null) {
      return Optional.of(new Ending.Expired(expiredAt));
    }
    if (closedAt == null) {
      return Optional.empty();
    }
    JsonNode ruling = FactJson.node(o, "ruling");
    if (ruling != null) {
      return Optional.of(new Ending.ClosedOnRuling(closedAt, verificationId, ruling));
    }
    return Optional.of(
        new Ending.ClosedOnResult(
            closedAt,
            verificationId.orElseThrow(() ->
                new IllegalStateException(
                    "a stored settlement fact closed on a result names no verification_id")),
            Optional.ofNullable(FactJson.node(o, "auto_filed_dispute"))));
  }
}
