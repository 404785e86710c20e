package dev.asa.server.agreements;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.access.AccessPolicy;
import dev.asa.access.Caller;
import dev.asa.access.Operation;
import dev.asa.agreement.Agreement;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.Role;
import dev.asa.agreement.VerificationTerms;
import dev.asa.crypto.Digest;
import dev.asa.evaluators.Progress;
import dev.asa.evaluators.VerificationEngine;
import dev.asa.evaluators.VerificationEngine.Depth;
import dev.asa.facts.DisputeFact;
import dev.asa.facts.EscrowStatus;
import dev.asa.facts.Fact;
import dev.asa.facts.VerificationFact;
import dev.asa.json.Json;
import dev.asa.lifecycle.Action;
import dev.asa.lifecycle.Lifecycle;
import dev.asa.lifecycle.State;
import dev.asa.server.escrow.Disputes;
import dev.asa.server.escrow.Enforcement;
import dev.asa.server.evaluation.EvaluationConfig;
import dev.asa.server.evaluation.EvaluatorPool;
import dev.asa.server.evaluation.JobRunner;
import dev.asa.server.evaluation.Jobs;
import dev.asa.server.store.AgreementRow;
import dev.asa.server.store.AgreementStore;
import dev.asa.server.store.DeliverableRow;
import dev.asa.server.store.JobRow;
import dev.asa.server.store.Write;
import dev.asa.shadow.Gate;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Verification of an agreement's deliverable from request to enforcement: an evaluator's submitted
 * scores, the server's engine (at once at structural depth, as a background job at semantic depth),
 * the evaluator's deadline and its backup, and what the recorded result sets off (the
 * challenge-window timer, pessimistic enforcement, a Shadow Scoring quarantine).
 */
public final class VerificationFlow {
  private final UnitOfWork work;
  private final AgreementStore store;
  private final Clock clock;
  private final VerificationRunner verifier;
  private final String serverKeyId;
  private final Closing closing;
  private final Disputes disputes;
  private final EvaluatorPool evaluators;
  private final JobRunner jobs;
  private final Ids ids;

  /**
   * @param evaluators the semantic evaluators for semantic or composite depth; null when the server
   *     runs structural verification only
   * @param jobs runs those slower verifications in the background; null with {@code evaluators}
   */
  VerificationFlow(
      UnitOfWork work,
      Clock clock,
      VerificationRunner verifier,
      String serverKeyId,
      Closing closing,
      Disputes disputes,
      EvaluatorPool evaluators,
      JobRunner jobs,
      Ids ids) {
    this.work = work;
    this.store = work.store();
    this.clock = clock;
    this.verifier = verifier;
    this.serverKeyId = serverKeyId;
    this.closing = closing;
    this.disputes = disputes;
    this.evaluators = evaluators;
    this.jobs = jobs;
    this.ids = ids;
  }

  public Outcome verify(String id, JsonNode body, Caller caller, IdempotencyTicket ticket) {
    requireNoPendingRedelivery(id, caller);
    EvaluationConfig config = SubmittedResult.config(body);
    SubmittedResult submitted = SubmittedResult.parse(body);
    // The server's engine runs when asked to, or by the agreement's own depth when nobody submits
    // scores.
    if (config != null
        || (submitted.isEmpty()
            && store
                .find(id)
                .map(r -> depthOf(work.agreement(r)) != Depth.STRUCTURAL)
                .orElse(false))) {
      return verifyByEngine(
          id, config == null ? EvaluationConfig.DEFAULTS : config, caller, ticket);
    }
    // Submitting scores is the evaluator's; asking the server's built-in evaluator to run is any
    // party's.
    Operation op =
        submitted.isEmpty() ? Operation.TRIGGER_VERIFICATION : Operation.SUBMIT_VERIFICATION_RESULT;
    if (!submitted.isEmpty()) {
      refuseLateResult(id, caller);
    }
    return work.mutate(
        id,
        ticket,
        caller,
        op,
        current ->
            enforceResult(
                verifier.verify(
                    current.agreement(),
                    submitted,
                    submitted.isEmpty() ? Actor.server(serverKeyId) : current.actor(),
                    current.now(),
                    ids::verificationId),
                current.now()));
  }

  /**
   * The agreement's own verification depth ({@code verification.depth}); structural when it names
   * none.
   */
  private static Depth depthOf(Agreement a) {
    String depth = a.terms().verification().depth();
    return depth == null ? Depth.STRUCTURAL : Depth.fromWire(depth);
  }

  /**
   * Verification by the server's engine at the depth asked for (or the agreement's). Structural
   * depth answers at once; semantic and composite depth start a background job and answer 202 with
   * where to follow it. Asking again for the same deliverable finds the job already started (or
   * finished) instead of starting another; after a failed job, asking again starts a new one.
   *
   * @param expectedHash when not null, the digest the caller's copy of the deliverable has: a
   *     different digest from the one recorded at delivery is refused (a deliverable swap)
   */
  public Outcome verifyByEngine(
      String id, EvaluationConfig config, Caller caller, IdempotencyTicket ticket) {
    return verifyByEngine(id, config, null, caller, ticket);
  }

  public Outcome verifyByEngine(
      String id,
      EvaluationConfig config,
      Digest expectedHash,
      Caller caller,
      IdempotencyTicket ticket) {
    requireNoPendingRedelivery(id, caller);
    AgreementRow row = work.loadFor(id, caller, Operation.TRIGGER_VERIFICATION);
    Agreement agreement = work.agreement(row);
    Depth fallback = depthOf(agreement);
    if (evaluators == null
        && (config.depth() != null ? config.depth() : fallback) != Depth.STRUCTURAL) {
      throw new ConflictException(
          "this server runs no semantic evaluator; verify at structural depth or submit an evaluator_result");
    }
    VerificationEngine.Plan plan =
        evaluators == null
            ? VerificationEngine.Plan.structural()
            : evaluators.plan(config, fallback);
    if (agreement.state() == State.DELIVERED && expectedHash != null) {
      DeliverableRow delivered = verifier.deliverables().toVerify(agreement);
      if (!delivered.contentHash().equals(expectedHash.toString())) {
        throw new ConflictException(
            "the deliverable sent ("
                + expectedHash
                + ") is not the one delivered for agreement "
                + id
                + " ("
                + delivered.contentHash()
                + "); a verification judges only what was delivered");
      }
    }
    if (plan.depth() == Depth.STRUCTURAL) {
      return work.mutate(
          id,
          ticket,
          caller,
          Operation.TRIGGER_VERIFICATION,
          current ->
              enforceResult(
                  verifier.verify(
                      current.agreement(),
                      SubmittedResult.parse(null),
                      Actor.server(serverKeyId),
                      current.now(),
                      ids::verificationId),
                  current.now()));
    }
    Optional<DeliverableRow> latest = store.latestDeliverable(id);
    Optional<JobRow> existing =
        latest.flatMap(d -> Jobs.latestAttempt(store, Jobs.agreementKey(id, d.contentHash())));
    if (existing.isPresent() && existing.get().status() == JobRow.Status.COMPLETED) {
      // A replay after the fact: the result already recorded, not a second verification.
      ObjectNode response = Json.object();
      response.put("agreement_id", id);
      response.put("state", agreement.state().name());
      response.set(
          "verification",
          Json.parseTrusted(store.verification(existing.get().id()).orElseThrow().result()));
      return new Outcome(200, response);
    }
    if (existing.isPresent() && existing.get().status() != JobRow.Status.FAILED) {
      return new Outcome(202, Jobs.describe(existing.get()));
    }
    Lifecycle.next(agreement.state(), Action.VERIFY, Lifecycle.Facts.NONE);
    DeliverableRow delivered = verifier.deliverables().toVerify(agreement);
    Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
    long timeout =
        config.timeoutSeconds() != null
            ? config.timeoutSeconds()
            : agreement.terms().verification().evaluatorTimeoutSeconds();
    int attempt = Jobs.nextAttempt(existing);
    ObjectNode request = Json.object();
    request.put("agreement_id", id);
    request.set("verification_config", Jobs.configJson(config, plan));
    JobRow job =
        new JobRow(
            ids.verificationId(),
            Jobs.attemptKey(Jobs.agreementKey(id, delivered.contentHash()), attempt),
            id,
            delivered.contentHash(),
            caller.describe(),
            Json.write(request),
            null,
            JobRow.Status.QUEUED,
            "queued",
            0,
            1,
            null,
            now,
            now,
            now.plusSeconds(timeout));
    Outcome outcome =
        work.mutate(
            id,
            ticket,
            caller,
            Operation.TRIGGER_VERIFICATION,
            current -> {
              Lifecycle.next(current.agreement().state(), Action.VERIFY, Lifecycle.Facts.NONE);
              ObjectNode payload = Json.object();
              payload.put("verification_id", job.id());
              payload.put("deliverable_hash", job.deliverableHash());
              payload.set("verification_config", request.path("verification_config"));
              return new Change(
                  current.agreement(),
                  List.of(
                      new EventLog.Draft(
                          EventType.VERIFICATION_REQUESTED, current.actor(), payload)),
                  List.of(new Write.PutJob(job)),
                  Jobs.describe(job),
                  202);
            });
    startJob(job, plan);
    return outcome;
  }

  /** Resumes an agreement's job found unfinished at startup. */
  public void resumeJob(JobRow job) {
    JsonNode request = Json.parseTrusted(job.request());
    EvaluationConfig config = EvaluationConfig.parse(request.path("verification_config"));
    AgreementRow row = store.find(job.agreementId()).orElseThrow();
    startJob(job, evaluators.plan(config, depthOf(work.agreement(row))));
  }

  private void startJob(JobRow job, VerificationEngine.Plan plan) {
    jobs.submit(
        job,
        progress -> runJob(job, plan, progress),
        message -> Jobs.fail(store, job.id(), message, clock.instant()));
  }

  private void runJob(JobRow job, VerificationEngine.Plan plan, Progress progress)
      throws Exception {
    Agreement a = work.agreement(work.load(job.agreementId()));
    if (a.state() != State.DELIVERED) {
      throw new ConflictException(
          "agreement " + a.id() + " is " + a.state() + " now, no longer waiting for verification");
    }
    DeliverableRow row = verifier.deliverables().toVerify(a);
    if (!row.contentHash().equals(job.deliverableHash())) {
      throw new ConflictException(
          "agreement "
              + a.id()
              + " has a newer deliverable than the one this job was asked to verify");
    }
    VerificationRunner.Assessed assessed =
        verifier.assess(a, row, verifier.deliverables().content(row), plan, progress);
    work.mutate(
        a.id(),
        null,
        Caller.SERVER,
        Operation.TRIGGER_VERIFICATION,
        current -> {
          Agreement now = current.agreement();
          if (now.state() != State.DELIVERED) {
            throw new ConflictException(
                "agreement "
                    + now.id()
                    + " moved on to "
                    + now.state()
                    + " while it was being verified");
          }
          return enforceResult(
              verifier.record(
                  now,
                  assessed,
                  Actor.server(serverKeyId),
                  current.now(),
                  job.id(),
                  List.of(
                      new Write.FinishJob(job.id(), JobRow.Status.COMPLETED, null, current.now()))),
              current.now());
        });
  }

  /**
   * After verification: with a challenge window, a timer enforces the result when it closes;
   * pessimistic verification enforces it at once.
   */
  private Change enforceResult(Change verified, Instant now) {
    Agreement a = verified.next();
    if (a.state() == State.DELIVERED) { // a shadow hardening cycle opened: nothing to enforce yet
      return verified;
    }
    VerificationFact recorded = a.facts().verification().orElseThrow();
    String shadowGate = recorded.shadowGate();
    if (shadowGate.equals(Gate.QUARANTINE.wire()) || shadowGate.equals(Gate.BLOCKED.wire())) {
      return quarantine(verified, shadowGate, now);
    }
    List<Write> writes = new ArrayList<>(verified.writes());
    if (a.terms().verification().strategy() != VerificationTerms.Strategy.PESSIMISTIC) {
      Instant closesAt = recorded.challengeWindowClosesAt();
      writes.addAll(Deadlines.atVerification(a, closesAt));
      return new Change(a, verified.events(), writes, verified.response());
    }
    Change closed = closing.onResult(a, now, Actor.server(serverKeyId));
    List<EventLog.Draft> events = new ArrayList<>(verified.events());
    events.addAll(closed.events());
    writes.addAll(closed.writes());
    ObjectNode response = ((ObjectNode) verified.response()).deepCopy();
    response.put("state", closed.next().state().name());
    return new Change(closed.next(), events, writes, response);
  }

  /**
   * The shadow gate held the payment: a score of 31 to 50% (quarantine), or a seal that does not
   * verify (blocked). The result stays recorded; the agreement goes to DISPUTED with the money
   * frozen, through the same filing as a challenge, with the shadow report as evidence; a ruling
   * settles it.
   */
  private Change quarantine(Change verified, String gate, Instant now) {
    Agreement a = verified.next();
    State next = Lifecycle.next(a.state(), Action.QUARANTINE, Lifecycle.Facts.NONE);
    String reason =
        gate.equals(Gate.BLOCKED.wire()) ? "shadow_seal_broken" : "shadow_score_quarantine";
    Disputes.Filing filing = disputes.file(a, reason, "server", now);
    DisputeFact dispute = filing.fact();
    JsonNode report =
        verified.response() == null
            ? null
            : verified.response().path("verification").path("shadow_score");
    if (report != null && !report.isMissingNode()) {
      ObjectNode evidence = Json.object();
      evidence.set("shadow_score", report);
      dispute = dispute.withEvidence(evidence);
    }
    DisputeFact filed = dispute;
    Agreement result =
        Enforcement.withEscrowStatus(
            a.withState(next).withFacts(f -> f.withDispute(filed)), EscrowStatus.FROZEN);
    ObjectNode payload = Json.object();
    payload.put("gate", gate);
    payload.put("reason_code", reason);
    payload.set("dispute", filing.fact().toJson());
    payload.put("state", next.name());
    List<EventLog.Draft> events = new ArrayList<>(verified.events());
    events.add(new EventLog.Draft(EventType.QUARANTINED, Actor.server(serverKeyId), payload));
    List<Write> writes = new ArrayList<>(verified.writes());
    filing.message().ifPresent(writes::add);
    ObjectNode response = ((ObjectNode) verified.response()).deepCopy();
    response.put("state", next.name());
    return new Change(result, events, writes, response);
  }

  /**
   * An evaluator's result after its deadline is refused, whether or not the timer has run yet: the
   * dead-man's switch decides from the deadline, not from when a poller got round to it. The
   * timeout action runs now (once: it re-checks the state), then the caller hears why.
   */
  private void refuseLateResult(String id, Caller caller) {
    Agreement a = work.agreement(work.loadFor(id, caller, Operation.SUBMIT_VERIFICATION_RESULT));
    Optional<Instant> deadline = Deadlines.evaluatorDeadline(a);
    Instant now = clock.instant();
    if (a.state() != State.DELIVERED || deadline.isEmpty() || now.isBefore(deadline.get())) {
      return;
    }
    work.mutate(
        id,
        null,
        Caller.SERVER,
        Operation.TRIGGER_VERIFICATION,
        current ->
            current.agreement().state() == State.DELIVERED ? evaluatorTimedOut(current) : null);
    throw new ConflictException(
        "the evaluator's deadline for agreement "
            + id
            + " passed at "
            + deadline.get()
            + " (evaluator_timeout_seconds after delivery): the result is refused and the timeout action ("
            + a.terms().escrow().deadMansSwitch().timeoutAction().name().toLowerCase(Locale.ROOT)
            + ") has run");
  }

  /**
   * While a hardening cycle waits for the provider's re-delivery, only the provider (declining to
   * re-deliver) may have the delivery verified as it is; the server's evaluator deadline also ends
   * it.
   */
  private void requireNoPendingRedelivery(String id, Caller caller) {
    Optional<AgreementRow> row = store.find(id);
    if (row.isEmpty()) {
      return; // the call itself answers 404
    }
    Agreement a = work.agreement(row.get());
    var roles = AccessPolicy.rolesOf(a.terms(), caller);
    if (ShadowSeals.hardeningOpen(a) && !roles.isEmpty() && !roles.contains(Role.PROVIDER)) {
      throw new ConflictException(
          "agreement "
              + id
              + " waits for the provider's re-delivery (a shadow hardening cycle is open);"
              + " it is verified after the re-delivery, or when the provider asks for verification as delivered");
    }
  }

  /**
   * The evaluator gave no result in time (section 8.3). {@code hold_for_backup_evaluator}: the
   * server's built-in evaluator, a different and always available one, scores the deliverable; if
   * it cannot score every dimension honestly, the case goes to a ruling with the money frozen. The
   * other actions settle by their fixed split and end the agreement as EXPIRED.
   */
  Change evaluatorTimedOut(Current current) {
    Agreement a = current.agreement();
    var action = a.terms().escrow().deadMansSwitch().timeoutAction();
    ObjectNode payload = Json.object();
    payload.put("timeout_action", action.name().toLowerCase(Locale.ROOT));
    payload.put("evaluator_timeout_seconds", a.terms().evaluatorDeadlineSeconds());
    EventLog.Draft timedOut =
        new EventLog.Draft(EventType.EVALUATOR_TIMED_OUT, current.actor(), payload);
    Change outcome =
        switch (action) {
          case HOLD_FOR_BACKUP_EVALUATOR -> backupEvaluation(current);
          case SPLIT_50_50 ->
              closing.onTimeout(
                  a,
                  BigDecimal.valueOf(50),
                  "evaluator_timeout_split_50_50",
                  current.now(),
                  current.actor());
          case RETURN_TO_CLIENT ->
              closing.onTimeout(
                  a,
                  BigDecimal.ZERO,
                  "evaluator_timeout_return_to_client",
                  current.now(),
                  current.actor());
          case RELEASE_TO_PROVIDER ->
              closing.onTimeout(
                  a,
                  BigDecimal.valueOf(100),
                  "evaluator_timeout_release_to_provider",
                  current.now(),
                  current.actor());
        };
    List<EventLog.Draft> events = new ArrayList<>();
    events.add(timedOut);
    events.addAll(outcome.events());
    return new Change(outcome.next(), events, outcome.writes(), outcome.response());
  }

  private Change backupEvaluation(Current current) {
    Agreement a = current.agreement();
    Actor backup = Actor.server(serverKeyId);
    try {
      Change verified =
          verifier.verify(
              a, SubmittedResult.parse(null), backup, current.now(), ids::verificationId);
      Agreement assigned =
          verified
              .next()
              .withFact(
                  Fact.EVALUATOR_ASSIGNMENT,
                  Json.object()
                      .put("backup", "builtin")
                      .put("assigned_at", current.now().toString())
                      .put("outcome", "verified"));
      return enforceResult(
          new Change(assigned, verified.events(), verified.writes(), verified.response()),
          current.now());
    } catch (InvalidDocumentException e) {
      State next = Lifecycle.next(a.state(), Action.ESCALATE, Lifecycle.Facts.NONE);
      Disputes.Filing filing = disputes.file(a, "evaluator_timeout", "server", current.now());
      ObjectNode assignment =
          Json.object()
              .put("backup", "builtin")
              .put("assigned_at", current.now().toString())
              .put("outcome", "unable")
              .put("reason", e.getMessage());
      Agreement result =
          Enforcement.withEscrowStatus(
              a.withState(next)
                  .withFact(Fact.EVALUATOR_ASSIGNMENT, assignment)
                  .withFacts(f -> f.withDispute(filing.fact())),
              EscrowStatus.FROZEN);
      ObjectNode payload = assignment.deepCopy();
      payload.set("dispute", filing.fact().toJson());
      payload.put("state", next.name());
      return new Change(
          result,
          List.of(new EventLog.Draft(EventType.ESCALATED, backup, payload)),
          filing.message().map(List::of).orElse(List.of()),
          null);
    }
  }
}
