package dev.asa.integrity;

import dev.asa.agreement.Party;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Whether a pool evaluator is independent of an agreement's client and provider (whitepaper 3.6,
 * 3.6.1), as far as the server can tell without taking a party's word for it.
 *
 * <p>Two links count. The evaluator holds a party's key: the party signed the agreement with that
 * key, so the link is checked, not claimed (a {@code did:key} identity encodes its key, so the same
 * {@code did:key} is the same key). Or the evaluator declared, when it registered, a conflict of
 * interest with a party's key ({@link EvaluatorProfile#conflictsOfInterest}): its own word about
 * itself, which only keeps it off that party's work.
 *
 * <p>What a party's block says about itself (its {@code organization}, its CoC {@code lineage}, the
 * value of an identity that is not a {@code did:key}) removes nobody: nothing verifies those
 * claims, and a provider that claimed an honest evaluator's organization, written with odd spacing
 * and case, excluded every evaluator of it and had its own stand-in drawn every time (issue 53).
 * Such a claim may count once the server can verify it (an attestation the operator signed); until
 * then the evaluator's own organization and lineage are shown to the parties, who can judge them.
 * The evaluator an agreement names (not drawn) is still refused for sharing an organization or
 * lineage with a party ({@code SemanticRules}): both parties signed that choice, so no claim steers
 * it.
 *
 * @param conflicts why it is not independent, each with its rule; empty when it is
 */
public record Independence(List<Screening.Reason> conflicts) {

  public Independence {
    conflicts = List.copyOf(conflicts);
  }

  public boolean independent() {
    return conflicts.isEmpty();
  }

  /** One line each: "holds the provider's key". */
  public List<String> reasons() {
    return conflicts.stream().map(Screening.Reason::text).toList();
  }

  public static Independence of(EvaluatorProfile evaluator, Party client, Party provider) {
    Objects.requireNonNull(evaluator, "evaluator");
    List<Screening.Reason> conflicts = new ArrayList<>();
    boolean declared = false;
    for (Party party : List.of(client, provider)) {
      if (evaluator.key().equals(party.verificationKey())) {
        conflicts.add(
            new Screening.Reason(
                ExclusionRule.sameKeyAs(party.role()),
                "holds the " + party.role().wireName() + "'s key"));
      }
      declared |= evaluator.declaresConflictWith(party.verificationKey());
    }
    if (declared) {
      // Which party it named stays with the evaluator and the operator: the other party reads
      // this record too.
      conflicts.add(
          new Screening.Reason(
              ExclusionRule.DECLARED_CONFLICT,
              "declared a conflict of interest with a party of this agreement"));
    }
    return new Independence(conflicts);
  }
}
