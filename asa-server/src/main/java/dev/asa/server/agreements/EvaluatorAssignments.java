package dev.asa.server.agreements;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.access.Caller;
import dev.asa.agreement.Agreement;
import dev.asa.agreement.AgreementTerms;
import dev.asa.agreement.EvaluatorSelection;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.facts.EvaluatorAssignmentFact;
import dev.asa.facts.EvaluatorAssignmentFact.AssignedEvaluator;
import dev.asa.facts.EvaluatorProposalsFact;
import dev.asa.integrity.Assignment;
import dev.asa.integrity.AssignmentContext;
import dev.asa.integrity.Draw;
import dev.asa.integrity.PoolMember;
import dev.asa.integrity.Screening;
import dev.asa.integrity.Seed;
import dev.asa.lifecycle.State;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Evaluators from the pool (whitepaper 3.6.1, 6.3): an agreement that names no evaluator gets one
 * when it becomes ACTIVE, inside the unit of work of the signature that activates it, so the
 * agreement is never ACTIVE without its evaluator.
 *
 * <p>Only evaluators that are qualified, independent of both parties (identity, key, organization,
 * lineage) and not due to rotate away from the provider are ever chosen ({@link Screening}); the
 * choice is {@link Assignment#assign} with the seed of {@link AssignmentSeeds}, and the {@code
 * evaluator_assigned} event records the mode, the seed and every candidate list with its digest, so
 * anyone can recompute it with {@link Draw}. When nobody can be assigned the activating signature
 * is refused (409) with the reason, evaluator by evaluator, and nothing is written: an ACTIVE
 * agreement without an evaluator would only end, later, in a timeout.
 *
 * <p>After an evaluator's result is recorded it is reported to the pool ({@link
 * PoolSource#recordAssessment}), which is what rotation counts.
 *
 * <p>In {@code mutual} mode the draw is among the evaluators both parties proposed while
 * negotiating ({@link EvaluatorProposalsFact#common}, each party's latest list), those that are not
 * eligible now left out with a note; with none left, the random fallback, and the record's notes
 * say so.
 *
 * <p>Not yet: several evaluators per delivery (refused at creation until their results are
 * combined).
 */
final class EvaluatorAssignments {
  private final AssignmentConfig config;
  private final PoolSource pool;
  private final AssignmentSeeds seeds;
  private final String serverKeyId;

  /**
   * @param pool where evaluators come from (the config's, else the server's registry)
   */
  EvaluatorAssignments(
      AssignmentConfig config, PoolSource pool, AssignmentSeeds seeds, String serverKeyId) {
    this.config = config;
    this.pool = pool;
    this.seeds = seeds;
    this.serverKeyId = serverKeyId;
  }

  /**
   * Refuses, when it is proposed, what the server would otherwise quietly not honour: several
   * evaluators per delivery (their results are not combined yet; the first to answer would decide
   * alone).
   */
  void checkSupported(AgreementTerms terms) {
    int count = terms.verification().evaluators().count();
    if (count > 1) {
      throw new InvalidDocumentException(
          "/verification/evaluators/count",
          "this server does not combine several evaluators' results yet, so it cannot honour a"
              + " panel of "
              + count
              + "; ask for a count of 1 (or leave verification.evaluators out)");
    }
  }

  /** An activated agreement with its assigned evaluators, and the event that records them. */
  record Assigned(Agreement agreement, EventLog.Draft event) {}

  /**
   * Assigns the evaluators of an agreement that has just become ACTIVE; empty when the document
   * names its evaluator (nothing to assign).
   *
   * @throws ConflictException when no evaluator can be assigned, saying why for each pool member
   */
  Optional<Assigned> atActivation(Agreement active, Instant now) {
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
    payload.put("pool_size", screening.eligible().size() + screening.excluded().size());
    payload.put(
        "rotation_max_consecutive",
        active.terms().verification().rotationOr(config.defaultRotation()).maxConsecutive());
    payload.set("assigned", fact.toJson().get("evaluators"));
    payload.put("state", State.ACTIVE.name());
    return new Assigned(
        active.withFacts(f -> f.withAssignedEvaluators(fact)),
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
  void assessed(Agreement a, Caller caller, Instant at) {
    if (!(caller instanceof Caller.Key k)) {
      return;
    }
    Ed25519PublicKey key = k.key();
    boolean evaluator =
        a.evaluators().stream().anyMatch(e -> e.key().map(key::equals).orElse(false));
    if (evaluator) {
      String provider = AssignmentContext.providerId(a.terms().parties().provider());
      pool.recordAssessment(k.keyId(), provider, at);
    }
  }
}
