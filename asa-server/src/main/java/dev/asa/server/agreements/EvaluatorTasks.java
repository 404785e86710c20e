package dev.asa.server.agreements;

import dev.asa.access.Judging;
import dev.asa.agreement.Agreement;
import dev.asa.agreement.CanaryTerms;
import dev.asa.agreement.Party;
import dev.asa.integrity.Canary;
import dev.asa.integrity.CanarySchedule;
import dev.asa.integrity.CanarySet;
import dev.asa.integrity.PoolMember;
import dev.asa.integrity.TrackRecord;
import dev.asa.server.store.DeliverableRow;
import dev.asa.server.store.TaskRow;
import dev.asa.server.store.TaskStore;
import dev.asa.server.store.Write;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Gives external evaluators their tasks (whitepaper 6.3): the real work of a delivery and, when the
 * agreement enables canary tasks and the evaluator's schedule says one is due ({@link
 * CanarySchedule}), a canary beside it with the same deadline, so that the two arrive together and
 * look alike. The tasks are writes in the unit of work of the delivery (or of the backup
 * assignment) that gives them: an evaluator never has work the agreement does not know of, and
 * never misses work it does.
 */
final class EvaluatorTasks {
  private final TaskStore tasks;
  private final Supplier<Optional<CanarySet>> canaries;
  private final CanarySchedule schedule;
  private final PoolSource pool;
  private final Ids ids;

  EvaluatorTasks(
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
  List<Write> issue(Agreement a, DeliverableRow delivered, Instant deadline, Instant now) {
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
        long number = tasks.canariesOfType(evaluatorKey, type);
        Optional<Canary> canary = schedule.nextCanary(set.get(), evaluatorKey, type, number);
        canary.ifPresent(c ->
            writes.add(
                new Write.PutTask(
                    TaskRow.open(
                        ids.taskId(),
                        evaluatorKey,
                        a.id(),
                        delivered.attempt(),
                        TaskRow.Kind.CANARY,
                        c.id(),
                        type,
                        true,
                        progress.realTasks(),
                        TaskContent.canary(c),
                        now,
                        deadline))));
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

  /**
   * A qualification canary for a newly registered evaluator (whitepaper 3.6.1: it earns its first
   * evaluations from canaries); empty when the set has none for its service types.
   */
  Optional<TaskRow> qualificationCanary(
      CanarySet set, String evaluatorKey, List<String> serviceTypes, Instant now, Instant due) {
    long given = tasks.qualificationCanaries(evaluatorKey);
    for (int i = 0; i < serviceTypes.size(); i++) {
      // Rotate through the evaluator's service types, one canary each in turn.
      String type = serviceTypes.get((int) ((given + i) % serviceTypes.size()));
      long number = tasks.canariesOfType(evaluatorKey, type);
      Optional<Canary> canary = schedule.nextCanary(set, evaluatorKey, type, number);
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
