package dev.asa.agreement;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * How an agreement's evaluator is chosen (whitepaper 3.6.1), from {@code
 * verification.evaluator_selection}. Whoever chooses the evaluator chooses the outcome: a client
 * would pick a harsh judge, a provider a lenient one. So unless the document names its evaluator in
 * {@code parties.evaluator}, the evaluator comes from the registry's pool, and only among qualified
 * evaluators independent of both parties.
 *
 * <ul>
 *   <li>{@link Named}: {@code parties.evaluator} names the evaluator; nothing is chosen.
 *   <li>{@link RandomFromPool}: drawn at random at activation, verifiably (the default when {@code
 *       parties.evaluator} is absent).
 *   <li>{@link Mutual}: both parties propose pool evaluators while negotiating; one both propose is
 *       assigned, else a random draw after {@code max_rounds}.
 *   <li>{@link Marketplace}: the best match on track record and price among the evaluators that
 *       meet the criteria.
 * </ul>
 */
public sealed interface EvaluatorSelection {

  // Factories rather than constants: a constant of a subtype in this interface could deadlock two
  // threads initialising the interface and the subtype at once.

  /** The agreement names its evaluator in {@code parties.evaluator}; the pool is not involved. */
  static Named named() {
    return new Named();
  }

  /** The whitepaper's default when the agreement names no evaluator. */
  static RandomFromPool randomFromPool() {
    return new RandomFromPool();
  }

  /**
   * What applies when {@code verification.evaluator_selection} is absent: the named evaluator if
   * the document has {@code parties.evaluator}, else a random draw from the pool.
   */
  static EvaluatorSelection defaultFor(boolean evaluatorNamed) {
    return evaluatorNamed ? named() : randomFromPool();
  }

  /** The {@code mode} as written on the wire ({@code named} for {@link Named}, never written). */
  String mode();

  /** Whether the evaluator comes from the pool (every mode but {@link Named}). */
  default boolean fromPool() {
    return !(this instanceof Named);
  }

  /** See {@link #named()}. */
  record Named() implements EvaluatorSelection {
    @Override
    public String mode() {
      return "named";
    }
  }

  /** See {@link #randomFromPool()}. */
  record RandomFromPool() implements EvaluatorSelection {
    @Override
    public String mode() {
      return "random_from_pool";
    }
  }

  /**
   * Both parties propose registry evaluators through negotiation messages; agreement on one assigns
   * it, otherwise a random draw once {@code maxRounds} rounds have passed without one.
   */
  record Mutual(int maxRounds) implements EvaluatorSelection {
    public static final int DEFAULT_MAX_ROUNDS = 3;

    /** More rounds than this only delays the random fallback. */
    public static final int MAX_ROUNDS = 20;

    public Mutual {
      if (maxRounds < 1 || maxRounds > MAX_ROUNDS) {
        throw new IllegalArgumentException(
            "max_rounds must be from 1 to " + MAX_ROUNDS + ", got " + maxRounds);
      }
    }

    @Override
    public String mode() {
      return "mutual";
    }
  }

  /** The best-matching pool evaluator among those that meet {@code criteria}. */
  record Marketplace(Criteria criteria) implements EvaluatorSelection {
    public Marketplace {
      Objects.requireNonNull(criteria, "criteria (Criteria.NONE for none)");
    }

    @Override
    public String mode() {
      return "marketplace";
    }

    /**
     * What an evaluator must offer to be considered; each bound is optional (null: no bound).
     *
     * @param minEvaluations the fewest prior evaluations, beyond the pool's own qualification bar
     * @param domain a domain the evaluator declares expertise in (e.g. {@code medicine})
     * @param maxPriceUsd the most the evaluator may charge per evaluation
     */
    public record Criteria(Integer minEvaluations, String domain, BigDecimal maxPriceUsd) {
      public static final Criteria NONE = new Criteria(null, null, null);

      public Criteria {
        if (minEvaluations != null && minEvaluations < 0) {
          throw new IllegalArgumentException("min_evaluations must not be negative");
        }
        if (maxPriceUsd != null && maxPriceUsd.signum() < 0) {
          throw new IllegalArgumentException("max_price_usd must not be negative");
        }
      }
    }
  }
}
