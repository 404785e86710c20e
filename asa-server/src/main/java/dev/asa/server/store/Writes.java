package dev.asa.server.store;

import dev.asa.integrity.EvaluatorProfile;
import dev.asa.integrity.PoolMember;
import dev.asa.lifecycle.State;
import dev.asa.server.store.agreements.AgreementRow;
import dev.asa.server.store.agreements.AgreementStore;
import dev.asa.server.store.agreements.EventRecord;
import dev.asa.server.store.agreements.EventStore;
import dev.asa.server.store.db.Database;
import dev.asa.server.store.db.StaleVersionException;
import dev.asa.server.store.escrow.LedgerStore;
import dev.asa.server.store.escrow.OutboxStore;
import dev.asa.server.store.idempotency.IdempotencyStore;
import dev.asa.server.store.pool.EvaluatorRow;
import dev.asa.server.store.pool.EvaluatorStore;
import dev.asa.server.store.reputation.ReputationStore;
import dev.asa.server.store.shadow.SealStore;
import dev.asa.server.store.timers.TimerStore;
import dev.asa.server.store.verification.DeliverableStore;
import dev.asa.server.store.verification.JobStore;
import dev.asa.server.store.verification.TaskStore;
import dev.asa.server.store.verification.VerificationStore;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.jdbi.v3.core.Handle;

/**
 * Every transaction that writes to more than one concern's tables: {@link Write}s alone ({@link
 * #apply}), or with the change they ride on (an agreement's creation or change, an evaluator's
 * registration or update). Each store writes its own tables only; this is where they are joined in
 * one transaction, and where each {@link Write} is handed to the store that owns its table. (The
 * stores' static methods that take a {@link Handle} are for this: each writes inside a transaction
 * already open.)
 */
public final class Writes {

  private final Database database;
  private final CommitListener listener;

  Writes(Database database, CommitListener listener) {
    this.database = database;
    this.listener = listener;
  }

  /** Applies writes not tied to an agreement change, in one transaction. */
  public void apply(List<Write> writes) {
    List<Write> writeList = List.copyOf(writes);
    if (writeList.isEmpty()) {
      return;
    }
    database.write(
        "applying " + writeList.size() + " write(s)",
        handle -> {
          applyIn(handle, writeList);
          return null;
        });
    Listeners.tell(() -> listener.writesApplied(writeList));
  }

  /** Inserts a new agreement (version as given, normally 1), its first events and side writes. */
  public void createAgreement(AgreementRow row, List<EventRecord> events, List<Write> writes) {
    Objects.requireNonNull(row, "row");
    List<EventRecord> eventList = List.copyOf(events);
    List<Write> writeList = List.copyOf(writes);
    EventStore.requireBelongTo(row.id(), eventList);
    database.write(
        "creating agreement " + row.id(),
        handle -> {
          AgreementStore.insert(handle, row);
          EventStore.append(handle, row.id(), eventList);
          applyIn(handle, writeList);
          return null;
        });
    Listeners.tell(
        () -> listener.agreementCommitted(row.id(), null, row.state(), eventList, writeList));
  }

  /**
   * Applies one change if the stored version still equals {@code commit.expectedVersion()};
   * otherwise throws {@link StaleVersionException} and writes nothing. {@code createdAt} of the
   * stored row never changes.
   */
  public void commit(Commit commit) {
    AgreementRow row = commit.updated();
    EventStore.requireBelongTo(row.id(), commit.events());
    State from =
        database.write(
            "committing agreement " + row.id(),
            handle -> {
              State before = AgreementStore.update(handle, commit.previous(), row);
              EventStore.append(handle, row.id(), commit.events());
              if (row.state().isFinal() && !commit.events().isEmpty()) {
                EventStore.pack(handle, row.id()); // an ended agreement's log, stored once
              }
              // The update above holds the agreement's row lock until this transaction ends.
              applyIn(handle, commit.writes(), row.id());
              return before;
            });
    Listeners.tell(() ->
        listener.agreementCommitted(row.id(), from, row.state(), commit.events(), commit.writes()));
  }

  /**
   * Registers an evaluator as {@link EvaluatorStore#register} does, committing {@code alongside} in
   * the same transaction (the idempotency record of the request that registers).
   */
  public EvaluatorRow registerEvaluator(
      EvaluatorProfile profile, Instant at, List<Write> alongside) {
    Objects.requireNonNull(profile, "profile");
    List<Write> writes = List.copyOf(alongside);
    return database.write(
        "registering evaluator " + profile.keyId(),
        handle -> {
          EvaluatorRow registered = EvaluatorStore.register(handle, profile, at);
          applyIn(handle, writes);
          return registered;
        });
  }

  /**
   * Changes an evaluator's record and standing as {@link EvaluatorStore#update} does, committing
   * the writes {@code alongside} makes of the updated row in the same transaction (the idempotency
   * record of the request).
   */
  public EvaluatorRow updateEvaluator(
      String keyId,
      UnaryOperator<PoolMember> change,
      Instant at,
      Function<EvaluatorRow, List<Write>> alongside) {
    Objects.requireNonNull(change, "change");
    Objects.requireNonNull(alongside, "alongside");
    return database.write(
        "updating evaluator " + keyId,
        handle -> {
          EvaluatorRow updated = EvaluatorStore.update(handle, keyId, change, at);
          applyIn(handle, alongside.apply(updated));
          return updated;
        });
  }

  /**
   * Hands each write to the store that owns its table, in the caller's transaction, in order. An
   * erasure repeated in one transaction runs once: a verification that also ends the agreement
   * erases the deliverable for both reasons, and the second would find nothing left to erase.
   */
  private static void applyIn(Handle handle, List<Write> writes) {
    applyIn(handle, writes, null);
  }

  /**
   * As {@link #applyIn(Handle, List)}, where the transaction has locked {@code lockedAgreement}.
   */
  private static void applyIn(Handle handle, List<Write> writes, String lockedAgreement) {
    Set<String> erased = new HashSet<>(2);
    for (Write write : writes) {
      switch (write) {
        case Write.PutDeliverable put -> {
          DeliverableStore.put(handle, put.row());
          erased.remove(put.row().agreementId()); // a new deliverable is there to erase again
        }
        case Write.EraseDeliverableContent erase -> {
          if (erased.add(erase.agreementId())) {
            DeliverableStore.eraseContent(handle, erase.agreementId());
          }
        }
        case Write.PutVerification put -> VerificationStore.put(handle, put.row());
        case Write.PutIdempotency put -> IdempotencyStore.put(handle, put.row());
        case Write.LinkToParent link ->
            AgreementStore.link(handle, link.parentId(), link.childId());
        case Write.SetTimer set -> TimerStore.set(handle, set.row());
        case Write.ClearTimers clear -> TimerStore.clear(handle, clear.agreementId());
        case Write.PostTransfer post ->
            LedgerStore.post(
                handle, post.transfer(), post.transfer().agreementId().equals(lockedAgreement));
        case Write.PutAuthorization put ->
            LedgerStore.putAuthorization(
                handle, put.agreementId(), put.binding(), put.body(), put.at());
        case Write.Enqueue enqueue -> OutboxStore.enqueue(handle, enqueue.message());
        case Write.PutJob put -> JobStore.put(handle, put.row());
        case Write.FinishJob finish ->
            JobStore.finish(handle, finish.jobId(), finish.status(), finish.error(), finish.at());
        case Write.PutSeal put -> SealStore.put(handle, put.row());
        case Write.SetSealValidation set ->
            SealStore.setValidation(handle, set.sealId(), set.validation());
        case Write.RevealSeal reveal -> SealStore.reveal(handle, reveal.sealId(), reveal.at());
        case Write.LogSealRead read ->
            SealStore.logRead(handle, read.sealId(), read.caller(), read.route(), read.at());
        case Write.PutTask put -> TaskStore.put(handle, put.row());
        case Write.EndTask end ->
            TaskStore.end(handle, end.taskId(), end.status(), end.outcome(), end.at());
        case Write.WithdrawTasks withdraw ->
            TaskStore.withdraw(
                handle,
                withdraw.agreementId(),
                withdraw.beforeDelivery(),
                withdraw.outcome(),
                withdraw.at());
        case Write.PutOutcome put -> ReputationStore.put(handle, put.outcome());
        case Write.RecordCanary record ->
            EvaluatorStore.recordCanary(handle, record.evaluatorKey(), record.check(), record.at());
        case Write.RecordCalibration record ->
            EvaluatorStore.recordCalibration(
                handle, record.evaluatorKey(), record.more(), record.at());
        case Write.RecordAssessment record ->
            EvaluatorStore.recordAssessment(
                handle, record.evaluatorKeys(), record.providerKey(), record.at());
      }
    }
  }
}
