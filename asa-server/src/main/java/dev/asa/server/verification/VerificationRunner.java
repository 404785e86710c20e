package dev.asa.server.verification;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Escrow;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.QualityCriteria;
import dev.asa.crypto.Digest;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.document.Agreement;
import dev.asa.evaluators.EvaluationException;
import dev.asa.evaluators.EvaluationTask;
import dev.asa.evaluators.Progress;
import dev.asa.evaluators.StructuralEvaluator;
import dev.asa.evaluators.VerificationEngine;
import dev.asa.integrity.CanarySchedule;
import dev.asa.lifecycle.Action;
import dev.asa.lifecycle.Lifecycle;
import dev.asa.lifecycle.State;
import dev.asa.scoring.IncompleteScoresException;
import dev.asa.scoring.ShadowGate;
import dev.asa.scoring.Verdict;
import dev.asa.scoring.VerdictInputs;
import dev.asa.scoring.Verdicts;
import dev.asa.server.metrics.Metrics;
import dev.asa.server.pool.AssignmentSeeds;
import dev.asa.server.pool.ProviderSeries;
import dev.asa.server.shadow.HardeningOpened;
import dev.asa.server.shadow.SealReads;
import dev.asa.server.shadow.ShadowSeals;
import dev.asa.server.shadow.StandaloneSeals;
import dev.asa.server.store.Store;
import dev.asa.server.store.Write;
import dev.asa.server.store.shadow.SealStore;
import dev.asa.server.store.verification.DeliverableRow;
import dev.asa.server.work.Actor;
import dev.asa.server.work.Change;
import dev.asa.server.work.SubmittedResult;
import dev.asa.shadow.Judge;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
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
  private final AssignmentSeeds assignmentSeeds;
  private final ShadowSeals shadow;
  private final StandaloneSeals standalone;
  private final SealReads sealReads;
  private final CanarySchedule canarySchedule;
  private final Metrics metrics;

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
    this(store, structural, fetcher, serverKey, judge, new Metrics());
  }

  /**
   * @param metrics where the structural evaluator's latency is recorded
   */
  public VerificationRunner(
      Store store,
      StructuralEvaluator structural,
      DeliverableFetcher fetcher,
      Ed25519PrivateKey serverKey,
      Judge judge,
      Metrics metrics) {
    this.metrics = metrics;
    this.seals = store.seals();
    this.series = new ProviderSeries(store.verifications());
    this.engine = new VerificationEngine(structural);
    this.deliverables = new DeliverableSource(store.deliverables(), fetcher);
    this.serverKey = serverKey;
    this.release = new ReleasePolicy(serverKey, store.verifications());
    this.assignmentSeeds = new AssignmentSeeds(serverKey);
    this.shadow = new ShadowSeals(seals, serverKey, judge);
    this.standalone = new StandaloneSeals(seals, store.writes(), serverKey, judge);
    this.sealReads = new SealReads(seals, store.writes(), shadow);
    this.canarySchedule = CanarySchedule.of(serverKey);
  }

  /** When evaluators get canaries, and which (keyed by the server's own secret). */
  public CanarySchedule canarySchedule() {
    return canarySchedule;
  }

  /** Where a verification finds the deliverable it judges. */
  public DeliverableSource deliverables() {
    return deliverables;
  }

  /** The seeds of evaluator draws (signed with the server key this runner holds). */
  public AssignmentSeeds assignmentSeeds() {
    return assignmentSeeds;
  }

  /** Sealed Shadow Scoring criteria: sealing, reading, validation at verification. */
  public ShadowSeals shadow() {
    return shadow;
  }

  public StandaloneSeals standaloneSeals() {
    return standalone;
  }

  public SealReads sealReads() {
    return sealReads;
  }

  /**
   * The cliff-optimisation mitigations (threshold noise, dynamic tiers) of the agreements it
   * verifies.
   */
  public ReleasePolicy releasePolicy() {
    return release;
  }

  /**
   * Scores the latest deliverable with the structural evaluator and the assigned evaluator's
   * submitted scores, and moves the agreement to VERIFIED (enforcing the result, with or without a
   * challenge window, is the caller's next step).
   */
  Change verify(
      Agreement a, SubmittedResult submitted, Actor actor, Instant now, Supplier<String> newId) {
    return verify(a, submitted, actor, now, newId, null);
  }

  /**
   * @param depthEvidence why the engine verifies at structural depth ({@code depth_by_reputation}),
   *     for the result; null without such a rule
   */
  Change verify(
      Agreement a,
      SubmittedResult submitted,
      Actor actor,
      Instant now,
      Supplier<String> newId,
      ObjectNode depthEvidence) {
    Lifecycle.next(a.state(), Action.VERIFY, Lifecycle.Facts.NONE);
    submitted.requireModelAllowedBy(a.terms());
    DeliverableRow row = deliverables.toVerify(a);
    long started = System.nanoTime();
    VerificationEngine.Assessment assessment;
    try {
      assessment =
          engine.assess(
              DeliverableSource.task(
                  a,
                  row,
                  deliverables.content(row),
                  EvaluationTask.Options.DEFAULTS,
                  Progress.NONE),
              VerificationEngine.Plan.structural());
    } catch (EvaluationException e) {
      throw new IllegalStateException("the structural evaluator does not fail", e);
    }
    metrics.evaluation("structural", System.nanoTime() - started);
    Assessed assessed =
        new Assessed(
            submitted.over(assessment),
            Digest.parse(row.contentHash()),
            Duration.ofNanos(System.nanoTime() - started).toMillis(),
            !submitted.isEmpty(),
            submitted.model(),
            depthEvidence);
    return record(a, assessed, actor, now, newId.get(), List.of());
  }

  /**
   * Runs the engine for the agreement's deliverable (slow: outside any transaction).
   *
   * @param options the evaluator settings the verification runs with
   */
  Assessed assess(
      Agreement a,
      DeliverableRow row,
      String content,
      VerificationEngine.Plan plan,
      EvaluationTask.Options options,
      Progress progress,
      ObjectNode depthEvidence)
      throws EvaluationException {
    long started = System.nanoTime();
    VerificationEngine.Assessment assessment =
        engine.assess(DeliverableSource.task(a, row, content, options, progress), plan);
    return new Assessed(
        assessment,
        Digest.parse(row.contentHash()),
        Duration.ofNanos(System.nanoTime() - started).toMillis(),
        false,
        null,
        depthEvidence);
  }

  /**
   * An assessment of an agreement's deliverable, ready to be recorded.
   *
   * @param submitted whether an external evaluator's scores are part of it
   * @param submittedModel the model the external evaluator named, if any
   * @param depthEvidence the depth chosen by {@code depth_by_reputation} and what it rested on;
   *     null without such a rule
   */
  record Assessed(
      VerificationEngine.Assessment assessment,
      Digest deliverableHash,
      long durationMs,
      boolean submitted,
      String submittedModel,
      ObjectNode depthEvidence) {}

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
    Optional<ShadowSeals.Validated> sealed = validateSeal(a, now);
    if (sealed.isPresent() && sealed.get().hardeningOpen()) {
      return HardeningOpened.change(a, sealed.get(), actor, now, extraWrites);
    }
    ReleasePolicy.Applied applied = release.apply(a);
    Verdict verdict = decide(a, assessed.assessment(), applied.payment(), sealed);
    return new DecidedVerification(a, next, assessed, verdict, applied.audit(), sealed)
        .change(verificationId, now, actor, serverKey, extraWrites);
  }

  /** The agreement's sealed criteria validated against the deliverable; empty when not sealed. */
  private Optional<ShadowSeals.Validated> validateSeal(Agreement a, Instant now) {
    if (seals.ofAgreement(a.id()).isEmpty()) {
      return Optional.empty();
    }
    DeliverableRow delivered = deliverables.toVerify(a);
    return Optional.of(
        shadow.validate(a, deliverables.content(delivered), delivered.format(), now).orElseThrow());
  }

  /**
   * The core's verdict on the assessment, from the payment terms in force, the provider's series
   * when the criteria promise a guarantee, and the shadow gate when the agreement is sealed. Scores
   * the criteria refuse are the client's to fix (422), pointing at where they came from.
   */
  private Verdict decide(
      Agreement a,
      VerificationEngine.Assessment assessment,
      Escrow.Payment payment,
      Optional<ShadowSeals.Validated> sealed) {
    QualityCriteria criteria = a.terms().qualityCriteria();
    VerdictInputs inputs =
        VerdictInputs.of(criteria, payment, assessment.inputs(), assessment.checks());
    if (criteria.guarantee() != null) {
      inputs =
          inputs.withEarlierDeliveries(series.earlierDeliveries(a, criteria.guarantee().window()));
    }
    if (sealed.isPresent()) {
      inputs = inputs.withShadowGate(new ShadowGate(sealed.get().gate(), sealed.get().score()));
    }
    try {
      return Verdicts.decide(inputs);
    } catch (IncompleteScoresException e) {
      throw new InvalidDocumentException(
          assessment.evaluatorType().equals("structural")
              ? "/evaluator_result/dimensions"
              : "/verification_config",
          e.getMessage());
    } catch (IllegalArgumentException e) {
      throw new InvalidDocumentException("/evaluator_result", e.getMessage());
    }
  }
}
