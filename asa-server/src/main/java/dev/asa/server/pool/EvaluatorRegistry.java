package dev.asa.server.pool;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.asa.access.RegistryReader;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.crypto.Digest;
import dev.asa.integrity.Calibration;
import dev.asa.integrity.Canary;
import dev.asa.integrity.CanaryCheck;
import dev.asa.integrity.CanarySet;
import dev.asa.integrity.EvaluatorProfile;
import dev.asa.integrity.PoolMember;
import dev.asa.integrity.Qualification;
import dev.asa.integrity.QualificationPolicy;
import dev.asa.integrity.Standing;
import dev.asa.json.Json;
import dev.asa.server.store.Write;
import dev.asa.server.store.Writes;
import dev.asa.server.store.pool.CanarySetRow;
import dev.asa.server.store.pool.CanarySetStore;
import dev.asa.server.store.pool.EvaluatorRow;
import dev.asa.server.store.pool.EvaluatorStore;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The evaluator registry (whitepaper 3.6.1, 6.3) as the rest of the server uses it: the pool of
 * registered evaluators of a service type with their track records and standing, the bar they must
 * clear ({@link #policy}), the operator's canary set, and the updates that a verification makes to
 * an evaluator's record. The decisions (who is qualified, who may be assigned, whether a canary
 * passed) are the core's ({@link QualificationPolicy}, {@code Screening}, {@link CanaryCheck});
 * this class keeps their inputs, persisted, so that every node and every restart sees the same
 * pool.
 *
 * <p>The canary set is read from the store when its version changes (one small query per call
 * otherwise), so a set the operator replaces on one node is in force on all of them.
 */
public final class EvaluatorRegistry {

  private final EvaluatorStore evaluators;
  private final CanarySetStore canarySets;
  private final Writes writes;
  private final QualificationPolicy policy;
  private final Supplier<Set<String>> canariesServed;

  /** The canary set last read from the store, with its version. */
  private record Loaded(long version, CanarySet set, CanarySetInfo info) {}

  private volatile Loaded loaded;

  /** A registry that knows of no canary served (tests that give no canaries). */
  public EvaluatorRegistry(
      EvaluatorStore evaluators,
      CanarySetStore canarySets,
      Writes writes,
      QualificationPolicy policy) {
    this(evaluators, canarySets, writes, policy, Set::of);
  }

  /**
   * @param writes what commits a registration or a change of standing with the writes that go with
   *     it
   * @param canariesServed the ids of every canary anyone has been given ({@code
   *     TaskStore.canariesServed}): what says whether the set can still qualify anyone
   */
  public EvaluatorRegistry(
      EvaluatorStore evaluators,
      CanarySetStore canarySets,
      Writes writes,
      QualificationPolicy policy,
      Supplier<Set<String>> canariesServed) {
    this.evaluators = Objects.requireNonNull(evaluators, "evaluators");
    this.canarySets = Objects.requireNonNull(canarySets, "canarySets");
    this.writes = Objects.requireNonNull(writes, "writes");
    this.policy = Objects.requireNonNull(policy, "policy");
    this.canariesServed = Objects.requireNonNull(canariesServed, "canariesServed");
  }

  // ---- what an assignment needs ----------------------------------------------------------------

  /**
   * Every registered evaluator that evaluates this service type, with its profile, track record and
   * standing, in key order: the members {@code Screening} sorts into eligible and excluded.
   * Suspended and unqualified evaluators are included (screening says why they are out).
   */
  public List<PoolMember> pool(String serviceType) {
    return evaluators.ofServiceType(serviceType).stream().map(EvaluatorRow::member).toList();
  }

  /** The bar an evaluator must clear to be assigned ({@code asa serve --qualify-...}). */
  public QualificationPolicy policy() {
    return policy;
  }

  /** The operator's canary set, or empty when none was ever loaded. */
  public Optional<CanarySet> canaries() {
    return current().map(Loaded::set);
  }

  /**
   * Records that an evaluator assessed one delivery of a provider: an evaluation counted, its
   * streak with that provider one longer, every other evaluator's streak with that provider ended
   * (as {@code TrackRecord.withEvaluationOf} and {@code withProviderAssessedByAnother} define). An
   * evaluator that is not registered (one an agreement named) counts nothing but still ends the
   * others' streaks.
   *
   * @param evaluatorKeyId and {@code providerKeyId}: keys in base64url
   */
  public void recordAssessment(String evaluatorKeyId, String providerKeyId, Instant at) {
    recordAssessment(List.of(evaluatorKeyId), providerKeyId, at);
  }

  /**
   * As {@link #recordAssessment(String, String, Instant)} for a panel that assessed one delivery
   * together: each of them counts and grows its streak; only evaluators outside the panel lose
   * theirs.
   */
  public void recordAssessment(
      Collection<String> evaluatorKeyIds, String providerKeyId, Instant at) {
    evaluators.recordAssessment(evaluatorKeyIds, providerKeyId, at);
  }

  /**
   * Records how an evaluator did on a canary: a canary taken, passed or not, an evaluation when
   * answered, and its calibration against the known scores.
   *
   * @throws IllegalArgumentException when no evaluator has this key
   */
  public PoolMember recordCanary(String evaluatorKeyId, CanaryCheck check, Instant at) {
    Objects.requireNonNull(check, "check");
    return evaluators
        .update(
            evaluatorKeyId,
            m -> new PoolMember(m.profile(), m.record().withCanary(check), m.standing()),
            at)
        .member();
  }

  /**
   * Adds calibration samples to an evaluator's record, e.g. against the consensus of a
   * multi-evaluator verification ({@code Calibration.compute}).
   *
   * @throws IllegalArgumentException when no evaluator has this key
   */
  public PoolMember recordCalibration(String evaluatorKeyId, Calibration more, Instant at) {
    Objects.requireNonNull(more, "more");
    return evaluators
        .update(
            evaluatorKeyId,
            m -> new PoolMember(m.profile(), m.record().withCalibration(more), m.standing()),
            at)
        .member();
  }

  /** Whether the member clears the bar now, and if not, every reason. */
  public Qualification qualification(PoolMember member) {
    return policy.assess(member.record(), member.standing());
  }

  // ---- what the registry's routes need ---------------------------------------------------------

  /**
   * Whether the evaluator qualifies as it is shown ({@code GET /evaluators/{key}}): judged by its
   * published record, never by the live one (whose every change would tell it how its last answer
   * went), except to the operator; with one reason more when the canary set can no longer give it
   * the evaluations it lacks.
   */
  public Qualification qualificationShown(EvaluatorRow row, RegistryReader reader) {
    Qualification assessed = policy.assess(row.recordFor(reader), row.member().standing());
    List<String> reasons = new ArrayList<>(assessed.reasons());
    canaryShortfall(row.member()).ifPresent(reasons::add);
    return reasons.isEmpty() ? assessed : new Qualification(reasons);
  }

  /**
   * Why canaries can no longer earn the evaluator the evaluations it lacks, if they cannot: only a
   * canary nobody has been given counts for qualification (one given before may have been learned
   * and passed around), so a set the pool has used up qualifies nobody more.
   */
  private Optional<String> canaryShortfall(PoolMember member) {
    int lacking = policy.minEvaluations() - member.record().evaluations();
    Optional<CanarySet> set = canaries();
    if (lacking <= 0 || set.isEmpty()) {
      return Optional.empty();
    }
    Set<String> served = canariesServed.get();
    long fresh =
        member.profile().serviceTypes().stream()
            .flatMap(t -> set.get().forServiceType(t).stream())
            .map(Canary::id)
            .distinct()
            .filter(id -> !served.contains(id))
            .count();
    if (fresh >= lacking) {
      return Optional.empty();
    }
    return Optional.of(
        "the canary set has "
            + fresh
            + " canar"
            + (fresh == 1 ? "y" : "ies")
            + " of its service types that nobody has been given, and it lacks "
            + lacking
            + " evaluation"
            + (lacking == 1 ? "" : "s")
            + ": it cannot qualify by canaries alone until the operator loads more");
  }

  /**
   * What the operator should know about the canary set in force: each service type with fewer
   * canaries than the evaluations qualification asks for, where nobody can qualify by canaries
   * alone. Said at start and when a set is loaded.
   */
  public List<String> canaryShortfalls() {
    Optional<CanarySet> set = canaries();
    if (set.isEmpty() || policy.minEvaluations() == 0) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    Map<String, Integer> byType = CanarySetInfo.countByServiceType(set.get());
    Set<String> types = new TreeSet<>(byType.keySet());
    if (types.size() > 1) {
      types.remove(CanarySetInfo.ANY); // those of any type count for each named one
    }
    for (String type : types) {
      int count =
          byType.getOrDefault(type, 0)
              + (type.equals(CanarySetInfo.ANY) ? 0 : byType.getOrDefault(CanarySetInfo.ANY, 0));
      if (count < policy.minEvaluations()) {
        out.add(
            "the canary set has "
                + count
                + " canaries for service type '"
                + type
                + "', fewer than the "
                + policy.minEvaluations()
                + " evaluations qualification needs: no evaluator of it can qualify by canaries"
                + " alone (each canary counts for qualification once, across the pool)");
      }
    }
    return out;
  }

  public Optional<EvaluatorRow> find(String keyId) {
    return evaluators.find(keyId);
  }

  /** The evaluator's record as each of its latest publications showed it, oldest first. */
  public List<EvaluatorStore.RecordPoint> history(String keyId, int limit) {
    return evaluators.history(keyId, limit);
  }

  /**
   * One page of the registry in key order.
   *
   * @param serviceType null for every service type
   * @param afterKey the last key of the previous page, or null
   */
  public List<EvaluatorRow> list(String serviceType, String afterKey, int limit) {
    return evaluators.list(serviceType, afterKey, limit);
  }

  public long size() {
    return evaluators.count();
  }

  /**
   * Registers an evaluator: active, with an empty record.
   *
   * @throws dev.asa.server.store.db.DuplicateKeyException when its key is registered already
   */
  public EvaluatorRow register(EvaluatorProfile profile, Instant at) {
    return evaluators.register(profile, at);
  }

  /** As {@link #register(EvaluatorProfile, Instant)}, committing {@code alongside} with it. */
  public EvaluatorRow register(EvaluatorProfile profile, Instant at, List<Write> alongside) {
    return writes.registerEvaluator(profile, at, alongside);
  }

  /**
   * Changes an evaluator's standing under its row's lock: {@code change} sees the standing as
   * committed and may throw to refuse (nothing is then written).
   *
   * @throws IllegalArgumentException when no evaluator has this key
   */
  public EvaluatorRow changeStanding(String keyId, UnaryOperator<Standing> change, Instant at) {
    return changeStanding(keyId, change, at, row -> List.of());
  }

  /**
   * As {@link #changeStanding(String, UnaryOperator, Instant)}, committing the writes {@code
   * alongside} makes of the changed row with it.
   */
  public EvaluatorRow changeStanding(
      String keyId,
      UnaryOperator<Standing> change,
      Instant at,
      Function<EvaluatorRow, List<Write>> alongside) {
    return writes.updateEvaluator(
        keyId,
        m -> new PoolMember(m.profile(), m.record(), change.apply(m.standing())),
        at,
        alongside);
  }

  /** What may be told about the canary set in force (never the canaries), if there is one. */
  public Optional<CanarySetInfo> canarySet() {
    return current().map(Loaded::info);
  }

  /**
   * Puts a canary set in force on every node, replacing the one before. Loading the set already in
   * force (same digest) changes nothing: a server restarted with the same {@code --canaries FILE}
   * keeps its version.
   *
   * @param loadedBy who loads it, for the record: {@code CanaryFile.source()} or the operator's key
   */
  public CanarySetInfo loadCanaries(CanarySet set, String loadedBy, Instant at) {
    Objects.requireNonNull(set, "set");
    ArrayNode array = Json.mapper().createArrayNode();
    for (Canary c : set.canaries()) {
      array.add(c.toJson());
    }
    String text = Json.write(array);
    String digest = Digest.sha256(text.getBytes(StandardCharsets.UTF_8)).toString();
    Optional<Loaded> now = current();
    if (now.isPresent() && now.get().info().digest().equals(digest)) {
      return now.get().info();
    }
    CanarySetRow row = canarySets.replace(text, set.canaries().size(), digest, loadedBy, at);
    Loaded fresh = new Loaded(row.version(), set, info(row, set));
    loaded = fresh;
    return fresh.info();
  }

  private Optional<Loaded> current() {
    OptionalLong version = canarySets.version();
    if (version.isEmpty()) {
      return Optional.empty();
    }
    Loaded l = loaded;
    if (l != null && l.version() == version.getAsLong()) {
      return Optional.of(l);
    }
    Optional<CanarySetRow> row = canarySets.current();
    if (row.isEmpty()) {
      return Optional.empty();
    }
    CanarySet set = parse(row.get());
    Loaded fresh = new Loaded(row.get().version(), set, info(row.get(), set));
    loaded = fresh;
    return Optional.of(fresh);
  }

  private static CanarySetInfo info(CanarySetRow row, CanarySet set) {
    return new CanarySetInfo(
        row.count(),
        CanarySetInfo.countByServiceType(set),
        row.digest(),
        row.loadedAt(),
        row.loadedBy(),
        row.version());
  }

  private static CanarySet parse(CanarySetRow row) {
    try {
      return CanarySet.parse(row.canaries());
    } catch (InvalidDocumentException e) {
      throw new IllegalStateException(
          "the stored canary set (version "
              + row.version()
              + ", loaded by "
              + row.loadedBy()
              + ") is unreadable: "
              + e.getMessage()
              + "; load it again with PUT /admin/canaries or asa serve --canaries FILE",
          e);
    }
  }
}
