package dev.asa.server.agreements;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Agreement;
import dev.asa.agreement.CanaryTerms;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.Party;
import dev.asa.integrity.Canary;
import dev.asa.integrity.CanaryCheck;
import dev.asa.json.Json;
import dev.asa.lifecycle.State;
import dev.asa.server.store.DeliverableStore;
import dev.asa.server.store.TaskRow;
import dev.asa.server.store.TaskStore;
import dev.asa.server.store.Write;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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
final class TaskSettlement {
  private final TaskStore tasks;
  private final DeliverableStore deliverables;
  private final VerificationRunner verifier;
  private final ResultEnforcement results;
  private final EvaluatorTimeouts timeouts;
  private final EvaluatorAssignments assignments;
  private final Ids ids;
  private final String serverKeyId;

  TaskSettlement(
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
   * What settling changed, and what to tell the pool once it is committed: the graded canaries and
   * the evaluator whose result was recorded, if one was.
   */
  record Settled(Change change, List<Graded> graded, Optional<String> assessedBy) {}

  /** The unended tasks of the agreement's latest delivery, by evaluator key. */
  Map<String, List<TaskRow>> unended(Agreement a) {
    Optional<Integer> latest = deliverables.latest(a.id()).map(d -> d.attempt());
    if (latest.isEmpty()) {
      return Map.of();
    }
    Map<String, List<TaskRow>> byEvaluator = new LinkedHashMap<>();
    for (TaskRow t : tasks.ofDelivery(a.id(), latest.get())) {
      if (!t.status().isEnd()) {
        byEvaluator.computeIfAbsent(t.evaluatorKey(), k -> new ArrayList<>()).add(t);
      }
    }
    return byEvaluator;
  }

  /**
   * The evaluator's deadline passed (the timer, or a late answer noticed it first): every unended
   * task of the delivery settles now, unanswered ones as such; without tasks, the agreement's
   * timeout action runs as it always did. An agreement that has moved on (verified by the server's
   * own evaluator, say) still has its leftover tasks ended, their content erased and canaries
   * graded; its timeout action no longer applies.
   */
  Settled atDeadline(Current current) {
    Map<String, List<TaskRow>> groups = unended(current.agreement());
    Set<String> judging = evaluatorKeys(current.agreement());
    List<Write> leftovers = new ArrayList<>();
    List<TaskRow> group = List.of();
    for (var e : groups.entrySet()) {
      if (judging.contains(e.getKey()) && group.isEmpty()) {
        group = e.getValue();
      } else {
        // A replaced evaluator's tasks: they no longer count.
        e.getValue()
            .forEach(t -> leftovers.add(end(t, TaskRow.Status.WITHDRAWN, "replaced", current)));
      }
    }
    if (group.isEmpty()) {
      Change change =
          current.agreement().state() == State.DELIVERED
              ? timeouts.timedOut(current)
              : new Change(current.agreement(), List.of(), List.of(), null);
      return new Settled(change.with(List.of(), leftovers), List.of(), Optional.empty());
    }
    Settled settled = settle(current, group, true);
    return new Settled(
        settled.change().with(List.of(), leftovers), settled.graded(), settled.assessedBy());
  }

  /**
   * Settles one evaluator's unended tasks of the agreement's latest delivery.
   *
   * @param due whether their deadline has passed; when not, every task must be answered
   */
  Settled settle(Current current, List<TaskRow> group, boolean due) {
    Agreement a = current.agreement();
    Instant now = current.now();
    List<Write> writes = new ArrayList<>();
    List<EventLog.Draft> events = new ArrayList<>();
    List<Graded> graded = new ArrayList<>();
    CanaryTerms terms = a.terms().verification().canaryTasks();
    boolean canaryFailed = false;
    Optional<TaskRow> real = Optional.empty();
    for (TaskRow t : group) {
      if (!t.isCanary()) {
        real = Optional.of(t);
        continue;
      }
      CanaryCheck check = grade(t);
      boolean answered = t.status() == TaskRow.Status.ANSWERED;
      writes.add(
          new Write.EndTask(
              t.id(),
              answered ? TaskRow.Status.SETTLED : TaskRow.Status.EXPIRED,
              check.toJson().toString(),
              now));
      graded.add(new Graded(t.evaluatorKey(), check));
      canaryFailed |= !check.passed();
      events.add(canaryEvent(t, check, terms));
    }
    Change change = null;
    Optional<String> assessedBy = Optional.empty();
    if (real.isPresent()) {
      TaskRow r = real.get();
      boolean live = a.state() == State.DELIVERED && evaluatorKeys(a).contains(r.evaluatorKey());
      if (!live) {
        writes.add(
            end(
                r,
                TaskRow.Status.WITHDRAWN,
                "the agreement moved on (" + a.state() + ")",
                current));
      } else if (r.status() == TaskRow.Status.ANSWERED) {
        if (canaryFailed
            && terms.failureAction() == CanaryTerms.FailureAction.VOID_RESULT_AND_REASSIGN) {
          writes.add(end(r, TaskRow.Status.VOIDED, "a canary given with it failed", current));
          change =
              timeouts.backup(
                  current,
                  "a canary given with the delivery failed, so the evaluator's result is void"
                      + " (void_result_and_reassign)");
        } else {
          try {
            change =
                results.enforce(
                    verifier.verify(
                        a,
                        SubmittedResult.parseTaskAnswer(Json.parseTrusted(r.answer())),
                        Actor.verified("evaluator", r.evaluatorKey()),
                        now,
                        ids::verificationId),
                    now);
            writes.add(end(r, TaskRow.Status.SETTLED, "verified", current));
            assessedBy = Optional.of(r.evaluatorKey());
            if (canaryFailed
                && terms.failureAction() == CanaryTerms.FailureAction.REPLACE_EVALUATOR) {
              change = replaced(change, now);
            }
          } catch (InvalidDocumentException e) {
            // An answer verification refuses is no answer: the timeout action decides.
            writes.add(
                end(
                    r,
                    TaskRow.Status.VOIDED,
                    "refused by verification: " + e.getMessage(),
                    current));
            change = timeouts.timedOut(current);
          }
        }
      } else if (due) {
        writes.add(end(r, TaskRow.Status.EXPIRED, "no answer by the deadline", current));
        change = timeouts.timedOut(current);
      } else {
        throw new IllegalStateException("task " + r.id() + " is unanswered and not yet due");
      }
    }
    if (change == null) {
      change = new Change(a, List.of(), List.of(), null);
    }
    return new Settled(change.with(events, writes), graded, assessedBy);
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

  private static Set<String> evaluatorKeys(Agreement a) {
    return a.evaluators().stream()
        .map(Party::key)
        .flatMap(Optional::stream)
        .map(k -> k.toBase64Url())
        .collect(Collectors.toSet());
  }
}
