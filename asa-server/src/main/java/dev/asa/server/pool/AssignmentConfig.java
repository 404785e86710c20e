package dev.asa.server.pool;

import dev.asa.agreement.RotationTerms;
import java.util.Objects;
import java.util.Optional;

/**
 * How an agreement that names no evaluator gets one at activation: the pool it is assigned from,
 * and the rotation bound for agreements whose terms set none ({@code asa serve
 * --rotation-max-consecutive N}).
 *
 * @param pool where evaluators come from; empty (the default) for the server's own evaluator
 *     registry, which is what a deployment uses; tests and embedders may give another
 * @param defaultRotation {@code verification.rotation} for agreements that leave it out
 */
public record AssignmentConfig(Optional<PoolSource> pool, RotationTerms defaultRotation) {

  /**
   * The whitepaper names no number. Three keeps a provider from seeing one evaluator for more than
   * three deliveries in a row while letting a small pool (five evaluators, say) still assign: with
   * one, every provider would need as many independent evaluators as it has deliveries in flight.
   */
  public static final int DEFAULT_MAX_CONSECUTIVE = 3;

  public static final AssignmentConfig DEFAULTS =
      new AssignmentConfig(Optional.empty(), new RotationTerms(DEFAULT_MAX_CONSECUTIVE));

  public AssignmentConfig {
    Objects.requireNonNull(pool, "pool (empty for the server's registry)");
    Objects.requireNonNull(defaultRotation, "defaultRotation");
  }

  public AssignmentConfig withPool(PoolSource p) {
    return new AssignmentConfig(Optional.of(p), defaultRotation);
  }

  public AssignmentConfig withDefaultRotation(RotationTerms r) {
    return new AssignmentConfig(pool, r);
  }
}
