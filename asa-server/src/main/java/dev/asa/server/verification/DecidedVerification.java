package dev.asa.server.verification;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Identity;
import dev.asa.agreement.Party;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.document.Agreement;
import dev.asa.evaluators.VerificationEngine;
import dev.asa.facts.FactCodec;
import dev.asa.facts.VerificationFact;
import dev.asa.json.Json;
import dev.asa.lifecycle.ChallengeWindow;
import dev.asa.lifecycle.State;
import dev.asa.scoring.Verdict;
import dev.asa.scoring.VerificationResult;
import dev.asa.server.shadow.ShadowSeals;
import dev.asa.server.store.Write;
import dev.asa.server.store.verification.VerificationRow;
import dev.asa.server.work.Actor;
import dev.asa.server.work.Change;
import dev.asa.server.work.EventLog;
import dev.asa.server.work.EventType;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A verification whose verdict is in, turned into the {@link Change} that records it: the section
 * 5.2 result, the verification fact on the agreement, the {@code VERIFIED} event, and the writes
 * (the result row, the deliverable's content erased, the seal's validation and reveal).
 *
 * <p>Nothing is decided here: every number comes from the {@link Verdict} or the assessment, so
 * what is recorded is exactly what was decided.
 *
 * @param agreement the agreement as it was verified
 * @param next the state the verification moves it to
 * @param releaseAudit how the payment terms in force were made from the written ones (threshold
 *     noise, dynamic tiers); null when the written terms applied as they are
 * @param sealed the validation of the agreement's sealed criteria; empty when it is not sealed
 */
record DecidedVerification(
    Agreement agreement,
    State next,
    VerificationRunner.Assessed assessed,
    Verdict verdict,
    ObjectNode releaseAudit,
    Optional<ShadowSeals.Validated> sealed) {

  /**
   * The change recording this verification.
   *
   * @param serverKey signs the result when the server's built-in evaluator produced it
   * @param extraWrites written in the same transaction (e.g. finishing the job that assessed it)
   */
  Change change(
      String verificationId,
      Instant now,
      Actor actor,
      Ed25519PrivateKey serverKey,
      List<Write> extraWrites) {
    VerificationResult result = result(verificationId, now, actor);
    ObjectNode resultJson = (ObjectNode) result.toJson();
    VerificationFact summary = summary(result, resultJson, now);
    Agreement verified = agreement.withState(next).withFacts(f -> f.withVerification(summary));

    List<Write> writes =
        new ArrayList<>(
            List.of(
                new Write.PutVerification(
                    VerificationRow.of(
                        result.verificationId(),
                        agreement.id(),
                        assessed.deliverableHash().toString(),
                        resultJson,
                        now)),
                new Write.EraseDeliverableContent(agreement.id())));
    sealed.ifPresent(s -> writes.addAll(s.writes()));
    writes.addAll(extraWrites);

    ObjectNode response = Json.object();
    response.put("agreement_id", agreement.id());
    response.put("state", verified.state().name());
    response.set("verification", resultJson);
    return new Change(
        verified,
        List.of(new EventLog.Draft(EventType.VERIFIED, actor, payload(summary, serverKey))),
        writes,
        response);
  }

  private VerificationResult result(String verificationId, Instant now, Actor actor) {
    VerificationEngine.Assessment assessment = assessed.assessment();
    Identity identity;
    String evaluatorType;
    String model;
    if (assessed.submitted()) {
      Party evaluator = submitter(actor);
      identity = evaluator.identity();
      evaluatorType = evaluator.evaluatorType() == null ? "external" : evaluator.evaluatorType();
      model = assessed.submittedModel();
    } else {
      // The built-in evaluator is labelled as itself, by the server's key, whichever slot it
      // fills (the terms named it, or a timeout reached it): a result never carries the identity
      // of an evaluator that did not produce it.
      identity = new Identity("public_key", actor.keyId(), null);
      evaluatorType =
          assessment.evaluatorType().equals("structural")
              ? "builtin_structural"
              : "builtin_" + assessment.evaluatorType();
      model = assessment.models();
    }
    return VerificationResult.of(
        verificationId,
        agreement.id(),
        now,
        new VerificationResult.Evaluator(identity, evaluatorType, model),
        verdict.scorecard(),
        assessed.deliverableHash(),
        assessed.durationMs(),
        assessment.usage().costUsd(),
        extensions());
  }

  /**
   * The evaluator whose scores were submitted: the one whose key signed the request (a named or an
   * assigned evaluator; access already made sure it is one), else the primary.
   */
  private Party submitter(Actor actor) {
    List<Party> evaluators = agreement.evaluators();
    return evaluators.stream()
        .filter(e -> e.key().map(k -> k.toBase64Url().equals(actor.keyId())).orElse(false))
        .findFirst()
        .orElseGet(() ->
            evaluators.stream()
                .findFirst()
                .orElseThrow(() ->
                    new IllegalStateException(
                        "scores were submitted for agreement "
                            + agreement.id()
                            + ", which has no evaluator")));
  }

  /**
   * What the result carries beyond section 5.2: engine details (or a panel's consensus), the
   * guarantee, the shadow gate.
   */
  private ObjectNode extensions() {
    VerificationEngine.Assessment assessment = assessed.assessment();
    ObjectNode extensions = Json.object();
    if (!assessed.submitted() && !assessment.evaluatorType().equals("structural")) {
      extensions.set("verification", assessment.details());
    } else if (assessed.submitted()
        && assessment.details() != null
        && assessment.details().has("consensus")) {
      // A panel's answers combined: who scored what, the spread, the method.
      extensions.set("consensus", assessment.details().get("consensus"));
    }
    if (assessed.depthEvidence() != null) {
      extensions.set("depth_evidence", assessed.depthEvidence());
    }
    verdict.guarantee().ifPresent(g -> extensions.set("guarantee", g.toJson()));
    sealed.ifPresent(s -> {
      extensions.set("shadow_score", s.report());
      extensions.put("shadow_gate", s.gate().wire());
    });
    verdict.shadowWarning().ifPresent(w -> extensions.put("shadow_warning", w));
    return extensions;
  }

  /** The verification fact on the agreement, read back from the result as it is stored. */
  private VerificationFact summary(VerificationResult result, ObjectNode resultJson, Instant now) {
    JsonNode composite = resultJson.path("composite").path("score");
    return new VerificationFact(
        result.verificationId(),
        now,
        verdict.determination().result(),
        composite.isNumber() ? composite.decimalValue() : null,
        resultJson.path("determination").path("payment_release_percent").decimalValue(),
        resultJson.path("evidence_trail").path("evaluation_hash").asText(),
        ChallengeWindow.after(now, agreement.terms().verification()).closesAt(),
        releaseAudit,
        sealed.map(ShadowSeals.Validated::summary).orElse(null));
  }

  private ObjectNode payload(VerificationFact summary, Ed25519PrivateKey serverKey) {
    ObjectNode payload = FactCodec.write(summary);
    payload.put("deliverable_hash", assessed.deliverableHash().toString());
    if (!assessed.submitted()) {
      // The server's built-in evaluator vouches for its own result: anyone can check this signature
      // over the evaluation_hash with the key at /.well-known/asa/server-key.
      String hash = summary.evaluationHash();
      payload.put(
          "server_signature", serverKey.sign(hash.getBytes(StandardCharsets.UTF_8)).toBase64Url());
    }
    payload.put("state", next.name());
    return payload;
  }
}
