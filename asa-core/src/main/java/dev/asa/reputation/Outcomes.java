package dev.asa.reputation;

import dev.asa.agreement.Party;
import dev.asa.agreement.Role;
import dev.asa.agreement.VerificationTerms.Visibility;
import dev.asa.document.Agreement;
import dev.asa.facts.DisputeFact;
import dev.asa.facts.Fact;
import dev.asa.facts.ServerFacts;
import dev.asa.facts.SettlementFact;
import dev.asa.facts.VerificationFact;
import dev.asa.text.Identities;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The outcomes an ended agreement contributes to reputation, decided from its terms and the facts
 * the server recorded (never from anything a party sent). The rules, in the order they apply:
 *
 * <ol>
 *   <li>Only {@code result_visibility} {@code parties_and_arp} or {@code public} contributes: the
 *       parties of a {@code parties} agreement agreed that nothing leaves it.
 *   <li>Only an agreement that became ACTIVE contributes: one never signed by both says nothing
 *       about how either worked.
 *   <li>The provider: delivered or not; on time when the delivery came within {@code
 *       service.constraints.max_duration_seconds} of the start of its clock (funding, or activation
 *       for an agreement that holds no money), or at all when the terms set no such limit; the
 *       verdict and composite recorded; disputed when a party challenged, or the terms filed a
 *       dispute over the work (a low score, a quarantine). A dispute over an evaluator's silence is
 *       not the provider's.
 *   <li>The client: it funded (or there was nothing to fund) or not; disputed when it challenged.
 *   <li>The evaluator the terms name (not the server's own, not one drawn from the pool, whose
 *       record the registry keeps): only when there was a delivery to judge; it answered in time
 *       when a verification was recorded without a backup taking over.
 * </ol>
 */
public final class Outcomes {
  private Outcomes() {}

  /** The dispute reason the server files when the evaluator stays silent. */
  static final String EVALUATOR_TIMEOUT = "evaluator_timeout";

  public static boolean contributes(Agreement a) {
    Visibility v = a.terms().verification().resultVisibility();
    return v != Visibility.PARTIES && a.facts().activatedAt().isPresent();
  }

  /** What {@code a}, which ended at {@code endedAt}, contributes: nothing, or one per role. */
  public static List<Outcome> of(Agreement a, Instant endedAt) {
    if (!contributes(a)) {
      return List.of();
    }
    ServerFacts facts = a.facts();
    Party client = a.terms().parties().client();
    Party provider = a.terms().parties().provider();
    Optional<VerificationFact> verification = facts.verification();
    boolean delivered = facts.deliveredAt().isPresent();
    boolean disputed = disputedOverWork(a);
    List<Outcome> out = new ArrayList<>(2);
    out.add(
        new Outcome(
            a.id(),
            Role.PROVIDER,
            provider.identity(),
            provider.verificationKey().toBase64Url(),
            Identities.comparable(client.identity().value()),
            endedAt,
            delivered,
            delivered && deliveredInTime(a),
            verification.map(v -> "PASS".equals(v.result())).orElse(null),
            verification.map(VerificationFact::composite).orElse(null),
            disputed));
    boolean funded = facts.fundedAt().isPresent() || a.terms().escrow().paymentTerms().isEmpty();
    boolean clientChallenged = facts.dispute().map(d -> "client".equals(d.filedBy())).orElse(false);
    out.add(
        new Outcome(
            a.id(),
            Role.CLIENT,
            client.identity(),
            client.verificationKey().toBase64Url(),
            Identities.comparable(provider.identity().value()),
            endedAt,
            funded,
            funded,
            null,
            null,
            clientChallenged));
    a.terms()
        .parties()
        .evaluator()
        .filter(e -> !e.isBuiltin() && e.verificationKey() != null)
        .filter(e -> delivered)
        .ifPresent(evaluator -> {
          boolean answered = verification.isPresent() && !facts.has(Fact.EVALUATOR_ASSIGNMENT);
          out.add(
              new Outcome(
                  a.id(),
                  Role.EVALUATOR,
                  evaluator.identity(),
                  evaluator.verificationKey().toBase64Url(),
                  Identities.comparable(provider.identity().value()),
                  endedAt,
                  answered,
                  answered,
                  null,
                  null,
                  disputed));
        });
    return List.copyOf(out);
  }

  private static boolean deliveredInTime(Agreement a) {
    Long limit = a.terms().service().constraints().maxDurationSeconds();
    if (limit == null) {
      return true;
    }
    ServerFacts facts = a.facts();
    Optional<Instant> clockStart = facts.fundedAt().or(facts::activatedAt);
    Instant deliveredAt = facts.deliveredAt().orElseThrow();
    return clockStart.map(s -> !deliveredAt.isAfter(s.plusSeconds(limit))).orElse(true);
  }

  private static boolean disputedOverWork(Agreement a) {
    boolean filed =
        a.facts()
            .dispute()
            .map(DisputeFact::reasonCode)
            .filter(reason -> !reason.equals(EVALUATOR_TIMEOUT))
            .isPresent();
    boolean autoFiled =
        a.facts().settlement().flatMap(SettlementFact::autoFiledDispute).isPresent();
    return filed || autoFiled;
  }
}
