package dev.asa.agreement;

import java.util.Objects;
import java.util.Optional;

/**
 * How and when the result is enforced. With {@code optimistic} the result waits out the challenge
 * window before money moves; with {@code pessimistic} it is enforced at once.
 *
 * <p>The evaluator-integrity terms (whitepaper 3.6.1, 6.3) say who judges: how the evaluator is
 * chosen, how often it must rotate away from a provider, how many evaluators judge each delivery
 * and whether canary tasks check them.
 *
 * @param depth the section 5.3 depth the agreement asks for ({@code structural}, {@code semantic},
 *     {@code composite}, as the schema allows), or null when it names none
 * @param evaluatorSelection {@code evaluator_selection}; {@link EvaluatorSelection#named()} when
 *     the document names its evaluator and says nothing else
 * @param rotation {@code rotation}, or null when the agreement leaves it to the server's default
 * @param evaluators {@code evaluators}: how many judge each delivery, and how they are combined
 * @param canaryTasks {@code canary_tasks}; {@link CanaryTerms#DISABLED} when absent
 * @param depthByReputation {@code depth_by_reputation}, or null: the depth then is {@code depth}
 */
public record VerificationTerms(
    Strategy strategy,
    long challengeWindowSeconds,
    long evaluatorTimeoutSeconds,
    Visibility resultVisibility,
    String depth,
    EvaluatorSelection evaluatorSelection,
    RotationTerms rotation,
    EvaluatorPanel evaluators,
    CanaryTerms canaryTasks,
    DepthByReputation depthByReputation) {

  /** Applied when an agreement has no {@code verification} member (and names its evaluator). */
  public static final VerificationTerms DEFAULTS =
      new VerificationTerms(
          Strategy.OPTIMISTIC,
          7200,
          600,
          Visibility.PARTIES,
          null,
          EvaluatorSelection.named(),
          null,
          EvaluatorPanel.SINGLE,
          CanaryTerms.DISABLED,
          null);

  public VerificationTerms {
    Objects.requireNonNull(strategy, "strategy");
    Objects.requireNonNull(resultVisibility, "resultVisibility");
    Objects.requireNonNull(evaluatorSelection, "evaluatorSelection");
    Objects.requireNonNull(evaluators, "evaluators (EvaluatorPanel.SINGLE for one)");
    Objects.requireNonNull(canaryTasks, "canaryTasks (CanaryTerms.DISABLED for none)");
    if (challengeWindowSeconds < 0) {
      throw new IllegalArgumentException("challenge_window_seconds must not be negative");
    }
    if (evaluators.count() > 1 && !evaluatorSelection.fromPool()) {
      throw new IllegalArgumentException(
          "several evaluators come from the pool; an agreement that names its evaluator has one");
    }
  }

  /** The agreement's rotation, or the server's default when the agreement sets none. */
  public RotationTerms rotationOr(RotationTerms serverDefault) {
    return rotation != null ? rotation : Objects.requireNonNull(serverDefault, "serverDefault");
  }

  public Optional<DepthByReputation> depthRule() {
    return Optional.ofNullable(depthByReputation);
  }

  public Optional<RotationTerms> rotationTerms() {
    return Optional.ofNullable(rotation);
  }

  public enum Strategy {
    OPTIMISTIC,
    PESSIMISTIC;

    public static Strategy fromWire(String name) {
      return Wire.parse(Strategy.class, name, "verification strategy");
    }
  }

  public enum Visibility {
    PARTIES,
    PARTIES_AND_ARP,
    PUBLIC;

    public static Visibility fromWire(String name) {
      return Wire.parse(Visibility.class, name, "result_visibility");
    }
  }
}
