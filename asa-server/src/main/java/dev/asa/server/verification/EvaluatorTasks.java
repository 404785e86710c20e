package dev.asa.server.verification;

import dev.asa.access.Judging;
import dev.asa.agreement.CanaryTerms;
import dev.asa.agreement.Party;
import dev.asa.document.Agreement;
import dev.asa.integrity.Canary;
import dev.asa.integrity.CanarySchedule;
import dev.asa.integrity.CanarySet;
import dev.asa.integrity.PoolMember;
import dev.asa.integrity.TrackRecord;
import dev.asa.server.pool.PoolSource;
import dev.asa.server.store.Write;
import dev.asa.server.store.verification.DeliverableRow;
import dev.asa.server.store.verification.TaskRow;
import dev.asa.server.store.verification.TaskStore;
import dev.asa.server.work.Ids;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Gives external evaluators their tasks (whitepaper 6.3): the real work of a delivery and, when the
 * agreement enables canary tasks and the evaluator's schedule says one is due ({@link
 * CanarySchedule}), a canary, beside the real task or alone and later, as the schedule places it.
 * The tasks are writes in the unit of work of the delivery (or of the backup assignment) that gives
 * them: an evaluator never has work the agreement does not know of, and never misses work it does.
 */
public final class EvaluatorTasks {
  private final TaskStore tasks;
  private final Supplier<Optional<CanarySet>> canaries;
  private final CanarySchedule schedule;
  private final PoolSource pool;
  private final Ids ids;

  public EvaluatorTasks(
      TaskStore tasks,
      Supplier<Optional<CanarySet>> canaries,
      CanarySchedule schedule,
      PoolSource pool,
      Ids ids) {
    this.tasks = tasks;
    this.canaries = canaries;
    this.schedule = schedule;
    this.pool = pool;
    this.ids = ids;
  }

  TaskStore store() {
    return tasks;
  }

  /**
   * The tasks of one delivery for each of the agreement's external evaluators (those with a key;
   * the server's own evaluator needs none).
   *
   * @param delivered the delivery's stored row (its attempt numbers the tasks)
   * @param deadline when the evaluators' answers are due
   */
  public List<Write> issue(Agreement a, DeliverableRow delivered, Instant deadline, Instant now) {
    List<Write> writes = new ArrayList<>();
    if (Judging.of(a) instanceof Judging.BuiltIn) {
      return writes; // the terms give the verdict to the built-in evaluator: no task to answer
    }
    for (Party evaluator : a.evaluators()) {
      evaluator
          .key()
          .ifPresent(key -> writes.addAll(issueTo(a, delivered, key.toBase64Url(), deadline, now)));
    }
    return writes;
  }

  /** The tasks of one delivery for one evaluator (a backup's, say). */
  List<Write> issueTo(
      Agreement a, DeliverableRow delivered, String evaluatorKey, Instant deadline, Instant now) {
    String type = a.terms().service().type();
    CanaryTerms terms = a.terms().verification().canaryTasks();
    List<Write> writes = new ArrayList<>();
    Optional<CanarySet> set = terms.enabled() ? canaries.get() : Optional.empty();
    if (set.isPresent()) {
      TaskStore.ScheduleCounts counts = tasks.scheduleCounts(evaluatorKey);
      var progress =
          new CanarySchedule.Progress(
              counts.realTasks(), counts.canaries(), counts.realTasksAtLastCanary());
      TrackRecord record =
          pool.member(evaluatorKey).map(PoolMember::record).orElse(TrackRecord.NEW);
      var frequency = CanarySchedule.effectiveFrequency(terms.frequency(), record);
      if (schedule.canaryDue(evaluatorKey, frequency, progress)) {
        nextCanary(set.get(), type)
            .map(c -> scheduledCanary(a, delivered, evaluatorKey, c, progress, deadline, now))
            .ifPresent(t -> writes.add(new Write.PutTask(t)));
      }
    }
    writes.add(
        new Write.PutTask(
            TaskRow.open(
                ids.taskId(),
                evaluatorKey,
                a.id(),
                delivered.attempt(),
                TaskRow.Kind.REAL,
                null,
                type,
                set.isPresent(),
                null,
                TaskContent.real(a, delivered),
                now,
                deadline)));
    return writes;
  }

  /** A canary nobody has been given yet, or once the set is used up, one again. */
  private Optional<Canary> nextCanary(CanarySet set, String type) {
    return schedule
        .freshCanary(set, type, tasks.canariesServed())
        .or(() -> schedule.repeatedCanary(set, type, tasks.canariesOfType(type)));
  }

  /**
   * A scheduled canary where its placement puts it: beside the real task (its delivery's, with the
   * same creation time and deadline, so that a failure can set the real answer aside as the terms
   * say), or alone, later, with as long to answer, belonging to no agreement and counting in the
   * evaluator's record only. A lone task is not shown before its creation time.
   */
  private TaskRow scheduledCanary(
      Agreement a,
      DeliverableRow delivered,
      String evaluatorKey,
      Canary canary,
      CanarySchedule.Progress progress,
      Instant deadline,
      Instant now) {
    Duration timeToAnswer = Duration.between(now, deadline);
    String type = a.terms().service().type();
    return switch (schedule.placement(evaluatorKey, progress.canaries(), timeToAnswer)) {
      case CanarySchedule.Placement.Beside beside ->
          canaryTask(
              evaluatorKey, a.id(), delivered.attempt(), type, canary, progress, now, deadline);
      case CanarySchedule.Placement.Alone alone -> {
        Instant at = now.plus(alone.after());
        yield canaryTask(
            evaluatorKey, null, null, type, canary, progress, at, at.plus(timeToAnswer));
      }
    };
  }

  private TaskRow canaryTask(
      String evaluatorKey,
      String agreementId,
      Integer delivery,
      String type,
      Canary canary,
      CanarySchedule.Progress progress,
      Instant createdAt,
      Instant deadline) {
    return TaskRow.open(
        ids.taskId(),
        evaluatorKey,
        agreementId,
        delivery,
        TaskRow.Kind.CANARY,
        canary.id(),
        type,
        true,
        progress.realTasks(),
        TaskContent.canary(canary),
        createdAt,
        deadline);
  }

  /**
   * A qualification canary for a newly registered evaluator (whitepaper 3.6.1: it earns its first
   * evaluations from canaries); empty when the set has none for its service types.
   */
  Optional<TaskRow> qualificationCanary(
      CanarySet set, String evaluatorKey, List<String> serviceTypes, Instant now, Instant due) {
    long given = tasks.qualificationCanaries(evaluatorKey);
    Set<String> served = tasks.canariesServed();
    for (int i = 0; i < serviceTypes.size(); i++) {
      // Rotate through the evaluator's service types, one canary each in turn; only a canary
      // nobody has been given proves judgement (one given before may have been learned).
      String type = serviceTypes.get((int) ((given + i) % serviceTypes.size()));
      Optional<Canary> canary = schedule.freshCanary(set, type, served);
      if (canary.isPresent()) {
        return Optional.of(
            TaskRow.open(
                ids.taskId(),
                evaluatorKey,
                null,
                null,
                TaskRow.Kind.CANARY,
                canary.get().id(),
                type,
                false,
                null,
                TaskContent.canary(canary.get()),
                now,
                due));
      }
    }
    return Optional.empty();
  }
}
