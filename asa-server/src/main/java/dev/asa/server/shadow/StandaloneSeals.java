package dev.asa.server.shadow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.access.Caller;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.json.Json;
import dev.asa.server.store.Write;
import dev.asa.server.store.Writes;
import dev.asa.server.store.shadow.SealRow;
import dev.asa.server.store.shadow.SealStore;
import dev.asa.server.work.Command;
import dev.asa.server.work.IdempotencyTicket;
import dev.asa.server.work.NotFoundException;
import dev.asa.server.work.Outcome;
import dev.asa.shadow.Commitment;
import dev.asa.shadow.DeliveredWork;
import dev.asa.shadow.Gate;
import dev.asa.shadow.Judge;
import dev.asa.shadow.SealRequest;
import dev.asa.shadow.SealStatement;
import dev.asa.shadow.SealVerification;
import dev.asa.shadow.SealedEnvelope;
import dev.asa.shadow.ShadowValidation;
import dev.asa.shadow.ShadowValidator;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Standalone seals ({@code POST /shadow/seals}): any signed caller seals acceptance criteria
 * without an agreement, validates work against them later, and reads the latest report. Only the
 * sealer ever sees a standalone seal.
 */
public final class StandaloneSeals {
  private final SealStore seals;
  private final Writes writes;
  private final Ed25519PrivateKey serverKey;
  private final Judge judge;

  public StandaloneSeals(SealStore seals, Writes writes, Ed25519PrivateKey serverKey, Judge judge) {
    this.seals = seals;
    this.writes = writes;
    this.serverKey = serverKey;
    this.judge = judge;
  }

  /**
   * {@code POST /shadow/seals}: any signed caller seals criteria of its own; the answer has no
   * criteria.
   */
  public Outcome sealStandalone(
      SealRequest request, Caller caller, IdempotencyTicket ticket, Instant now) {
    if (!(caller instanceof Caller.Key key)) {
      throw new IllegalStateException("a standalone seal is made for a signed caller");
    }
    String sealId = ShadowSeals.newSealId();
    SealedEnvelope envelope =
        SealedEnvelope.seal(
            SealStatement.Subject.standalone(sealId),
            request.criteria(),
            ShadowSeals.sealerName(request, key),
            now,
            ShadowSeals.RANDOM,
            serverKey);
    SealRow row =
        new SealRow(
            sealId,
            null,
            key.keyId(),
            envelope.commitment().toString(),
            Json.write(envelope.seal().toJson()),
            Json.write(envelope.toJson()),
            Json.write(ShadowSeals.policyJson(request.hardening())),
            null,
            now,
            null);
    ObjectNode response = envelope.seal().toJson();
    response.put("seal_id", sealId);
    response.put("commitment", envelope.commitment().toString());
    Outcome outcome = new Outcome(201, response);
    List<Write> writes = new ArrayList<>(List.of(new Write.PutSeal(row)));
    writes.addAll(IdempotencyTicket.writes(ticket, outcome, now));
    this.writes.apply(writes);
    return outcome;
  }

  /** The standalone seal, for its sealer only: to anyone else it does not exist. */
  private SealRow standaloneOf(String sealId, Caller caller) {
    SealRow row =
        seals
            .find(sealId)
            .filter(r -> r.agreementId() == null)
            .orElseThrow(() -> new NotFoundException("no seal with id '" + sealId + "'"));
    if (!(caller instanceof Caller.Key k && k.keyId().equals(row.sealerKey()))) {
      throw new NotFoundException("no seal with id '" + sealId + "'");
    }
    return row;
  }

  /**
   * {@code POST /shadow/seals/{id}/validate} {@code {content, format}}: the sealer has delivered
   * work checked against its seal; the seal is verified against the commitment recorded at sealing
   * and this server's key. The report is stored (the latest replaces the previous) and the seal
   * counts as revealed. No hardening cycle here: an orchestrator runs its own loop.
   */
  public Outcome validateStandalone(
      String sealId,
      Command.Validate delivered,
      Caller caller,
      IdempotencyTicket ticket,
      Instant now) {
    SealRow row = standaloneOf(sealId, caller);
    String content = delivered.content();
    String format = delivered.format().orElse(null);
    ObjectNode report;
    Gate gate;
    try {
      SealedEnvelope envelope = SealedEnvelope.parse(Json.parseTrusted(row.envelope()));
      ShadowValidation v =
          ShadowValidator.validate(envelope, DeliveredWork.of(content, format), judge);
      v =
          new ShadowValidation(
              v.sealedHash(),
              SealVerification.check(
                  envelope,
                  Optional.of(serverKey.publicKey()),
                  Optional.of(Commitment.parse(row.commitment()))),
              v.results());
      report = v.report().toJson();
      gate = v.gate();
    } catch (InvalidDocumentException e) {
      ShadowSeals.Validated broken = ShadowSeals.unreadable(row, e.getMessage(), now);
      report = broken.report();
      gate = broken.gate();
    }
    ObjectNode state =
        Json.object()
            .put("status", "validated")
            .put("validated_at", now.toString())
            .put("gate", gate.wire());
    state.set("report", report);
    ObjectNode response = Json.object().put("seal_id", sealId).put("gate", gate.wire());
    response.set("report", report);
    Outcome outcome = new Outcome(200, response);
    List<Write> writes =
        new ArrayList<>(
            List.of(
                new Write.SetSealValidation(sealId, Json.write(state)),
                new Write.RevealSeal(sealId, now),
                new Write.LogSealRead(
                    sealId, caller.describe(), "POST /shadow/seals/" + sealId + "/validate", now)));
    writes.addAll(IdempotencyTicket.writes(ticket, outcome, now));
    this.writes.apply(writes);
    return outcome;
  }

  /** {@code GET /shadow/seals/{id}/report}: the latest validation's report, for the sealer. */
  public ObjectNode standaloneReport(String sealId, Caller caller) {
    SealRow row = standaloneOf(sealId, caller);
    if (row.validation() == null) {
      throw new NotFoundException(
          "seal "
              + sealId
              + " has not been validated yet; POST /shadow/seals/"
              + sealId
              + "/validate");
    }
    JsonNode state = Json.parseTrusted(row.validation());
    ObjectNode out = Json.object().put("seal_id", sealId);
    out.set("gate", state.path("gate"));
    out.set("validated_at", state.path("validated_at"));
    out.set("report", state.path("report"));
    return out;
  }
}
