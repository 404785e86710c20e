package dev.asa.server.pool;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.access.Caller;
import dev.asa.agreement.AgreementTerms;
import dev.asa.agreement.EvaluatorPanel;
import dev.asa.agreement.EvaluatorSelection;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.document.Agreement;
import dev.asa.facts.EvaluatorAssignmentFact;
import dev.asa.facts.EvaluatorAssignmentFact.AssignedEvaluator;
import dev.asa.facts.EvaluatorProposalsFact;
import dev.asa.facts.FactCodec;
import dev.asa.integrity.Assignment;
import dev.asa.integrity.AssignmentContext;
import dev.asa.integrity.Calibration;
import dev.asa.integrity.CanaryCheck;
import dev.asa.integrity.Draw;
import dev.asa.integrity.PoolMember;
import dev.asa.integrity.Screening;
import dev.asa.integrity.Seed;
import dev.asa.lifecycle.State;
import dev.asa.server.store.Write;
import dev.asa.server.work.Actor;
import dev.asa.server.work.ConflictException;
import dev.asa.server.work.EventLog;
import dev.asa.server.work.EventType;
import dev.asa.server.work.SubmittedResult;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Evaluators from the pool (whitepaper 3.6.1, 6.3): an agreement that names no evaluator gets one
 * when it becomes ACTIVE, inside the unit of work of the signature that activates it, so the
 * agreement is never ACTIVE without its evaluator.
 *
 * <p>Only evaluators that are qualified, independent of both parties (not holding a party's key, no
 * conflict of interest declared with one; never a party's own unchecked claims) and not due to
 * rotate away from the provider are ever chosen ({@link Screening}); the choice is {@link
 * Assignment#assign} with the seed of {@link AssignmentSeeds}, and the {@code evaluator_assigned}
 * event records the mode, the seed and every candidate list with its digest, so anyone can
 * recompute it with {@link Draw}, and who was left out by which rule ({@code excluded}). When
 * nobody can be assigned the activating signature is refused (409) with the reason, evaluator by
 * evaluator, and nothing is written: an ACTIVE agreement without an evaluator would only end,
 * later, in a timeout.
 *
 * <p>After an evaluator's result is recorded it is reported to the pool ({@link
 * PoolSource#recordAssessment}), which is what rotation counts.
 *
 * <p>In {@code mutual} mode the draw is among the evaluators both parties proposed while
 * negotiating ({@link EvaluatorProposalsFact#common}, each party's latest list), those that are not
 * eligible now left out with a note; with none left, the random fallback, and the record's notes
 * say so.
 */
public final class EvaluatorAssignments {
  private final AssignmentConfig config;
  private final PoolSource pool;
  private final AssignmentSeeds seeds;
  private final String serverKeyId;

  /**
   * @param pool where evaluators come from (the config's, else the server's registry)
   */
  public EvaluatorAssignments(
      AssignmentConfig config, PoolSource pool, AssignmentSeeds seeds, String serverKeyId) {
    this.config = config;
    this.pool = pool;
    this.seeds = seeds;
    this.serverKeyId = serverKeyId;
  }

  /**
   * Refuses, when it is proposed, what the server would otherwise quietly not honour: a panel
   * combined by {@code majority} (panels are combined by the median per dimension, {@link
   * SubmittedResult#panel}; a majority of verdicts is not built).
   */
  public void checkSupported(AgreementTerms terms) {
    EvaluatorPanel panel = terms.verification().evaluators();
    if (panel.count() > 1 && panel.method() != EvaluatorPanel.Method.MEDIAN) {
      throw new InvalidDocumentException(
          "/verification/evaluators/method",
          "this server combines a panel's results by the median of each dimension (a majority vote"
              + " for boolean ones); it does not take a majority of verdicts, so it cannot honour"
              + " \"majority\": ask for \"median\"");
    }
  }

  /** An activated agreement with its assigned evaluators, and the event that records them. */
  public record Assigned(Agreement agreement, EventLog.Draft event) {}

  /**
   * Assigns the evaluators of an agreement that has just become ACTIVE; empty when the document
   * names its evaluator (nothing to assign).
   *
   * @throws ConflictException when no evaluator can be assigned, saying why for each pool member
   */
  public Optional<Assigned> atActivation(Agreement active, Instant now) {
    AgreementTerms terms = active.terms();
    EvaluatorSelection selection = terms.verification().evaluatorSelection();
    if (!selection.fromPool()) {
      return Optional.empty();
    }
    AssignmentContext context = AssignmentContext.of(terms, config.defaultRotation());
    List<PoolMember> members = pool.pool(context.serviceType());
    Screening screening = Screening.of(members, context, pool.policy());
    Seed seed = seeds.of(active);
    int count = terms.verification().evaluators().count();
    Assignment result =
        Assignment.assign(selection, screening, seed, count, proposedByBoth(active, selection));
    return switch (result) {
      case Assignment.Unavailable u -> throw unavailable(active, selection, u);
      case Assignment.Assigned a -> Optional.of(recorded(active, a, screening, seed, now));
    };
  }

  /**
   * Mutual mode: the evaluators on both parties' latest proposals; no proposals count otherwise.
   */
  private static Set<Ed25519PublicKey> proposedByBoth(Agreement a, EvaluatorSelection selection) {
    return selection instanceof EvaluatorSelection.Mutual
        ? a.facts().evaluatorProposals().common()
        : Set.of();
  }

  private Assigned recorded(
      Agreement active, Assignment.Assigned a, Screening screening, Seed seed, Instant now) {
    String candidatesDigest = Draw.digestOf(screening.eligibleKeys()).toString();
    EvaluatorAssignmentFact fact =
        new EvaluatorAssignmentFact(
            a.selection().mode(),
            a.evaluators().stream().map(EvaluatorAssignments::assigned).toList(),
            seed.toBase64Url(),
            candidatesDigest,
            now,
            a.notes());
    ObjectNode payload = a.toJson();
    payload.put("seed", seed.toBase64Url());
    payload.put("seed_rule", AssignmentSeeds.RULE);
    payload.put("server_key", serverKeyId);
    payload.put("agreement_hash", active.hash().toString());
    payload.put("candidates_digest", candidatesDigest);
    ArrayNode candidates = payload.putArray("candidates");
    screening.eligibleKeys().forEach(k -> candidates.add(k.toBase64Url()));
    ArrayNode probation = payload.putArray("on_probation");
    screening.probationKeys().forEach(k -> probation.add(k.toBase64Url()));
    payload.put("pool_size", screening.eligible().size() + screening.excluded().size());
    payload.set("excluded", screening.exclusionsJson());
    payload.put(
        "rotation_max_consecutive",
        active.terms().verification().rotationOr(config.defaultRotation()).maxConsecutive());
    payload.set("assigned", FactCodec.write(fact).get("evaluators"));
    payload.put("state", State.ACTIVE.name());
    return new Assigned(
        active.withFacts(f -> f.withAssignedEvaluators(fact)),
        new EventLog.Draft(EventType.EVALUATOR_ASSIGNED, Actor.server(serverKeyId), payload));
  }

  /**
   * How many pool evaluators may replace one another on an agreement before the server's built-in
   * evaluator takes over: each backup gets a full evaluator deadline, and the money waits for all
   * of them, so the chain is short.
   */
  static final int MAX_POOL_BACKUPS = 2;

  /** A backup evaluator and the agreement it now judges, or why there is none. */
  public sealed interface Backup {
    /** The agreement with the backup as its evaluator, and the event that records the draw. */
    record Assigned(Agreement agreement, AssignedEvaluator evaluator, EventLog.Draft event)
        implements Backup {}

    record None(String reason) implements Backup {}
  }

  /**
   * Replaces the agreement's evaluator with the next qualified, independent pool evaluator
   * (whitepaper 8.3, {@code hold_for_backup_evaluator}; also a failed canary's {@code
   * replace_evaluator} and {@code void_result_and_reassign}). Never one already assigned to it; the
   * draw is {@link Assignment#backup} with the agreement's seed, recorded like the first.
   *
   * @param why why the evaluator is replaced, for the record
   */
  public Backup backup(Agreement a, String why, Instant now) {
    List<Ed25519PublicKey> replaced =
        new ArrayList<>(
            a.facts()
                .assignedEvaluators()
                .map(EvaluatorAssignmentFact::replaced)
                .orElse(List.of()));
    List<Ed25519PublicKey> current =
        a.evaluators().stream().flatMap(e -> e.key().stream()).toList();
    replaced.addAll(current);
    int number =
        a.facts().assignedEvaluators().map(f -> f.replaced().size()).orElse(0) + current.size();
    if (number > MAX_POOL_BACKUPS) {
      return new Backup.None(
          "the agreement has had "
              + (number - 1)
              + " backup evaluator(s) already, the most a delivery waits for");
    }
    AgreementTerms terms = a.terms();
    EvaluatorSelection selection = terms.verification().evaluatorSelection();
    AssignmentContext context = AssignmentContext.of(terms, config.defaultRotation());
    Screening screening = Screening.of(pool.pool(context.serviceType()), context, pool.policy());
    Seed seed = seeds.of(a);
    Assignment result = Assignment.backup(selection, screening, seed, replaced, number);
    if (!(result instanceof Assignment.Assigned assigned)) {
      return new Backup.None(((Assignment.Unavailable) result).reason());
    }
    Screening rest = screening.without(replaced, "already assigned to this delivery");
    String candidatesDigest = Draw.digestOf(rest.eligibleKeys()).toString();
    List<String> notes = new ArrayList<>(assigned.notes());
    notes.add("backup " + number + ": " + why);
    AssignedEvaluator backup = assigned(assigned.evaluators().getFirst());
    EvaluatorAssignmentFact fact =
        new EvaluatorAssignmentFact(
            selection.mode(),
            List.of(backup),
            seed.toBase64Url(),
            candidatesDigest,
            now,
            notes,
            replaced);
    ObjectNode payload = assigned.toJson();
    payload.put("backup", number);
    payload.put("reason", why);
    ArrayNode gone = payload.putArray("replaced");
    replaced.forEach(k -> gone.add(k.toBase64Url()));
    payload.put("seed", seed.toBase64Url());
    payload.put("seed_rule", AssignmentSeeds.RULE);
    payload.put("server_key", serverKeyId);
    payload.put("agreement_hash", a.hash().toString());
    payload.put("candidates_digest", candidatesDigest);
    ArrayNode candidates = payload.putArray("candidates");
    rest.eligibleKeys().forEach(k -> candidates.add(k.toBase64Url()));
    ArrayNode probation = payload.putArray("on_probation");
    rest.probationKeys().forEach(k -> probation.add(k.toBase64Url()));
    payload.set("excluded", rest.exclusionsJson());
    payload.set("assigned", FactCodec.write(fact).get("evaluators"));
    payload.put("state", a.state().name());
    return new Backup.Assigned(
        a.withFacts(f -> f.withAssignedEvaluators(fact)),
        backup,
        new EventLog.Draft(EventType.EVALUATOR_ASSIGNED, Actor.server(serverKeyId), payload));
  }

  private static AssignedEvaluator assigned(PoolMember m) {
    var p = m.profile();
    return new AssignedEvaluator(
        p.key(),
        p.identity().scheme(),
        p.identity().value(),
        p.identity().lineage(),
        p.displayName(),
        p.organization());
  }

  private static ConflictException unavailable(
      Agreement a, EvaluatorSelection selection, Assignment.Unavailable u) {
    return new ConflictException(
        "agreement "
            + a.id()
            + " names no evaluator and none can be assigned from the pool ("
            + selection.mode()
            + ", service type "
            + a.terms().service().type()
            + "): "
            + u.reason()
            + ". The signature was not recorded and the agreement stays as it was; sign again once"
            + " a qualified evaluator independent of both parties is registered for this service"
            + " type");
  }

  /**
   * After an evaluator's result on this agreement was recorded: tells the pool who assessed the
   * provider's delivery (rotation and the evaluator's record count it). Results of the server's own
   * evaluator are not reported: it is not a pool member, and leaving them out only makes a
   * provider's streak with an evaluator look longer, never shorter.
   */
  public void assessed(Agreement a, Caller caller, Instant at) {
    if (caller instanceof Caller.Key k) {
      assessed(a, List.of(k.keyId()), at);
    }
  }

  /**
   * As {@link #assessed(Agreement, Caller, Instant)}, for the evaluators holding these keys (one,
   * or a panel that judged the delivery together); keys that are not the agreement's evaluators are
   * left out.
   */
  public void assessed(Agreement a, Collection<String> evaluatorKeyIds, Instant at) {
    List<String> assessed = judging(a, evaluatorKeyIds);
    if (!assessed.isEmpty()) {
      String provider = AssignmentContext.providerId(a.terms().parties().provider());
      pool.recordAssessment(assessed, provider, at);
    }
  }

  /** Whether the pool's records ride in the settlement's transaction ({@link PoolSource}). */
  public boolean recordsInTransaction() {
    return pool.recordsInTransaction();
  }

  /**
   * What a committed settlement taught the pool, as writes for the settlement's own transaction:
   * the assessment first (it locks the provider's row, then the evaluators' in key order), then
   * each evaluator's canary and calibration in key order, so that two settlements take the rows
   * they share in the same order.
   */
  public List<Write> recordWrites(
      Agreement a,
      Collection<String> assessedBy,
      List<Map.Entry<String, CanaryCheck>> canaries,
      Map<String, Calibration> calibrations,
      Instant at) {
    List<Write> writes = new ArrayList<>();
    List<String> assessed = judging(a, assessedBy);
    if (!assessed.isEmpty()) {
      writes.add(
          new Write.RecordAssessment(
              assessed, AssignmentContext.providerId(a.terms().parties().provider()), at));
    }
    canaries.stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(c -> writes.add(new Write.RecordCanary(c.getKey(), c.getValue(), at)));
    new TreeMap<>(calibrations)
        .forEach((key, c) -> writes.add(new Write.RecordCalibration(key, c, at)));
    return writes;
  }

  /** The keys among {@code evaluatorKeyIds} that are the agreement's evaluators. */
  private static List<String> judging(Agreement a, Collection<String> evaluatorKeyIds) {
    Set<String> judging =
        a.evaluators().stream()
            .flatMap(e -> e.key().stream())
            .map(Ed25519PublicKey::toBase64Url)
            .collect(Collectors.toSet());
    return evaluatorKeyIds.stream().filter(judging::contains).toList();
  }

  /** An evaluator's deviation from a panel's consensus, for its calibration. */
  public void recordCalibration(String evaluatorKeyId, Calibration more, Instant at) {
    pool.recordCalibration(evaluatorKeyId, more, at);
  }

  /** How an evaluator did on a canary, for its record in the pool. */
  public void recordCanary(String evaluatorKeyId, CanaryCheck check, Instant at) {
    pool.recordCanary(evaluatorKeyId, check, at);
  }
}
