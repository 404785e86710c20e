package dev.asa.server.verification;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.CanaryTerms;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.Party;
import dev.asa.document.Agreement;
import dev.asa.integrity.Calibration;
import dev.asa.integrity.Canary;
import dev.asa.integrity.CanaryCheck;
import dev.asa.json.Json;
import dev.asa.lifecycle.State;
import dev.asa.server.pool.EvaluatorAssignments;
import dev.asa.server.settlement.ResultEnforcement;
import dev.asa.server.store.Write;
import dev.asa.server.store.verification.DeliverableStore;
import dev.asa.server.store.verification.TaskRow;
import dev.asa.server.store.verification.TaskStore;
import dev.asa.server.work.Actor;
import dev.asa.server.work.Change;
import dev.asa.server.work.Current;
import dev.asa.server.work.EventLog;
import dev.asa.server.work.EventType;
import dev.asa.server.work.Ids;
import dev.asa.server.work.SubmittedResult;
import dev.asa.server.work.TaskEnds;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Settles an evaluator's tasks of one delivery together, once it has answered them all or their
 * deadline has passed: the canaries are graded ({@link CanaryCheck}), then the real answer is used
 * as the agreement's failure action says (whitepaper 6.3, {@code canary_tasks.failure_action}):
 *
 * <ul>
 *   <li>{@code flag_and_continue}: the result stands; the failed canary is in the agreement's
 *       evidence and the evaluator's record.
 *   <li>{@code replace_evaluator}: the result stands, and a backup pool evaluator takes the
 *       evaluator's place for what remains of the agreement.
 *   <li>{@code void_result_and_reassign}: the result is set aside, and a backup pool evaluator
 *       judges the delivery with a fresh deadline.
 * </ul>
 *
 * <p>Settling together is what keeps canaries hidden: an answer changes nothing anyone can see (the
 * agreement, its events, the evaluator's record) until the tasks that came with it are answered
 * too, so an evaluator cannot answer one task, watch what happens, and then tell whether the other
 * is real.
 */
public final class TaskSettlement {
  private final TaskStore tasks;
  private final DeliverableStore deliverables;
  private final VerificationRunner verifier;
  private final ResultEnforcement results;
  private final EvaluatorTimeouts timeouts;
  private final EvaluatorAssignments assignments;
  private final Ids ids;
  private final String serverKeyId;

  public TaskSettlement(
      TaskStore tasks,
      DeliverableStore deliverables,
      VerificationRunner verifier,
      ResultEnforcement results,
      EvaluatorTimeouts timeouts,
      EvaluatorAssignments assignments,
      Ids ids,
      String serverKeyId) {
    this.tasks = tasks;
    this.deliverables = deliverables;
    this.verifier = verifier;
    this.results = results;
    this.timeouts = timeouts;
    this.assignments = assignments;
    this.ids = ids;
    this.serverKeyId = serverKeyId;
  }

  /** One graded canary, to record in the evaluator's track record once committed. */
  record Graded(String evaluatorKey, CanaryCheck check) {}

  /**
   * What settling changed, and what to tell the pool once it is committed: the graded canaries, the
   * evaluators whose result was recorded (one, or a panel) and each panel member's deviation from
   * the panel's consensus.
   */
  record Settled(
      Change change,
      List<Graded> graded,
      List<String> assessedBy,
      Map<String, Calibration> calibrations) {}

  /** The unended tasks of the agreement's latest delivery, by evaluator key. */
  Map<String, List<TaskRow>> unended(Agreement a) {
    Map<String, List<TaskRow>> byEvaluator = new LinkedHashMap<>();
    for (TaskRow t : tasks.ofLatestDelivery(a.id())) {
      if (!t.status().isEnd()) {
        byEvaluator.computeIfAbsent(t.evaluatorKey(), k -> new ArrayList<>()).add(t);
      }
    }
    return byEvaluator;
  }

  /** The withdrawal due to a task its agreement no longer waits for ({@link TaskEnds#outlived}). */
  Optional<Write.WithdrawTasks> outlived(TaskRow task, Agreement a, Instant now) {
    return TaskEnds.outlived(task, a, deliverables, now);
  }

  /**
   * Whether the agreement's evaluators have answered every task of its latest delivery (and at
   * least one is left to settle): then they settle now, without waiting for the deadline.
   */
  boolean allAnswered(Agreement a) {
    Map<String, List<TaskRow>> groups = judging(a, unended(a));
    return !groups.isEmpty()
        && groups.values().stream()
            .flatMap(List::stream)
            .noneMatch(t -> t.status() == TaskRow.Status.OPEN);
  }

  /**
   * Settles the tasks of the latest delivery: at once when every one is answered ({@code due}
   * false), or at the evaluators' deadline, unanswered ones as such; without tasks, the agreement's
   * timeout action runs as it always did. An agreement that has moved on (verified by the server's
   * own evaluator, say) still has its leftover tasks ended, their content erased and canaries
   * graded; its timeout action no longer applies.
   */
  Settled settle(Current current, boolean due) {
    Agreement a = current.agreement();
    Map<String, List<TaskRow>> all = unended(a);
    Map<String, List<TaskRow>> groups = judging(a, all);
    List<Write> writes = new ArrayList<>();
    // A replaced evaluator's leftover tasks no longer count.
    all.forEach((key, open) -> {
      if (!groups.containsKey(key)) {
        open.forEach(t -> writes.add(end(t, TaskRow.Status.WITHDRAWN, "replaced", current)));
      }
    });
    boolean delivered = a.state() == State.DELIVERED;
    if (groups.isEmpty()) {
      Change change = delivered && due ? timeouts.timedOut(current) : Change.unchanged(a);
      return new Settled(change.with(List.of(), writes), List.of(), List.of(), Map.of());
    }
    List<EventLog.Draft> events = new ArrayList<>();
    List<Graded> graded = new ArrayList<>();
    CanaryTerms terms = a.terms().verification().canaryTasks();
    Set<String> failedCanary = new HashSet<>();
    Map<String, TaskRow> reals = new LinkedHashMap<>();
    for (var group : groups.entrySet()) {
      for (TaskRow t : group.getValue()) {
        if (!t.isCanary()) {
          reals.put(group.getKey(), t);
          continue;
        }
        CanaryCheck check = grade(t);
        boolean answered = t.status() == TaskRow.Status.ANSWERED;
        writes.add(
            new Write.EndTask(
                t.id(),
                answered ? TaskRow.Status.SETTLED : TaskRow.Status.EXPIRED,
                check.toJson().toString(),
                current.now()));
        graded.add(new Graded(t.evaluatorKey(), check));
        if (!check.passed()) {
          failedCanary.add(t.evaluatorKey());
        }
        events.add(canaryEvent(t, check, terms));
      }
    }
    if (delivered && reals.isEmpty()) {
      // Only canaries were left (the real work ended another way): nothing to decide.
      return new Settled(Change.unchanged(a).with(events, writes), graded, List.of(), Map.of());
    }
    if (!delivered) {
      reals
          .values()
          .forEach(r ->
              writes.add(
                  end(
                      r,
                      TaskRow.Status.WITHDRAWN,
                      "the agreement moved on (" + a.state() + ")",
                      current)));
      return new Settled(Change.unchanged(a).with(events, writes), graded, List.of(), Map.of());
    }
    Decision decision = decide(current, reals, failedCanary, terms, due, writes);
    return new Settled(
        decision.change().with(events, writes),
        graded,
        decision.assessedBy(),
        decision.calibrations());
  }

  private record Decision(
      Change change, List<String> assessedBy, Map<String, Calibration> calibrations) {}

  /**
   * What the real answers come to: the panel's (or the one evaluator's) result when enough of them
   * count, else a backup or the timeout action. An answer counts unless a canary beside it failed
   * under {@code void_result_and_reassign}.
   */
  private Decision decide(
      Current current,
      Map<String, TaskRow> reals,
      Set<String> failedCanary,
      CanaryTerms terms,
      boolean due,
      List<Write> writes) {
    Agreement a = current.agreement();
    boolean voiding = terms.failureAction() == CanaryTerms.FailureAction.VOID_RESULT_AND_REASSIGN;
    Map<String, SubmittedResult> counted = new LinkedHashMap<>();
    List<TaskRow> countedTasks = new ArrayList<>();
    boolean anyVoided = false;
    for (var e : reals.entrySet()) {
      TaskRow r = e.getValue();
      if (r.status() == TaskRow.Status.ANSWERED) {
        if (voiding && failedCanary.contains(e.getKey())) {
          writes.add(end(r, TaskRow.Status.VOIDED, "a canary given with it failed", current));
          anyVoided = true;
        } else {
          counted.put(e.getKey(), SubmittedResult.parseTaskAnswer(Json.parseTrusted(r.answer())));
          countedTasks.add(r);
        }
      } else if (due) {
        writes.add(end(r, TaskRow.Status.EXPIRED, "no answer by the deadline", current));
      } else {
        throw new IllegalStateException("task " + r.id() + " is unanswered and not yet due");
      }
    }
    int panel = Math.max(1, reals.size());
    int quorum = panel / 2 + 1;
    if (counted.size() < quorum) {
      // Too few answers to decide: those given are set aside with the rest (a backup or the
      // timeout action decides), and set aside means erased, not kept for nobody.
      countedTasks.forEach(r ->
          writes.add(
              end(
                  r,
                  TaskRow.Status.VOIDED,
                  counted.size()
                      + " of the panel's "
                      + panel
                      + " answered by the deadline, fewer than the "
                      + quorum
                      + " a result needs",
                  current)));
      Change change =
          anyVoided && panel == 1
              ? timeouts.backup(
                  current,
                  "a canary given with the delivery failed, so the evaluator's result is void"
                      + " (void_result_and_reassign)")
              : timeouts.timedOut(current);
      return new Decision(change, List.of(), Map.of());
    }
    SubmittedResult result =
        counted.size() == 1
            ? counted.values().iterator().next()
            : SubmittedResult.panel(a.terms().qualityCriteria(), counted);
    String first = counted.keySet().iterator().next();
    try {
      Change change =
          results.enforce(
              verifier.verify(
                  a,
                  result,
                  Actor.verified("evaluator", first),
                  current.now(),
                  ids::verificationId),
              current.now());
      countedTasks.forEach(r -> writes.add(end(r, TaskRow.Status.SETTLED, "verified", current)));
      boolean replacing =
          panel == 1
              && !failedCanary.isEmpty()
              && terms.failureAction() == CanaryTerms.FailureAction.REPLACE_EVALUATOR;
      if (replacing) {
        change = replaced(change, current.now());
      }
      return new Decision(change, List.copyOf(counted.keySet()), calibrations(a, counted));
    } catch (InvalidDocumentException e) {
      // An answer verification refuses is no answer: the timeout action decides.
      countedTasks.forEach(r ->
          writes.add(
              end(
                  r,
                  TaskRow.Status.VOIDED,
                  "refused by verification: " + e.getMessage(),
                  current)));
      return new Decision(timeouts.timedOut(current), List.of(), Map.of());
    }
  }

  /**
   * Each panel member's deviation from the others' median on every dimension (whitepaper 6.3,
   * calibration from consensus); none for one evaluator alone, nor with too few others.
   */
  private static Map<String, Calibration> calibrations(
      Agreement a, Map<String, SubmittedResult> counted) {
    if (counted.size() <= Calibration.MIN_OTHERS_FOR_CONSENSUS) {
      return Map.of();
    }
    List<Calibration.Score> scores = new ArrayList<>();
    counted.forEach((key, answer) ->
        answer
            .dimensions()
            .forEach(d -> scores.add(new Calibration.Score(key, a.id(), d.name(), d.score()))));
    return Calibration.compute(scores, Map.of());
  }

  /** A qualification canary, settled on its own: no agreement is involved. */
  Graded settleAlone(TaskRow canary, Instant now, List<Write> writes) {
    CanaryCheck check = grade(canary);
    writes.add(
        new Write.EndTask(
            canary.id(),
            canary.status() == TaskRow.Status.ANSWERED
                ? TaskRow.Status.SETTLED
                : TaskRow.Status.EXPIRED,
            check.toJson().toString(),
            now));
    return new Graded(canary.evaluatorKey(), check);
  }

  /** The evaluator's result stands; a backup takes its place for the rest of the agreement. */
  private Change replaced(Change verified, Instant now) {
    EvaluatorAssignments.Backup backup =
        assignments.backup(
            verified.next(), "it failed a canary given with the delivery (replace_evaluator)", now);
    if (!(backup instanceof EvaluatorAssignments.Backup.Assigned assigned)) {
      return verified; // nobody to replace it with: the canary event says it failed
    }
    List<EventLog.Draft> events = new ArrayList<>(verified.events());
    events.add(assigned.event());
    return new Change(
        assigned.agreement(), events, verified.writes(), verified.response(), verified.status());
  }

  private static CanaryCheck grade(TaskRow t) {
    Canary canary = TaskContent.canaryOf(t);
    if (t.status() != TaskRow.Status.ANSWERED) {
      return CanaryCheck.unanswered(canary);
    }
    Map<String, BigDecimal> scores = new LinkedHashMap<>();
    SubmittedResult.parseTaskAnswer(Json.parseTrusted(t.answer()))
        .dimensions()
        .forEach(d -> scores.put(d.name(), d.score()));
    return CanaryCheck.of(canary, scores);
  }

  /**
   * The agreement's evidence of a canary: whether it was answered and passed, and what the failure
   * action did; never the canary, its known scores or which task it was (the evaluator reads this
   * agreement, and a canary it could recognise would no longer test it). The operator finds the
   * task in the queue's table.
   */
  private EventLog.Draft canaryEvent(TaskRow t, CanaryCheck check, CanaryTerms terms) {
    ObjectNode payload = Json.object();
    payload.put("evaluator", t.evaluatorKey());
    payload.put("answered", check.answered());
    payload.put("passed", check.passed());
    long within = check.dimensions().stream().filter(CanaryCheck.DimensionCheck::within).count();
    payload.put("dimensions_within_tolerance", within);
    payload.put("dimensions_checked", check.dimensions().size());
    if (!check.passed()) {
      payload.put("failure_action", terms.failureAction().wireName());
    }
    return new EventLog.Draft(EventType.CANARY_CHECKED, Actor.server(serverKeyId), payload);
  }

  private static Write end(TaskRow t, TaskRow.Status status, String outcome, Current current) {
    return new Write.EndTask(t.id(), status, outcome, current.now());
  }

  /** The groups of the agreement's current evaluators, in the agreement's order. */
  private static Map<String, List<TaskRow>> judging(Agreement a, Map<String, List<TaskRow>> all) {
    Map<String, List<TaskRow>> out = new LinkedHashMap<>();
    for (String key : evaluatorKeys(a)) {
      List<TaskRow> group = all.get(key);
      if (group != null) {
        out.put(key, group);
      }
    }
    return out;
  }

  private static Set<String> evaluatorKeys(Agreement a) {
    return a.evaluators().stream()
        .map(Party::key)
        .flatMap(Optional::stream)
        .map(k -> k.toBase64Url())
        .collect(Collectors.toCollection(LinkedHashSet::new));
  }
}
