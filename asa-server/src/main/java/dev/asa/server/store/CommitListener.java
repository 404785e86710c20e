package dev.asa.server.store;

import dev.asa.lifecycle.State;
import dev.asa.server.store.agreements.EventRecord;
import java.util.List;

/**
 * Told about each write after its transaction has committed, never before: what the server reports
 * (log lines, metrics) is then what the database holds, and a change that lost a race or was
 * refused is never reported. Called on the writing thread; it must be quick and must not throw
 * (what it throws is caught and logged, since the write has already happened).
 */
public interface CommitListener {

  /** Hears nothing (tools and tests that open a store on their own). */
  CommitListener NONE =
      new CommitListener() {
        @Override
        public void agreementCommitted(
            String agreementId,
            State from,
            State to,
            List<EventRecord> events,
            List<Write> writes) {}

        @Override
        public void writesApplied(List<Write> writes) {}
      };

  /**
   * An agreement was created ({@code from} null) or changed, with its events and side writes.
   *
   * @param from its state before the change, null for a creation
   * @param to its state after
   */
  void agreementCommitted(
      String agreementId, State from, State to, List<EventRecord> events, List<Write> writes);

  /** Writes not tied to an agreement change were applied ({@link Writes#apply}). */
  void writesApplied(List<Write> writes);
}
