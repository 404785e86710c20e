package dev.asa.server.agreements;

import dev.asa.access.AccessPolicy;
import dev.asa.access.Caller;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.Service;
import dev.asa.agreement.Violation;
import dev.asa.document.Agreement;
import dev.asa.document.AgreementDocuments;
import dev.asa.lifecycle.State;
import dev.asa.negotiation.SubcontractBudgets;
import dev.asa.server.store.agreements.AgreementRow;
import dev.asa.server.store.agreements.AgreementStore;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Applies {@link SubcontractBudgets} with what only the store knows: the parent agreement and its
 * other live sub-contracts. Checks and the creation they guard run under a lock per parent, so two
 * sub-contracts created at once cannot both take the same remaining budget (within one server node;
 * several nodes would need the parent's row version in the same transaction).
 */
final class SubcontractGuard {
  private final AgreementStore agreements;
  private final ReentrantLock[] stripes = new ReentrantLock[64];

  SubcontractGuard(AgreementStore agreements) {
    this.agreements = agreements;
    for (int i = 0; i < stripes.length; i++) {
      stripes[i] = new ReentrantLock();
    }
  }

  /** Runs {@code create} with the parent's budgets checked and held for its duration. */
  <T> T createChild(Agreement child, Caller caller, Supplier<T> create) {
    String parentId = child.terms().service().parentAgreementId();
    if (parentId == null) {
      return create.get();
    }
    ReentrantLock lock = stripes[Math.floorMod(parentId.hashCode(), stripes.length)];
    lock.lock();
    try {
      Agreement parent = parentVisibleTo(parentId, caller);
      if (parent.state().isFinal()) {
        throw new InvalidDocumentException(
            "/service/parent_agreement_id",
            "the parent agreement is " + parent.state() + "; a sub-contract needs a live parent");
      }
      requireNone(
          SubcontractBudgets.checkChild(
              parent.terms().service().constraints(),
              liveChildren(parentId, null),
              child.terms().service().constraints()));
      return create.get();
    } finally {
      lock.unlock();
    }
  }

  /** Re-checks budgets after a change of terms, for a sub-contract and for a parent alike. */
  void checkChangedTerms(Agreement changed) {
    String parentId = changed.terms().service().parentAgreementId();
    if (parentId != null) {
      Agreement parent =
          agreements
              .find(parentId)
              .map(r -> AgreementDocuments.readStored(r.document(), r.state()))
              .orElseThrow(() ->
                  new IllegalStateException(
                      "parent " + parentId + " of " + changed.id() + " vanished"));
      requireNone(
          SubcontractBudgets.checkChild(
              parent.terms().service().constraints(),
              liveChildren(parentId, changed.id()),
              changed.terms().service().constraints()));
    }
    List<Service.Constraints> children = liveChildren(changed.id(), null);
    requireNone(SubcontractBudgets.checkParent(changed.terms().service().constraints(), children));
  }

  private Agreement parentVisibleTo(String parentId, Caller caller) {
    Agreement parent =
        agreements
            .find(parentId)
            .map(r -> AgreementDocuments.readStored(r.document(), r.state()))
            .orElse(null);
    if (parent == null || AccessPolicy.rolesOf(parent, caller).isEmpty()) {
      // The same answer whether it does not exist or is someone else's: nothing is revealed.
      throw new InvalidDocumentException(
          "/service/parent_agreement_id",
          "no agreement '" + parentId + "' that the proposer takes part in");
    }
    return parent;
  }

  private List<Service.Constraints> liveChildren(String parentId, String except) {
    return agreements.children(parentId).stream()
        .filter(r ->
            r.state() != State.REJECTED && r.state() != State.EXPIRED && !r.id().equals(except))
        .map((AgreementRow r) ->
            AgreementDocuments.readStored(r.document(), r.state()).terms().service().constraints())
        .toList();
  }

  private static void requireNone(List<Violation> violations) {
    if (!violations.isEmpty()) {
      throw new InvalidDocumentException(violations);
    }
  }
}
