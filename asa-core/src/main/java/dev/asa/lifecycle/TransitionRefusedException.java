package dev.asa.lifecycle;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * An action that the lifecycle does not allow now; says which state we are in and what a caller may
 * ask for instead ({@link Lifecycle#offered}: never the server's own moves).
 */
public final class TransitionRefusedException extends RuntimeException {
  private final State current;
  private final Action attempted;
  private final Set<Action> allowed;

  public TransitionRefusedException(
      State current, Action attempted, Set<Action> allowed, String reason) {
    super(message(current, attempted, allowed, reason));
    this.current = current;
    this.attempted = attempted;
    this.allowed = Set.copyOf(allowed);
  }

  private static String message(
      State current, Action attempted, Set<Action> allowed, String reason) {
    List<Action> offered = Lifecycle.offered(current);
    String allowedText =
        allowed.isEmpty()
            ? "nothing: " + current + " is final"
            : offered.isEmpty()
                ? "nothing a caller can ask for; the server moves it on (a ruling or a timer)"
                : offered.stream().map(Action::wireName).collect(Collectors.joining(", "));
    return "cannot "
        + attempted.wireName()
        + " an agreement in state "
        + current
        + (reason == null ? "" : " (" + reason + ")")
        + "; allowed from "
        + current
        + ": "
        + allowedText;
  }

  public State current() {
    return current;
  }

  public Action attempted() {
    return attempted;
  }

  public Set<Action> allowed() {
    return allowed;
  }

  /** What the caller may ask for instead, in wire-name order ({@link Lifecycle#offered}). */
  public List<Action> offered() {
    return Lifecycle.offered(current);
  }
}
