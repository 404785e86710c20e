package dev.asa.server.agreements;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Agreement;
import dev.asa.agreement.DisputeTerms;
import dev.asa.json.Json;
import dev.asa.lifecycle.Action;
import dev.asa.lifecycle.Lifecycle;
import dev.asa.lifecycle.State;
import dev.asa.server.escrow.Disputes;
import dev.asa.server.escrow.Enforcement;
import dev.asa.server.store.Write;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The ways an agreement ends with money moving: closing on its verification result, closing on a
 * ruling, expiring by a dead-man's switch. Each settles through {@link Enforcement#settle} and
 * records the settlement in {@code metadata.settlement}; the final state never changes afterwards.
 */
final class Closing {
  /** The whitepaper's {@code auto_file_on} value that files a dispute for a low score. */
  static final String AUTO_FILE_BELOW_THRESHOLD = "verification_failure_below_threshold";

  private final Enforcement enforcement;
  private final Disputes disputes;

  Closing(Enforcement enforcement, Disputes disputes) {
    this.enforcement = enforcement;
    this.disputes = disputes;
  }

  /**
   * Enforces the verification result: its release percentage is paid out and the agreement
   * closes. When the composite is under {@code dispute.threshold} and the terms ask for it, a
   * dispute is filed with the evidence as well (the money still follows the result: the filing is
   * for the dispute protocol's forensics and reputation, not a freeze).
   */
  AgreementService.Change onResult(Agreement a, Instant now, Actor actor) {
    State next = Lifecycle.next(a.state(), Action.CLOSE, Lifecycle.Facts.NONE);
    JsonNode verification = a.metadata("verification");
    BigDecimal percent = verification.path("payment_release_percent").decimalValue();
    Enforcement.Step step = enforcement.settle(a, percent, "verification_result", now);
    ObjectNode settlement = step.facts();
    settlement.put("closed_at", now.toString());
    settlement.put("verification_id", verification.path("verification_id").asText());
    List<Write> writes = new ArrayList<>(step.writes());
    Agreement result = a.withState(next);
    if (shouldAutoFile(a, verification)) {
      Disputes.Filing filing = disputes.file(a, "quality_below_agreed_slo", "server", now);
      filing.message().ifPresent(writes::add);
      settlement.set("auto_filed_dispute", filing.facts());
      result = result.withMetadata("dispute", filing.facts());
    }
    return finish(result, settlement, "closed", actor, writes);
  }

  /** A ruling closes a dispute: {@code percent} to the provider, the rest to the client. */
  AgreementService.Change onRuling(Agreement a, BigDecimal percent, String reason, Instant now, Actor actor) {
    State next = Lifecycle.next(a.state(), Action.RULE, Lifecycle.Facts.NONE);
    Enforcement.Step step = enforcement.settle(a, percent, "ruling", now);
    ObjectNode ruling = Json.object();
    ruling.put("release_percent", percent);
    ruling.put("reason", reason);
    ruling.put("ruled_by", actor.role());
    if (actor.keyId() != null) ruling.put("key", actor.keyId());
    ruling.put("ruled_at", now.toString());
    ObjectNode settlement = step.facts();
    settlement.put("closed_at", now.toString());
    settlement.set("ruling", ruling);
    JsonNode verification = a.metadata("verification").path("verification_id");
    if (verification.isTextual()) settlement.set("verification_id", verification);
    return finish(a.withState(next).withMetadata("ruling", ruling), settlement, "ruled", actor, step.writes());
  }

  /**
   * A dead-man's switch ends the agreement as EXPIRED: whatever is held goes {@code percent} to the
   * provider and the rest back to the client (nothing moves if nothing was held).
   */
  AgreementService.Change onTimeout(Agreement a, BigDecimal percent, String reason, Instant now, Actor actor) {
    State next = Lifecycle.next(a.state(), Action.EXPIRE, Lifecycle.Facts.NONE);
    Enforcement.Step step = enforcement.settle(a, percent, reason, now);
    ObjectNode settlement = step.facts();
    settlement.put("expired_at", now.toString());
    return finish(a.withState(next), settlement, "expired", actor, step.writes());
  }

  private static AgreementService.Change finish(Agreement a, ObjectNode settlement, String event, Actor actor, List<Write> writes) {
    Agreement result = Enforcement.withEscrowStatus(a.withMetadata("settlement", settlement),
        settlement.path("money_moved").asBoolean() ? "settled" : "nothing_held");
    ObjectNode payload = settlement.deepCopy();
    payload.put("state", result.state().name());
    return new AgreementService.Change(result, List.of(new EventLog.Draft(event, actor, payload)), writes, null);
  }

  private static boolean shouldAutoFile(Agreement a, JsonNode verification) {
    DisputeTerms terms = a.terms().dispute();
    if (terms == null || terms.threshold() == null || !AUTO_FILE_BELOW_THRESHOLD.equals(terms.autoFileOn())) {
      return false;
    }
    JsonNode composite = verification.path("composite");
    return composite.isNumber() && composite.decimalValue().compareTo(terms.threshold()) < 0;
  }
}
