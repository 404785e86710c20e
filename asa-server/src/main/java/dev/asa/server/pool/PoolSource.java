package dev.asa.server.pool;

import dev.asa.integrity.Calibration;
import dev.asa.integrity.CanaryCheck;
import dev.asa.integrity.PoolMember;
import dev.asa.integrity.QualificationPolicy;
import dev.asa.server.store.pool.EvaluatorRow;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * What assignment needs from the evaluator registry, and no more: the registered evaluators with
 * their track records, the bar they must clear, and a way to tell the registry who assessed which
 * provider's delivery (its record, its rotation streaks). The registry keeps the records; the
 * agreements only read them at activation and report each assessment after it is recorded.
 *
 * <p>Kept this narrow so that the server's registry serves it ({@link #of}) and tests can give a
 * real in-memory pool instead. An interface here, not the registry's own, because the registry's
 * package must not depend on the agreements (no package cycles).
 */
public interface PoolSource {

  /**
   * The registered evaluators to screen for an agreement of this service type (members of other
   * service types may be included: screening excludes them with that reason).
   */
  List<PoolMember> pool(String serviceType);

  /** The qualification bar (whitepaper 3.6.1) pool members are held to. */
  QualificationPolicy policy();

  /**
   * The evaluators' result on a delivery of this provider was recorded: one more evaluation each,
   * each one's streak with the provider one longer, every other evaluator's streak with the
   * provider over. One evaluator, or a panel that judged the delivery together.
   *
   * <p>Called for every result of external evaluators that was recorded, named ones included: a key
   * the registry does not know still ends the other evaluators' streaks with the provider.
   *
   * @param evaluatorKeyIds the evaluators' keys, base64url
   * @param providerKeyId the provider's key, base64url (rotation counts by it)
   */
  void recordAssessment(Collection<String> evaluatorKeyIds, String providerKeyId, Instant at);

  /**
   * More calibration samples for an evaluator, e.g. its deviation from the consensus of a panel it
   * sat on; nothing is recorded for a key the pool does not know.
   */
  void recordCalibration(String evaluatorKeyId, Calibration more, Instant at);

  /** A registered evaluator with its track record; empty for a key the pool does not know. */
  Optional<PoolMember> member(String evaluatorKeyId);

  /**
   * How an evaluator did on a canary (its record's canary count, pass rate and calibration). An
   * evaluator the pool does not know (one an agreement named) has no record to keep it in: nothing
   * is recorded.
   */
  void recordCanary(String evaluatorKeyId, CanaryCheck check, Instant at);

  /**
   * Whether what a settlement teaches the pool (canaries graded, assessments, calibration) is
   * written as {@link dev.asa.server.store.Write}s in the settlement's own transaction: true for
   * the registry, whose tables share the agreements' database, so a crash can never commit one
   * without the other. A pool held elsewhere (a test's) is told after the commit instead.
   */
  default boolean recordsInTransaction() {
    return false;
  }

  /** The server's evaluator registry as the pool. */
  static PoolSource of(EvaluatorRegistry registry) {
    return new PoolSource() {
      @Override
      public boolean recordsInTransaction() {
        return true;
      }

      @Override
      public List<PoolMember> pool(String serviceType) {
        return registry.pool(serviceType);
      }

      @Override
      public QualificationPolicy policy() {
        return registry.policy();
      }

      @Override
      public void recordAssessment(
          Collection<String> evaluatorKeyIds, String providerKeyId, Instant at) {
        registry.recordAssessment(evaluatorKeyIds, providerKeyId, at);
      }

      @Override
      public void recordCalibration(String evaluatorKeyId, Calibration more, Instant at) {
        if (registry.find(evaluatorKeyId).isPresent()) {
          registry.recordCalibration(evaluatorKeyId, more, at);
        }
      }

      @Override
      public Optional<PoolMember> member(String evaluatorKeyId) {
        return registry.find(evaluatorKeyId).map(EvaluatorRow::member);
      }

      @Override
      public void recordCanary(String evaluatorKeyId, CanaryCheck check, Instant at) {
        if (registry.find(evaluatorKeyId).isPresent()) {
          registry.recordCanary(evaluatorKeyId, check, at);
        }
      }
    };
  }
}
