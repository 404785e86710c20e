package dev.asa.server.agreements;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Agreement;
import dev.asa.json.Json;
import dev.asa.lifecycle.State;
import dev.asa.scoring.Release;
import dev.asa.scoring.Settlement;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/**
 * Closing an agreement: the verification's release percentage is turned into exact amounts
 * (released to the provider, the remainder back to the client) and recorded for good.
 */
final class Closing {
  private Closing() {}

  static AgreementService.Change close(Agreement a, State next, Instant now, Actor actor) {
    ObjectNode settlement = settlement(a, now);
    Agreement result = a.withState(next).withMetadata("settlement", settlement);
    ObjectNode payload = settlement.deepCopy();
    payload.put("state", next.name());
    return new AgreementService.Change(
        result, List.of(new EventLog.Draft("closed", actor, payload)), List.of(), null);
  }

  static ObjectNode settlement(Agreement a, Instant now) {
    ObjectNode s = Json.object();
    s.put("closed_at", now.toString());
    JsonNode verification = a.metadata("verification");
    BigDecimal percent = verification.path("payment_release_percent").decimalValue();
    s.put("release_percent", percent);
    s.put("verification_id", verification.path("verification_id").asText());
    a.terms().escrow().paymentTerms().ifPresent(p -> {
      Settlement split = Release.split(p.amount(), percent);
      s.put("amount", p.amount().toWire());
      s.put("currency", p.amount().currency().code());
      s.put("released_to_provider", split.released().toWire());
      s.put("refunded_to_client", split.refunded().toWire());
    });
    return s;
  }
}
