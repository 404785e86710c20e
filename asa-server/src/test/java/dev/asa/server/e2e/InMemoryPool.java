package dev.asa.server.e2e;

import dev.asa.agreement.Identity;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.integrity.Calibration;
import dev.asa.integrity.CanaryCheck;
import dev.asa.integrity.Deviation;
import dev.asa.integrity.EvaluatorProfile;
import dev.asa.integrity.PoolMember;
import dev.asa.integrity.QualificationPolicy;
import dev.asa.integrity.Standing;
import dev.asa.integrity.TrackRecord;
import dev.asa.server.pool.PoolSource;
import dev.asa.testing.Fixtures;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A real evaluator pool, in memory: registered members whose track records change as the server
 * reports assessments, by the same rules the registry applies ({@link TrackRecord#withEvaluationOf}
 * for the evaluator, {@link TrackRecord#withProviderAssessedByAnother} for everyone else). Nothing
 * in it knows which evaluator a test expects.
 */
final class InMemoryPool implements PoolSource {

  /** One reported assessment, in the order reported. */
  record Assessment(String evaluatorKeyId, String providerKeyId, Instant at) {}

  private final Map<Ed25519PublicKey, PoolMember> members = new LinkedHashMap<>();
  private final List<Assessment> assessments = new ArrayList<>();
  private final QualificationPolicy policy;

  InMemoryPool(QualificationPolicy policy) {
    this.policy = policy;
  }

  InMemoryPool() {
    this(QualificationPolicy.DEFAULTS);
  }

  synchronized InMemoryPool register(PoolMember m) {
    if (members.putIfAbsent(m.key(), m) != null) {
      throw new IllegalArgumentException(m.describe() + " is registered already");
    }
    return this;
  }

  @Override
  public synchronized List<PoolMember> pool(String serviceType) {
    return List.copyOf(members.values());
  }

  @Override
  public QualificationPolicy policy() {
    return policy;
  }

  @Override
  public synchronized void recordAssessment(
      Collection<String> evaluatorKeyIds, String providerKeyId, Instant at) {
    evaluatorKeyIds.forEach(k -> assessments.add(new Assessment(k, providerKeyId, at)));
    members.replaceAll((key, m) ->
        new PoolMember(
            m.profile(),
            evaluatorKeyIds.contains(key.toBase64Url())
                ? m.record().withEvaluationOf(providerKeyId)
                : m.record().withProviderAssessedByAnother(providerKeyId),
            m.standing()));
  }

  @Override
  public synchronized void recordCalibration(String evaluatorKeyId, Calibration more, Instant at) {
    members.replaceAll((key, m) ->
        key.toBase64Url().equals(evaluatorKeyId)
            ? new PoolMember(m.profile(), m.record().withCalibration(more), m.standing())
            : m);
  }

  @Override
  public synchronized Optional<PoolMember> member(String evaluatorKeyId) {
    return members.values().stream()
        .filter(m -> m.key().toBase64Url().equals(evaluatorKeyId))
        .findFirst();
  }

  @Override
  public synchronized void recordCanary(String evaluatorKeyId, CanaryCheck check, Instant at) {
    members.replaceAll((key, m) ->
        key.toBase64Url().equals(evaluatorKeyId)
            ? new PoolMember(m.profile(), m.record().withCanary(check), m.standing())
            : m);
  }

  synchronized List<Assessment> assessments() {
    return List.copyOf(assessments);
  }

  synchronized PoolMember memberNamed(String name) {
    return members.get(Fixtures.key(name).publicKey());
  }

  // ---- members, derived from names --------------------------------------------------------

  /** Evaluates {@code general} work for its own organization; no price, no domains. */
  static EvaluatorProfile profile(String name) {
    return profile(name, "Org of " + name, null, null, List.of());
  }

  static EvaluatorProfile profile(
      String name, String organization, String lineage, BigDecimal price, List<String> domains) {
    return new EvaluatorProfile(
        Fixtures.key(name).publicKey(),
        new Identity("api_key", name, lineage),
        "Judge " + name,
        organization,
        List.of("general"),
        null,
        price,
        domains);
  }

  /**
   * A record with {@code evaluations} evaluations, {@code passes} of {@code canaries} canaries
   * passed, each canary {@code deviation} points off on accuracy.
   */
  static TrackRecord record(int evaluations, int canaries, int passes, String deviation) {
    BigDecimal d = new BigDecimal(deviation);
    Calibration c =
        canaries == 0
            ? Calibration.EMPTY
            : new Calibration(
                Map.of(
                    "accuracy",
                    new Deviation(
                        canaries, d.multiply(BigDecimal.valueOf(canaries)), BigDecimal.ZERO)),
                Map.of());
    return new TrackRecord(evaluations, canaries, passes, c, Map.of());
  }

  /** Clears the default bar: 60 evaluations, 19 of 20 canaries, 4 points off. */
  static PoolMember qualified(String name) {
    return new PoolMember(profile(name), record(60, 20, 19, "4"), Standing.ACTIVE);
  }

  /**
   * Qualified, of the first party's organization by name, and declaring a conflict of interest with
   * these parties' keys (from {@link Fixtures#key}): what keeps it off their work is its
   * declaration, never the organization a party claims (issue 53).
   */
  static PoolMember conflicted(String name, String organization, String... parties) {
    return qualified(
        new EvaluatorProfile(
            Fixtures.key(name).publicKey(),
            new Identity("api_key", name, null),
            "Judge " + name,
            organization,
            List.of("general"),
            null,
            null,
            List.of(),
            java.util.Arrays.stream(parties).map(p -> Fixtures.key(p).publicKey()).toList()));
  }

  static PoolMember qualified(EvaluatorProfile profile) {
    return new PoolMember(profile, record(60, 20, 19, "4"), Standing.ACTIVE);
  }
}
