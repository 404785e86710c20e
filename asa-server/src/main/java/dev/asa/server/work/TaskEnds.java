package dev.asa.server.work;

import dev.asa.document.Agreement;
import dev.asa.lifecycle.State;
import dev.asa.server.store.Write;
import dev.asa.server.store.verification.DeliverableRow;
import dev.asa.server.store.verification.DeliverableStore;
import dev.asa.server.store.verification.TaskRow;
import java.time.Instant;
import java.util.Optional;

/**
 * A task ends with what it judges (issue 52): when its agreement leaves DELIVERED, whoever decided
 * and however, and when the provider re-delivers. Its content (the deliverable, the criteria) and
 * any answer it held are erased then, and an answer that comes later is refused with the reason
 * recorded here, never taken and dropped.
 *
 * <p>The withdrawals ride in the unit of work of the change that moves the agreement on ({@link
 * UnitOfWork}, {@code AgreementCommands.deliver}); {@link #outlived} finds any task still open that
 * its agreement no longer waits for (one left by an older version of the server), so that the queue
 * neither lists it nor takes its answer.
 */
public final class TaskEnds {
  private TaskEnds() {}

  /** Every unended task of an agreement that has just left DELIVERED for {@code next}. */
  static Write.WithdrawTasks movedOn(String agreementId, State next, Instant now) {
    return new Write.WithdrawTasks(
        agreementId,
        null,
        "the agreement moved on to " + next + " before this task was answered",
        now);
  }

  /** The unended tasks of the deliveries before {@code delivery}, which replaces them. */
  public static Write.WithdrawTasks redelivered(String agreementId, int delivery, Instant now) {
    return new Write.WithdrawTasks(
        agreementId,
        delivery,
        "the provider re-delivered (delivery "
            + delivery
            + "), replacing the delivery this task judged",
        now);
  }

  /**
   * The withdrawal a task of an agreement is due, if its agreement no longer waits for it: empty
   * for a qualification canary and for a task of the delivery in force.
   */
  public static Optional<Write.WithdrawTasks> outlived(
      TaskRow task, Agreement a, DeliverableStore deliverables, Instant now) {
    if (task.agreementId() == null) {
      return Optional.empty();
    }
    if (a.state() != State.DELIVERED) {
      return Optional.of(movedOn(a.id(), a.state(), now));
    }
    int inForce = deliverables.latest(a.id()).map(DeliverableRow::attempt).orElse(task.delivery());
    return task.delivery() < inForce
        ? Optional.of(redelivered(a.id(), inForce, now))
        : Optional.empty();
  }
}
