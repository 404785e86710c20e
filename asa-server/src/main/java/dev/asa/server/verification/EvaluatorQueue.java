package dev.asa.server.verification;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.access.Caller;
import dev.asa.agreement.Dimension;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.MetricType;
import dev.asa.agreement.QualityCriteria;
import dev.asa.integrity.CanarySet;
import dev.asa.integrity.PoolMember;
import dev.asa.integrity.Standing;
import dev.asa.json.Json;
import dev.asa.scoring.DimensionInput;
import dev.asa.server.pool.EvaluatorAssignments;
import dev.asa.server.pool.EvaluatorRegistry;
import dev.asa.server.store.Write;
import dev.asa.server.store.Writes;
import dev.asa.server.store.db.DuplicateKeyException;
import dev.asa.server.store.pool.EvaluatorRow;
import dev.asa.server.store.verification.TaskRow;
import dev.asa.server.store.verification.TaskStore;
import dev.asa.server.work.Command;
import dev.asa.server.work.ConflictException;
import dev.asa.server.work.IdempotencyTicket;
import dev.asa.server.work.NotFoundException;
import dev.asa.server.work.Outcome;
import dev.asa.server.work.SubmittedResult;
import dev.asa.server.work.TaskEnds;
import dev.asa.server.work.UnitOfWork;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The evaluator work queue (whitepaper 6.3): {@code GET /evaluator/tasks} and {@code POST
 * /evaluator/tasks/{task_id}/result}. An external evaluator receives every task the same way, real
 * work or canary, and answers each with the {@code evaluator_result} the agreement route takes; the
 * answer is acknowledged the same way too (202, nothing about the verdict), and used when the
 * evaluator's tasks of that delivery have all been answered ({@link TaskSettlement}).
 *
 * <p>A registered evaluator that has not yet made the evaluations qualification asks for gets
 * qualification canaries here, one at a time, until it has (whitepaper 3.6.1: a newly registered
 * evaluator earns its first evaluations from canaries).
 */
public final class EvaluatorQueue {
  /** The most tasks one listing shows, soonest due first. */
  static final int MAX_LISTED = 50;

  /**
   * The most deliverables delivered by URL one listing fetches: each fetch is the provider's URL
   * and may take the fetcher's whole timeout, so a provider must not be able to hold an evaluator's
   * queue for long. The rest are fetched by the next listings.
   */
  static final int MAX_FETCHES_PER_LISTING = 3;

  /** How long a newly registered evaluator has for a qualification canary. */
  static final Duration QUALIFICATION_DEADLINE = Duration.ofHours(1);

  private final UnitOfWork work;
  private final TaskStore tasks;
  private final Writes writes;
  private final EvaluatorTasks issuing;
  private final TaskSettlement settlement;
  private final VerificationFlow flow;
  private final EvaluatorAssignments assignments;
  private final EvaluatorRegistry registry;
  private final DeliverableSource deliverables;

  public EvaluatorQueue(
      UnitOfWork work,
      Writes writes,
      EvaluatorTasks issuing,
      TaskSettlement settlement,
      VerificationFlow flow,
      EvaluatorAssignments assignments,
      EvaluatorRegistry registry,
      DeliverableSource deliverables) {
    this.work = work;
    this.tasks = issuing.store();
    this.writes = writes;
    this.issuing = issuing;
    this.settlement = settlement;
    this.flow = flow;
    this.assignments = assignments;
    this.registry = registry;
    this.deliverables = deliverables;
  }

  /** {@code GET /evaluator/tasks}: the caller's open tasks, soonest due first. */
  public ObjectNode list(Caller caller) {
    String key = keyOf(caller);
    Instant now = work.now();
    settleOverdueAlone(key, now);
    qualificationCanary(key, now);
    ObjectNode body = Json.object();
    ArrayNode list = body.putArray("tasks");
    int fetches = 0;
    for (TaskRow t : live(tasks.openFor(key, now, MAX_LISTED), now)) {
      Optional<TaskContent.DeliveredAt> byUrl = TaskContent.deliveredAt(t);
      if (byUrl.isEmpty()) {
        list.add(TaskContent.view(t));
      } else if (fetches++ < MAX_FETCHES_PER_LISTING) {
        held(t, byUrl.get()).ifPresent(shown -> list.add(TaskContent.view(shown)));
      } // else the next listing fetches it
    }
    return body;
  }

  /**
   * The task with its deliverable, delivered by URL, held inline: fetched the first time its task
   * is listed, checked against its digest, and kept. One that cannot be fetched now is left out of
   * this listing (the reason is logged) and tried again at the next.
   */
  private Optional<TaskRow> held(TaskRow task, TaskContent.DeliveredAt at) {
    String content;
    try {
      content = deliverables.fetched(at.url(), at.hash());
    } catch (InvalidDocumentException e) {
      return Optional.empty();
    }
    tasks.replaceContent(task, TaskContent.withContent(task, content));
    return tasks.find(task.id()).filter(t -> t.status() == TaskRow.Status.OPEN);
  }

  /**
   * The tasks whose agreement still waits for them. A task its agreement has moved past is
   * withdrawn when that happens ({@link TaskEnds}); one found open here all the same (left by an
   * older version of the server) is withdrawn now, not shown.
   */
  private List<TaskRow> live(List<TaskRow> open, Instant now) {
    Map<String, Optional<Write.WithdrawTasks>> byAgreement = new HashMap<>();
    List<TaskRow> live = new ArrayList<>();
    for (TaskRow t : open) {
      Optional<Write.WithdrawTasks> due =
          t.agreementId() == null
              ? Optional.empty()
              : byAgreement.computeIfAbsent(t.agreementId(), id -> outlived(t, now));
      if (due.isEmpty()) {
        live.add(t);
      }
    }
    List<Write> withdrawals =
        byAgreement.values().stream().flatMap(Optional::stream).map(w -> (Write) w).toList();
    writes.apply(withdrawals);
    return live;
  }

  private Optional<Write.WithdrawTasks> outlived(TaskRow t, Instant now) {
    return settlement.outlived(t, work.agreement(work.load(t.agreementId())), now);
  }

  /** {@code POST /evaluator/tasks/{task_id}/result}: the evaluator's answer to one of its tasks. */
  public Outcome submit(
      String taskId, Command.TaskAnswer answer, Caller caller, IdempotencyTicket ticket) {
    String key = keyOf(caller);
    Instant now = work.now();
    // Another evaluator's task, or one not shown yet, is as absent as a task that never was.
    TaskRow task =
        tasks
            .find(taskId)
            .filter(t -> t.evaluatorKey().equals(key) && !t.createdAt().isAfter(now))
            .orElseThrow(() ->
                new NotFoundException(
                    "no task '" + taskId + "' in your work queue (GET /evaluator/tasks lists it)"));
    if (task.status() == TaskRow.Status.WITHDRAWN) {
      throw withdrawn(taskId, task.endedAt(), task.outcome());
    }
    if (task.status().isEnd()) {
      // How else it ended stays unsaid: a voided answer or a graded canary would tell real work
      // from canaries.
      throw new ConflictException("task " + taskId + " has ended; a task takes one answer");
    }
    if (task.status() == TaskRow.Status.ANSWERED) {
      throw new ConflictException(
          "task " + taskId + " was answered at " + task.answeredAt() + "; a task takes one answer");
    }
    if (!now.isBefore(task.deadlineAt())) {
      throw new ConflictException(
          "the deadline of task " + taskId + " passed at " + task.deadlineAt() + "; it is closed");
    }
    Optional<Write.WithdrawTasks> outlived =
        task.agreementId() == null ? Optional.empty() : outlived(task, now);
    if (outlived.isPresent()) {
      writes.apply(List.of(outlived.get()));
      throw withdrawn(taskId, now, outlived.get().outcome());
    }
    requireEveryDimensionScored(task, answer.result());
    if (!tasks.answer(taskId, key, answer.json().toString(), now)) {
      throw new ConflictException("task " + taskId + " was answered or closed meanwhile");
    }
    settleIfComplete(task, now);
    ObjectNode body = Json.object();
    body.put("task_id", taskId);
    body.put("status", "received");
    body.put("received_at", now.toString());
    Outcome outcome = new Outcome(202, body);
    writes.apply(IdempotencyTicket.writes(ticket, outcome, now));
    return outcome;
  }

  /**
   * An answer to a task its agreement moved past is refused saying why: the evaluator learns that
   * its work was not used, rather than hearing "received". The reason is the agreement's (the same
   * for every task of it, real or canary), so it tells nothing about the task.
   */
  private static ConflictException withdrawn(String taskId, Instant at, String why) {
    return new ConflictException(
        "task " + taskId + " was withdrawn at " + at + ": " + why + "; it takes no answer");
  }

  /**
   * A task is answered by scoring every dimension of its criteria, each once, from 0 to 100 (0 or
   * 100 for a boolean one). Checked alike for every task, before the answer is held, so that what
   * is refused never depends on whether the task is real.
   */
  private static void requireEveryDimensionScored(TaskRow task, SubmittedResult result) {
    QualityCriteria criteria = TaskContent.criteria(task);
    List<String> names = TaskContent.dimensionNames(task);
    if (result.dimensions().isEmpty()) {
      throw new InvalidDocumentException(
          "/evaluator_result/dimensions",
          "required: a score for each dimension of the task's criteria: "
              + String.join(", ", names));
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < result.dimensions().size(); i++) {
      DimensionInput d = result.dimensions().get(i);
      String at = "/evaluator_result/dimensions/" + i;
      Optional<Dimension> dimension = criteria.dimension(d.name());
      if (dimension.isEmpty()) {
        throw new InvalidDocumentException(
            at + "/name",
            "the task's criteria have no dimension '"
                + d.name()
                + "'; they have "
                + String.join(", ", names));
      }
      if (!seen.add(d.name())) {
        throw new InvalidDocumentException(at + "/name", "'" + d.name() + "' is scored twice");
      }
      BigDecimal score = d.score();
      if (score.signum() < 0 || score.compareTo(BigDecimal.valueOf(100)) > 0) {
        throw new InvalidDocumentException(at + "/score", "must be from 0 to 100");
      }
      if (dimension.get().metric() == MetricType.BOOLEAN
          && score.signum() != 0
          && score.compareTo(BigDecimal.valueOf(100)) != 0) {
        throw new InvalidDocumentException(
            at + "/score", "'" + d.name() + "' is a boolean dimension: true or false (100 or 0)");
      }
    }
    List<String> missing = names.stream().filter(n -> !seen.contains(n)).toList();
    if (!missing.isEmpty()) {
      throw new InvalidDocumentException(
          "/evaluator_result/dimensions",
          "score every dimension of the task's criteria; missing: " + String.join(", ", missing));
    }
  }

  /**
   * Settles the evaluator's tasks of the delivery if this answer was the last they waited for. A
   * settlement that loses a race (a concurrent one, or the timer) leaves the answer held: whoever
   * settles next uses it.
   */
  private void settleIfComplete(TaskRow answered, Instant now) {
    if (answered.agreementId() == null) {
      settleAlone(tasks.find(answered.id()).orElseThrow(), now);
      return;
    }
    try {
      flow.settleAnswered(answered.agreementId());
    } catch (ConflictException e) {
      // Held: the next settlement (another answer, or the deadline's timer) uses it.
    }
  }

  /**
   * Grades the evaluator's canaries that came on their own and are past their deadline unanswered:
   * each counts as a failed canary in its record. (Answered ones are graded on the answer.)
   */
  private void settleOverdueAlone(String key, Instant now) {
    for (TaskRow t : tasks.unendedAlone(key)) {
      if (!now.isBefore(t.deadlineAt())) {
        settleAlone(t, now);
      }
    }
  }

  /**
   * Gives a registered, unsuspended evaluator that has fewer evaluations than qualification needs
   * its next qualification canary, one at a time, and never more than that number in all: canaries
   * are the operator's secret, and each one shown is one an evaluator might learn. Only a canary
   * nobody has been given before is used; once the set is used up, none is given (qualification
   * then says so, and the operator loads more).
   */
  private void qualificationCanary(String key, Instant now) {
    Optional<CanarySet> set = registry.canaries();
    Optional<EvaluatorRow> row = registry.find(key);
    if (set.isEmpty() || row.isEmpty()) {
      return;
    }
    PoolMember member = row.get().member();
    if (member.standing() instanceof Standing.Suspended) {
      return;
    }
    boolean pending = tasks.unendedAlone(key).stream().anyMatch(t -> !t.scheduled());
    int needed = registry.policy().minEvaluations();
    if (pending
        || member.record().evaluations() >= needed
        || tasks.qualificationCanaries(key) >= needed) {
      return;
    }
    issuing
        .qualificationCanary(
            set.get(), key, member.profile().serviceTypes(), now, now.plus(QUALIFICATION_DEADLINE))
        .ifPresent(t -> writes.apply(List.of(new Write.PutTask(t))));
  }

  /**
   * Grades a canary that belongs to no agreement (answered, or unanswered past its deadline), ends
   * it and records the outcome in the evaluator's record.
   */
  private void settleAlone(TaskRow canary, Instant now) {
    List<Write> ends = new ArrayList<>();
    TaskSettlement.Graded graded = settlement.settleAlone(canary, now, ends);
    boolean together = assignments.recordsInTransaction();
    if (together) { // the outcome in the record commits with the task's end, or neither does
      ends.add(new Write.RecordCanary(graded.evaluatorKey(), graded.check(), now));
    }
    try {
      writes.apply(ends);
    } catch (DuplicateKeyException e) {
      return; // a concurrent request graded it first; its outcome is recorded once, there
    }
    if (!together) {
      assignments.recordCanary(graded.evaluatorKey(), graded.check(), now);
    }
  }

  private static String keyOf(Caller caller) {
    if (caller instanceof Caller.Key k) {
      return k.keyId();
    }
    throw new IllegalStateException("the evaluator routes are signed");
  }
}
