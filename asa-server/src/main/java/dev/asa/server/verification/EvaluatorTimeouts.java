package dev.asa.server.verification;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.access.Judging;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.document.Agreement;
import dev.asa.facts.EscrowStatus;
import dev.asa.facts.Fact;
import dev.asa.facts.FactCodec;
import dev.asa.json.Json;
import dev.asa.lifecycle.Action;
import dev.asa.lifecycle.Lifecycle;
import dev.asa.lifecycle.State;
import dev.asa.server.escrow.Disputes;
import dev.asa.server.escrow.Enforcement;
import dev.asa.server.pool.EvaluatorAssignments;
import dev.asa.server.settlement.Closing;
import dev.asa.server.settlement.ResultEnforcement;
import dev.asa.server.store.Write;
import dev.asa.server.store.timers.TimerRow;
import dev.asa.server.store.verification.DeliverableRow;
import dev.asa.server.work.Actor;
import dev.asa.server.work.Change;
import dev.asa.server.work.Current;
import dev.asa.server.work.EventLog;
import dev.asa.server.work.EventType;
import dev.asa.server.work.Ids;
import dev.asa.server.work.SubmittedResult;
import dev.asa.server.work.TimerKind;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The evaluator gave no result in time, or gave one that must be set aside (whitepaper 8.3). {@code
 * hold_for_backup_evaluator} first replaces it with the next qualified, independent pool evaluator,
 * which gets the delivery's tasks and a fresh deadline ({@link EvaluatorAssignments#backup}); when
 * none is left, the server's built-in evaluator, a different and always available one, scores the
 * deliverable; if that cannot score every dimension honestly, the case goes to a ruling with the
 * money frozen. The other actions settle by their fixed split and end the agreement as EXPIRED.
 */
public final class EvaluatorTimeouts {
  private final VerificationRunner verifier;
  private final Closing closing;
  private final Disputes disputes;
  private final Ids ids;
  private final ResultEnforcement results;
  private final EvaluatorAssignments assignments;
  private final EvaluatorTasks tasks;
  private final String serverKeyId;

  public EvaluatorTimeouts(
      VerificationRunner verifier,
      Closing closing,
      Disputes disputes,
      Ids ids,
      ResultEnforcement results,
      EvaluatorAssignments assignments,
      EvaluatorTasks tasks,
      String serverKeyId) {
    this.verifier = verifier;
    this.closing = closing;
    this.disputes = disputes;
    this.ids = ids;
    this.results = results;
    this.assignments = assignments;
    this.tasks = tasks;
    this.serverKeyId = serverKeyId;
  }

  /** The evaluator's deadline passed without its result: the agreement's timeout action. */
  Change timedOut(Current current) {
    Agreement a = current.agreement();
    var action = a.terms().escrow().deadMansSwitch().timeoutAction();
    ObjectNode payload = Json.object();
    payload.put("timeout_action", action.name().toLowerCase(Locale.ROOT));
    payload.put("evaluator_timeout_seconds", a.terms().evaluatorDeadlineSeconds());
    EventLog.Draft timedOut =
        new EventLog.Draft(EventType.EVALUATOR_TIMED_OUT, current.actor(), payload);
    Change outcome =
        switch (action) {
          case HOLD_FOR_BACKUP_EVALUATOR ->
              backup(current, "the evaluator gave no result by its deadline");
          case SPLIT_50_50 -> settle(current, 50, "evaluator_timeout_split_50_50");
          case RETURN_TO_CLIENT -> settle(current, 0, "evaluator_timeout_return_to_client");
          case RELEASE_TO_PROVIDER -> settle(current, 100, "evaluator_timeout_release_to_provider");
        };
    return Change.prepending(List.of(timedOut), outcome);
  }

  private Change settle(Current current, int percent, String reason) {
    return closing.onTimeout(
        current.agreement(), BigDecimal.valueOf(percent), reason, current.now(), current.actor());
  }

  /**
   * Someone else judges this delivery: the next pool evaluator with the delivery's tasks and a
   * fresh deadline, else the built-in evaluator, else a ruling.
   *
   * @param why why the evaluator is replaced, for the record
   */
  Change backup(Current current, String why) {
    Agreement a = current.agreement();
    Instant now = current.now();
    if (Judging.of(a) instanceof Judging.BuiltIn builtIn) {
      // Nobody asked the judge the terms name before the deadline: it decides now, itself. A
      // pool evaluator in its place would be a judge the terms did not choose.
      return builtin(current, builtIn.because());
    }
    EvaluatorAssignments.Backup backup = assignments.backup(a, why, now);
    if (backup instanceof EvaluatorAssignments.Backup.Assigned assigned) {
      Agreement next = assigned.agreement();
      Instant deadline = now.plusSeconds(a.terms().evaluatorDeadlineSeconds());
      DeliverableRow delivered = verifier.deliverables().toVerify(a);
      List<Write> writes = new ArrayList<>();
      writes.add(
          new Write.SetTimer(
              TimerRow.of(a.id(), TimerKind.EVALUATOR_TIMEOUT.wireName(), deadline)));
      writes.addAll(tasks.issueTo(next, delivered, assigned.evaluator().keyId(), deadline, now));
      ObjectNode payload = assigned.event().payload();
      payload.put("deadline", deadline.toString());
      return new Change(next, List.of(assigned.event()), writes, null);
    }
    return builtin(current, ((EvaluatorAssignments.Backup.None) backup).reason());
  }

  /**
   * @param noPoolBackup why no pool evaluator judges instead, for the record
   */
  private Change builtin(Current current, String noPoolBackup) {
    Agreement a = current.agreement();
    Actor server = Actor.server(serverKeyId);
    try {
      Change verified =
          verifier.verify(a, SubmittedResult.NONE, server, current.now(), ids::verificationId);
      Agreement assigned =
          verified
              .next()
              .withFact(
                  Fact.EVALUATOR_ASSIGNMENT,
                  Json.object()
                      .put("backup", "builtin")
                      .put("assigned_at", current.now().toString())
                      .put("no_pool_backup", noPoolBackup)
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
              .put("no_pool_backup", noPoolBackup)
              .put("outcome", "unable")
              .put("reason", e.getMessage());
      Agreement result =
          Enforcement.withEscrowStatus(
              a.withState(next)
                  .withFact(Fact.EVALUATOR_ASSIGNMENT, assignment)
                  .withFacts(f -> f.withDispute(filing.fact())),
              EscrowStatus.FROZEN);
      ObjectNode payload = assignment.deepCopy();
      payload.set("dispute", FactCodec.write(filing.fact()));
      payload.put("state", next.name());
      return new Change(
          result,
          List.of(new EventLog.Draft(EventType.ESCALATED, server, payload)),
          filing.message().map(List::of).orElse(List.of()),
          null);
    }
  }
}
