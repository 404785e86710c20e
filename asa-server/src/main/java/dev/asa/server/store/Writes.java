package dev.asa.server.store;

import dev.asa.server.store.db.Database;
import java.util.List;
import org.jdbi.v3.core.Handle;

/**
 * Applies {@link Write}s: each to the store that owns its table, all in the caller's one
 * transaction. Alone ({@link #apply}) for writes not tied to an agreement change, or inside {@link
 * AgreementStore#create} and {@link AgreementStore#commit} with the change they ride on.
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

  static void applyIn(Handle handle, List<Write> writes) {
    for (Write write : writes) {
      switch (write) {
        case Write.PutDeliverable put -> DeliverableStore.put(handle, put.row());
        case Write.EraseDeliverableContent erase ->
            DeliverableStore.eraseContent(handle, erase.agreementId());
        case Write.PutVerification put -> VerificationStore.put(handle, put.row());
        case Write.PutIdempotency put -> IdempotencyStore.put(handle, put.row());
        case Write.LinkToParent link -> AgreementStore.link(handle, link);
        case Write.SetTimer set -> TimerStore.set(handle, set.row());
        case Write.ClearTimers clear -> TimerStore.clear(handle, clear.agreementId());
        case Write.PostTransfer post -> LedgerStore.post(handle, post.transfer());
        case Write.PutAuthorization put -> LedgerStore.putAuthorization(handle, put);
        case Write.Enqueue enqueue -> OutboxStore.enqueue(handle, enqueue.message());
        case Write.PutJob put -> JobStore.put(handle, put.row());
        case Write.FinishJob finish -> JobStore.finish(handle, finish);
        case Write.PutSeal put -> SealStore.put(handle, put.row());
        case Write.SetSealValidation set -> SealStore.setValidation(handle, set);
        case Write.RevealSeal reveal -> SealStore.reveal(handle, reveal);
        case Write.LogSealRead read -> SealStore.logRead(handle, read);
        case Write.PutTask put -> TaskStore.put(handle, put.row());
        case Write.EndTask end -> TaskStore.end(handle, end);
        case Write.WithdrawTasks withdraw -> TaskStore.withdraw(handle, withdraw);
        case Write.PutOutcome put -> ReputationStore.put(handle, put.outcome());
        case Write.RecordCanary record -> EvaluatorStore.recordCanary(handle, record);
        case Write.RecordCalibration record -> EvaluatorStore.recordCalibration(handle, record);
        case Write.RecordAssessment record -> EvaluatorStore.recordAssessment(handle, record);
      }
    }
  }
}
