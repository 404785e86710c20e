package dev.asa.server.verification;

import dev.asa.access.AccessPolicy;
import dev.asa.access.Caller;
import dev.asa.access.Judging;
import dev.asa.access.Operation;
import dev.asa.document.Agreement;
import dev.asa.evaluators.VerificationEngine.Depth;
import dev.asa.lifecycle.State;
import dev.asa.server.pool.EvaluatorAssignments;
import dev.asa.server.settlement.ResultEnforcement;
import dev.asa.server.store.Write;
import dev.asa.server.store.verification.TaskRow;
import dev.asa.server.verification.engine.EvaluationConfig;
import dev.asa.server.work.Actor;
import dev.asa.server.work.Command;
import dev.asa.server.work.ConflictException;
import dev.asa.server.work.Current;
import dev.asa.server.work.Deadlines;
import dev.asa.server.work.IdempotencyTicket;
import dev.asa.server.work.Ids;
import dev.asa.server.work.Outcome;
import dev.asa.server.work.SubmittedResult;
import dev.asa.server.work.UnitOfWork;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

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
  private final Ids ids;
  private final EngineVerifications engine;
  private final ResultEnforcement results;
  private final EvaluatorAssignments assignments;
  private final TaskSettlement settlement;

  public VerificationFlow(
      UnitOfWork work,
      VerificationRunner verifier,
      String serverKeyId,
      Ids ids,
      EngineVerifications engine,
      ResultEnforcement results,
      EvaluatorAssignments assignments,
      TaskSettlement settlement) {
    this.work = work;
    this.verifier = verifier;
    this.serverKeyId = serverKeyId;
    this.ids = ids;
    this.engine = engine;
    this.results = results;
    this.assignments = assignments;
    this.settlement = settlement;
  }

  public Outcome verify(
      String id, Command.Verify request, Caller caller, IdempotencyTicket ticket) {
    // One read for the checks before the unit of work and for the unit of work itself (which
    // commits over the version read here, or is refused).
    UnitOfWork.Loaded read = work.loadForChange(id);
    Agreement loaded = work.agreement(read.row());
    SubmittedResult submitted = request.submitted();
    // The server's engine runs when asked to, or by the agreement's own depth when nobody submits
    // scores.
    // (Under depth_by_reputation the engine decides, at whatever depth the rule gives, so that the
    // result records why.)
    if (request.engineConfig().isPresent()
        || (submitted.isEmpty()
            && (EngineVerifications.depthOf(loaded) != Depth.STRUCTURAL
                || loaded.terms().verification().depthRule().isPresent()))) {
      return engine.verifyByEngine(
          loaded,
          request.engineConfig().orElse(EvaluationConfig.DEFAULTS),
          null,
          caller,
          ticket,
          null,
          null);
    }
    engine.requireNoPendingRedelivery(loaded, caller);
    // Submitting scores is the evaluator's; asking the server's built-in evaluator to run is any
    // party's, where the terms make it the judge (Judging).
    Operation op =
        submitted.isEmpty() ? Operation.TRIGGER_VERIFICATION : Operation.SUBMIT_VERIFICATION_RESULT;
    AccessPolicy.require(loaded, caller, op);
    if (submitted.isEmpty()) {
      EngineVerifications.requireBuiltInJudges(loaded, caller);
    } else {
      refuseScoresForTheBuiltIn(loaded);
      refuseLateResult(loaded);
      refuseBesideTheQueue(loaded);
    }
    Outcome outcome =
        work.mutate(
            read,
            ticket,
            caller,
            op,
            current ->
                results
                    .enforce(
                        verifier.verify(
                            current.agreement(),
                            submitted,
                            submitted.isEmpty() ? Actor.server(serverKeyId) : current.actor(),
                            current.now(),
                            ids::verificationId),
                        current.now())
                    .with(List.of(), tasksAnsweredHere(current, caller))
                    .with(List.of(), assessmentWrites(current, submitted, caller)));
    if (!submitted.isEmpty() && !assignments.recordsInTransaction()) {
      // A pool held outside the store learns it after the commit (see recordInPool).
      assignments.assessed(loaded, caller, work.now());
    }
    return outcome;
  }

  /**
   * Where the terms give the verdict to the server's built-in evaluator, a key in the evaluator's
   * slot reads the agreement but does not judge it: one judge per agreement.
   */
  private static void refuseScoresForTheBuiltIn(Agreement a) {
    if (Judging.of(a) instanceof Judging.BuiltIn builtIn) {
      throw new ConflictException(
          "agreement "
              + a.id()
              + ": "
              + builtIn.because()
              + ", so the verdict is the built-in evaluator's and no scores are taken; any party"
              + " asks it to run with POST /agreements/{id}/verify without an evaluator_result");
    }
  }

  /**
   * With canary tasks on, or a panel, an evaluator's scores come only through its work queue: a
   * result sent here, beside the queue, would tell real work from canaries (only real work has an
   * agreement to send it to) and skip the grading of the canaries that came with it, or decide for
   * the whole panel.
   */
  private static void refuseBesideTheQueue(Agreement a) {
    String why =
        a.terms().verification().canaryTasks().enabled()
            ? "has canary tasks enabled"
            : a.terms().verification().evaluators().count() > 1
                ? "is judged by a panel of "
                    + a.terms().verification().evaluators().count()
                    + " evaluators, whose answers are combined"
                : null;
    if (why != null) {
      throw new ConflictException(
          "agreement "
              + a.id()
              + " "
              + why
              + ", so its evaluators answer through their work queue: GET /evaluator/tasks lists"
              + " the task, POST /evaluator/tasks/{task_id}/result takes the same evaluator_result");
    }
  }

  /**
   * The open tasks of the latest delivery that a result sent straight to the agreement answers: the
   * submitting evaluator's (it answered here instead), and everyone's when the server's own
   * evaluator verified (nothing is left to judge).
   */
  private List<Write> tasksAnsweredHere(Current current, Caller caller) {
    String by = caller instanceof Caller.Key k ? k.keyId() : null;
    List<Write> writes = new ArrayList<>();
    settlement
        .unended(current.agreement())
        .forEach((key, open) -> {
          for (TaskRow t : open) {
            boolean answeredHere = key.equals(by) && !t.isCanary();
            writes.add(
                new Write.EndTask(
                    t.id(),
                    answeredHere ? TaskRow.Status.SETTLED : TaskRow.Status.WITHDRAWN,
                    answeredHere
                        ? "answered through POST /agreements/{id}/verify"
                        : "the agreement was verified without it",
                    current.now()));
          }
        });
    return writes;
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
    atDeadline(id, Caller.SERVER);
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
   * The evaluators' deadline passed: their tasks settle as they stand ({@link
   * TaskSettlement#settle}; unanswered, the agreement's timeout action runs), and what they taught
   * about the evaluators goes to the pool once committed.
   */
  public Outcome atDeadline(String id, Caller caller) {
    return settleInUnit(id, caller, current -> settlement.settle(current, true));
  }

  /**
   * An evaluator answered a task of the agreement: if that was the last open task of the latest
   * delivery (every panel member's), they all settle now ({@link TaskSettlement#settle}). Nothing
   * happens while one of them is still open.
   */
  void settleAnswered(String id) {
    settleInUnit(
        id,
        Caller.SERVER,
        current ->
            settlement.allAnswered(current.agreement()) ? settlement.settle(current, false) : null);
  }

  /**
   * Runs a settlement in the agreement's unit of work (null: nothing to do), then tells the pool
   * what the committed settlement taught.
   */
  private Outcome settleInUnit(
      String id, Caller caller, Function<Current, TaskSettlement.Settled> decide) {
    AtomicReference<TaskSettlement.Settled> settled = new AtomicReference<>();
    Outcome outcome =
        work.mutate(
            id,
            null,
            caller,
            Operation.TRIGGER_VERIFICATION,
            current -> {
              TaskSettlement.Settled s = decide.apply(current);
              settled.set(s);
              if (s == null) {
                return null;
              }
              if (!assignments.recordsInTransaction()) {
                return s.change();
              }
              // The registry learns what this settlement taught it in the same commit (issue 60:
              // a crash in between stranded an evaluator whose canary was settled but never
              // counted).
              return s.change()
                  .with(
                      List.of(),
                      assignments.recordWrites(
                          current.agreement(),
                          s.assessedBy(),
                          s.graded().stream()
                              .map(g -> Map.entry(g.evaluatorKey(), g.check()))
                              .toList(),
                          s.calibrations(),
                          current.now()));
            });
    if (!assignments.recordsInTransaction()) {
      recordInPool(work.agreement(work.load(id)), settled.get());
    }
    return outcome;
  }

  /** The submitting evaluator's assessment, in the result's own commit (registry pools). */
  private List<Write> assessmentWrites(Current current, SubmittedResult submitted, Caller caller) {
    if (submitted.isEmpty()
        || !assignments.recordsInTransaction()
        || !(caller instanceof Caller.Key k)) {
      return List.of();
    }
    return assignments.recordWrites(
        current.agreement(), List.of(k.keyId()), List.of(), Map.of(), current.now());
  }

  /**
   * Tells a pool held outside the store (a test's) what a committed settlement taught: each graded
   * canary, and the assessment whose result was recorded. The registry learns it in the
   * settlement's own transaction instead ({@link EvaluatorAssignments#recordWrites}).
   */
  void recordInPool(Agreement a, TaskSettlement.Settled settled) {
    if (settled == null) {
      return;
    }
    Instant now = work.now();
    for (TaskSettlement.Graded g : settled.graded()) {
      assignments.recordCanary(g.evaluatorKey(), g.check(), now);
    }
    if (!settled.assessedBy().isEmpty()) {
      assignments.assessed(a, settled.assessedBy(), now);
    }
    settled.calibrations().forEach((key, c) -> assignments.recordCalibration(key, c, now));
  }
}
