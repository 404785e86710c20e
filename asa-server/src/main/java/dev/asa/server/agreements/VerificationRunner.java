package dev.asa.server.agreements;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Agreement;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.Party;
import dev.asa.agreement.SeriesGuarantee;
import dev.asa.crypto.Digest;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.evaluators.EvaluationException;
import dev.asa.evaluators.Progress;
import dev.asa.evaluators.StructuralEvaluator;
import dev.asa.evaluators.VerificationEngine;
import dev.asa.facts.HardeningFact;
import dev.asa.facts.VerificationFact;
import dev.asa.json.Json;
import dev.asa.lifecycle.Action;
import dev.asa.lifecycle.ChallengeWindow;
import dev.asa.lifecycle.Lifecycle;
import dev.asa.lifecycle.State;
import dev.asa.scoring.CheckResult;
import dev.asa.scoring.Determination;
import dev.asa.scoring.GuaranteeCheck;
import dev.asa.scoring.IncompleteScoresException;
import dev.asa.scoring.Scorecard;
import dev.asa.scoring.Scorer;
import dev.asa.scoring.VerificationResult;
import dev.asa.server.store.DeliverableRow;
import dev.asa.server.store.JobRow;
import dev.asa.server.store.SealStore;
import dev.asa.server.store.Store;
import dev.asa.server.store.VerificationRow;
import dev.asa.server.store.Write;
import dev.asa.shadow.Gate;
import dev.asa.shadow.Judge;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code POST /agreements/{id}/verify}: scores the deliverable against the agreement's criteria.
 *
 * <p>The server's structural evaluator measures what it can honestly measure (format, schema, size,
 * sections, timeliness). Dimensions that need judgement (accuracy, relevance...) come from the
 * assigned evaluator in {@code evaluator_result}; a dimension nobody scored makes the call fail
 * with a list of what is missing, never a guessed number. The result follows section 5.2; the
 * deliverable's content is erased in the same transaction, only its digest stays.
 */
public final class VerificationRunner {

  private final SealStore seals;
  private final ProviderSeries series;
  private final VerificationEngine engine;
  private final DeliverableSource deliverables;
  private final Ed25519PrivateKey serverKey;
  private final ReleasePolicy release;
  private final ShadowSeals shadow;
  private final StandaloneSeals standalone;
  private final SealReads sealReads;

  public VerificationRunner(
      Store store,
      StructuralEvaluator structural,
      DeliverableFetcher fetcher,
      Ed25519PrivateKey serverKey) {
    this(store, structural, fetcher, serverKey, Judge.NONE);
  }

  /**
   * @param store what its parts read: seals, deliverables, verifications (and seal reads written)
   * @param judge decides sealed {@code judged} criteria; {@code Judge.NONE} when no judge is
   *     configured
   */
  public VerificationRunner(
      Store store,
      StructuralEvaluator structural,
      DeliverableFetcher fetcher,
      Ed25519PrivateKey serverKey,
      Judge judge) {
    this.seals = store.seals();
    this.series = new ProviderSeries(store.verifications());
    this.engine = new VerificationEngine(structural);
    this.deliverables = new DeliverableSource(store.deliverables(), fetcher);
    this.serverKey = serverKey;
    this.release = new ReleasePolicy(serverKey, store.verifications());
    this.shadow = new ShadowSeals(seals, serverKey, judge);
    this.standalone = new StandaloneSeals(seals, store.writes(), serverKey, judge);
    this.sealReads = new SealReads(seals, store.writes(), shadow);
  }

  /** Where a verification finds the deliverable it judges. */
  DeliverableSource deliverables() {
    return deliverables;
  }

  /** Sealed Shadow Scoring criteria: sealing, reading, validation at verification. */
  ShadowSeals shadow() {
    return shadow;
  }

  StandaloneSeals standaloneSeals() {
    return standalone;
  }

  SealReads sealReads() {
    return sealReads;
  }

  /**
   * The cliff-optimisation mitigations (threshold noise, dynamic tiers) of the agreements it
   * verifies.
   */
  ReleasePolicy releasePolicy() {
    return release;
  }

  /**
   * Scores the latest deliverable with the structural evaluator and the assigned evaluator's
   * submitted scores, and moves the agreement to VERIFIED (enforcing the result, with or without a
   * challenge window, is the caller's next step).
   */
  Change verify(
      Agreement a, SubmittedResult submitted, Actor actor, Instant now, Supplier<String> newId) {
    Lifecycle.next(a.state(), Action.VERIFY, Lifecycle.Facts.NONE);
    DeliverableRow row = deliverables.toVerify(a);
    long started = System.nanoTime();
    VerificationEngine.Assessment assessment;
    try {
      assessment =
          engine.assess(
              DeliverableSource.task(a, row, deliverables.content(row), Progress.NONE),
              VerificationEngine.Plan.structural());
    } catch (EvaluationException e) {
      throw new IllegalStateException("the structural evaluator does not fail", e);
    }
    Assessed assessed =
        new Assessed(
            submitted.over(assessment),
            Digest.parse(row.contentHash()),
            Duration.ofNanos(System.nanoTime() - started).toMillis(),
            !submitted.isEmpty(),
            submitted.model());
    return record(a, assessed, actor, now, newId.get(), List.of());
  }

  /** Runs the engine for the agreement's deliverable (slow: outside any transaction). */
  Assessed assess(
      Agreement a,
      DeliverableRow row,
      String content,
      VerificationEngine.Plan plan,
      Progress progress)
      throws EvaluationException {
    long started = System.nanoTime();
    VerificationEngine.Assessment assessment =
        engine.assess(DeliverableSource.task(a, row, content, progress), plan);
    return new Assessed(
        assessment,
        Digest.parse(row.contentHash()),
        Duration.ofNanos(System.nanoTime() - started).toMillis(),
        false,
        null);
  }

  /**
   * An assessment of an agreement's deliverable, ready to be recorded.
   *
   * @param submitted whether an external evaluator's scores are part of it
   * @param submittedModel the model the external evaluator named, if any
   */
  record Assessed(
      VerificationEngine.Assessment assessment,
      Digest deliverableHash,
      long durationMs,
      boolean submitted,
      String submittedModel) {}

  /**
   * Scores an assessment against the agreement's criteria and moves the agreement to VERIFIED, in
   * the change that also stores the result and erases the deliverable's content.
   *
   * @param extraWrites written in the same transaction (e.g. finishing the job that assessed it)
   */
  Change record(
      Agreement a,
      Assessed assessed,
      Actor actor,
      Instant now,
      String verificationId,
      List<Write> extraWrites) {
    State next = Lifecycle.next(a.state(), Action.VERIFY, Lifecycle.Facts.NONE);
    VerificationEngine.Assessment assessment = assessed.assessment();
    ShadowSeals.Validated sealed = null;
    if (seals.ofAgreement(a.id()).isPresent()) {
      DeliverableRow delivered = deliverables.toVerify(a);
      sealed =
          shadow
              .validate(a, deliverables.content(delivered), delivered.format(), now)
              .orElseThrow();
      if (sealed.hardeningOpen()) {
        return hardeningOpened(a, sealed, actor, now, extraWrites);
      }
    }
    ReleasePolicy.Applied applied = release.apply(a);
    Map<String, CheckResult> checks = new LinkedHashMap<>(assessment.checks());
    GuaranteeCheck.Outcome guarantee = null;
    Scorecard card;
    try {
      SeriesGuarantee promised = a.terms().qualityCriteria().guarantee();
      if (promised != null) {
        // This delivery joins the series as it scores without the guarantee's own check.
        Scorecard alone =
            Scorer.score(
                a.terms().qualityCriteria(), applied.payment(), assessment.inputs(), checks);
        List<GuaranteeCheck.Delivery> deliveries =
            new ArrayList<>(series.earlierDeliveries(a, promised.window()));
        deliveries.add(
            ProviderSeries.delivery(
                alone.composite().passed()
                    && alone.gates().stream()
                        .allMatch(g -> g.passed() || g.condition().equals(GuaranteeCheck.CHECK)),
                alone.dimensions()));
        guarantee = GuaranteeCheck.evaluate(promised, deliveries);
        checks.put(GuaranteeCheck.CHECK, guarantee.asCheck());
      }
      card =
          Scorer.score(a.terms().qualityCriteria(), applied.payment(), assessment.inputs(), checks);
    } catch (IncompleteScoresException e) {
      throw new InvalidDocumentException(
          assessment.evaluatorType().equals("structural")
              ? "/evaluator_result/dimensions"
              : "/verification_config",
          e.getMessage());
    } catch (IllegalArgumentException e) {
      throw new InvalidDocumentException("/evaluator_result", e.getMessage());
    }
    if (sealed != null) {
      if (sealed.gate() == Gate.FAIL) {
        var d = card.determination();
        card =
            new Scorecard(
                card.dimensions(),
                card.composite(),
                card.gates(),
                card.gateLogic(),
                card.gatesPassed(),
                new Determination(
                    Determination.FAIL,
                    BigDecimal.ZERO,
                    d.confidence(),
                    "shadow score "
                        + sealed.score().toPlainString()
                        + " is above 50: FAIL, nothing released ("
                        + d.notes()
                        + ")"));
      }
    }
    Party evaluator = a.terms().parties().evaluator();
    String evaluatorType;
    String model;
    if (assessed.submitted()) {
      evaluatorType = evaluator.evaluatorType() == null ? "external" : evaluator.evaluatorType();
      model = assessed.submittedModel();
    } else {
      evaluatorType =
          assessment.evaluatorType().equals("structural")
              ? "builtin_structural"
              : "builtin_" + assessment.evaluatorType();
      model = assessment.models();
    }
    ObjectNode extensions = Json.object();
    if (!assessed.submitted() && !assessment.evaluatorType().equals("structural")) {
      extensions.set("verification", assessment.details());
    }
    if (guarantee != null) {
      extensions.set("guarantee", guarantee.toJson());
    }
    if (sealed != null) {
      extensions.set("shadow_score", sealed.report());
      extensions.put("shadow_gate", sealed.gate().wire());
      if (sealed.gate() == Gate.PROCEED_WITH_WARNING) {
        extensions.put(
            "shadow_warning",
            "shadow score "
                + sealed.score().toPlainString()
                + " is above 15: the deliverable missed sealed criteria (report attached as a warning)");
      }
    }
    VerificationResult result =
        VerificationResult.of(
            verificationId,
            a.id(),
            now,
            new VerificationResult.Evaluator(evaluator.identity(), evaluatorType, model),
            card,
            assessed.deliverableHash(),
            assessed.durationMs(),
            assessment.usage().costUsd(),
            extensions);
    ObjectNode resultJson = (ObjectNode) result.toJson();

    JsonNode composite = resultJson.path("composite").path("score");
    VerificationFact summary =
        new VerificationFact(
            result.verificationId(),
            now,
            card.determination().result(),
            composite.isNumber() ? composite.decimalValue() : null,
            resultJson.path("determination").path("payment_release_percent").decimalValue(),
            resultJson.path("evidence_trail").path("evaluation_hash").asText(),
            ChallengeWindow.after(now, a.terms().verification()).closesAt(),
            applied.audit(),
            sealed != null ? sealed.summary() : null);

    Agreement verified = a.withState(next).withFacts(f -> f.withVerification(summary));
    ObjectNode payload = summary.toJson();
    payload.put("deliverable_hash", assessed.deliverableHash().toString());
    if (!assessed.submitted()) {
      // The server's built-in evaluator vouches for its own result: anyone can check this signature
      // over the evaluation_hash with the key at /.well-known/asa/server-key.
      String hash = summary.evaluationHash();
      payload.put(
          "server_signature", serverKey.sign(hash.getBytes(StandardCharsets.UTF_8)).toBase64Url());
    }
    payload.put("state", next.name());
    List<EventLog.Draft> events = new ArrayList<>();
    events.add(new EventLog.Draft(EventType.VERIFIED, actor, payload));
    List<Write> writes =
        new ArrayList<>(
            List.of(
                new Write.PutVerification(
                    VerificationRow.of(
                        result.verificationId(),
                        a.id(),
                        assessed.deliverableHash().toString(),
                        resultJson,
                        now)),
                new Write.EraseDeliverableContent(a.id())));
    if (sealed != null) {
      writes.addAll(sealed.writes());
    }
    writes.addAll(extraWrites);

    ObjectNode response = Json.object();
    response.put("agreement_id", a.id());
    response.put("state", verified.state().name());
    response.set("verification", resultJson);
    return new Change(verified, events, writes, response);
  }

  /**
   * The first delivery scored above the hardening threshold: nothing is recorded as the result; the
   * agreement stays DELIVERED with a hardening cycle open, and the provider may read the failure
   * messages and re-deliver once. Nothing here says the score or counts (the provider reads the
   * events and this response).
   */
  private Change hardeningOpened(
      Agreement a,
      ShadowSeals.Validated sealed,
      Actor actor,
      Instant now,
      List<Write> extraWrites) {
    HardeningFact hardening = HardeningFact.opened(now, "/agreements/" + a.id() + "/hardening");
    Agreement next = a.withFacts(f -> f.withHardening(hardening));
    List<Write> writes = new ArrayList<>(sealed.writes());
    for (Write w : extraWrites) {
      // A background job that led here produced no result: it ends saying what happens instead.
      writes.add(
          w instanceof Write.FinishJob f && f.status() == JobRow.Status.COMPLETED
              ? new Write.FinishJob(
                  f.jobId(),
                  JobRow.Status.FAILED,
                  "no result: the deliverable missed sealed"
                      + " criteria and a hardening cycle is open; the provider may re-deliver once ("
                      + hardening.messagesUrl()
                      + "), then ask for verification again",
                  f.at())
              : w);
    }
    ObjectNode response = Json.object();
    response.put("agreement_id", a.id());
    response.put("state", next.state().name());
    response.set("hardening", hardening.toJson());
    return new Change(
        next,
        List.of(new EventLog.Draft(EventType.HARDENING_OPENED, actor, hardening.toJson())),
        writes,
        response);
  }
}
