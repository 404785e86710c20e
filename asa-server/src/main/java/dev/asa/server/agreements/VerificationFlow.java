package dev.asa.server.agreements;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.access.AccessPolicy;
import dev.asa.access.Caller;
import dev.asa.access.Operation;
import dev.asa.agreement.Agreement;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.evaluators.VerificationEngine.Depth;
import dev.asa.facts.EscrowStatus;
import dev.asa.facts.Fact;
import dev.asa.json.Json;
import dev.asa.lifecycle.Action;
import dev.asa.lifecycle.Lifecycle;
import dev.asa.lifecycle.State;
import dev.asa.server.escrow.Disputes;
import dev.asa.server.escrow.Enforcement;
import dev.asa.server.evaluation.EvaluationConfig;
import java.math.BigDecimal;
import java.time.Instant;
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
  private final VerificationRunner verifier;
  private final String serverKeyId;
  private final Closing closing;
  private final Disputes disputes;
  private final Ids ids;
  private final EngineVerifications engine;
  private final ResultEnforcement results;
  private final EvaluatorAssignments assignments;

  VerificationFlow(
      UnitOfWork work,
      VerificationRunner verifier,
      String serverKeyId,
      Closing closing,
      Disputes disputes,
      Ids ids,
      EngineVerifications engine,
      ResultEnforcement results,
      EvaluatorAssignments assignments) {
    this.work = work;
    this.verifier = verifier;
    this.serverKeyId = serverKeyId;
    this.closing = closing;
    this.disputes = disputes;
    this.ids = ids;
    this.engine = engine;
    this.results = results;
    this.assignments = assignments;
  }

  public Outcome verify(
      String id, Command.Verify request, Caller caller, IdempotencyTicket ticket) {
    // One read for the checks before the unit of work (which reads again, to decide on the version
    // it commits over).
    Agreement loaded = work.agreement(work.load(id));
    SubmittedResult submitted = request.submitted();
    // The server's engine runs when asked to, or by the agreement's own depth when nobody submits
    // scores.
    if (request.engineConfig().isPresent()
        || (submitted.isEmpty() && EngineVerifications.depthOf(loaded) != Depth.STRUCTURAL)) {
      return engine.verifyByEngine(
          loaded, request.engineConfig().orElse(EvaluationConfig.DEFAULTS), null, caller, ticket);
    }
    engine.requireNoPendingRedelivery(loaded, caller);
    // Submitting scores is the evaluator's; asking the server's built-in evaluator to run is any
    // party's.
    Operation op =
        submitted.isEmpty() ? Operation.TRIGGER_VERIFICATION : Operation.SUBMIT_VERIFICATION_RESULT;
    AccessPolicy.require(loaded, caller, op);
    if (!submitted.isEmpty()) {
      refuseLateResult(loaded);
    }
    Outcome outcome =
        work.mutate(
            id,
            ticket,
            caller,
            op,
            current ->
                results.enforce(
                    verifier.verify(
                        current.agreement(),
                        submitted,
                        submitted.isEmpty() ? Actor.server(serverKeyId) : current.actor(),
                        current.now(),
                        ids::verificationId),
                    current.now()));
    if (!submitted.isEmpty()) {
      // After the commit, so that only a recorded result counts: a crash in between loses this one
      // assessment from the evaluator's record (rotation then allows it one delivery more).
      assignments.assessed(loaded, caller, work.now());
    }
    return outcome;
  }

  /**
   * An evaluator's result after its deadline is refused, whether or not the timer has run yet: the
   * dead-man's switch decides from the deadline, not from when a poller got round to it. The
   * timeout action runs now (once: it re-checks the state), then the caller hears why.
   */
  private void refuseLateResult(Agreement a) {
    String id = a.id();
    Optional<Instant> deadline = Deadlines.evaluatorDeadline(a);
    Instant now = work.now();
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
          verifier.verify(a, SubmittedResult.NONE, backup, current.now(), ids::verificationId);
      Agreement assigned =
          verified
              .next()
              .withFact(
                  Fact.EVALUATOR_ASSIGNMENT,
                  Json.object()
                      .put("backup", "builtin")
                      .put("assigned_at", current.now().toString())
                      .put("outcome", "verified"));
      return results.enforce(
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
