package dev.asa.integrity;

import dev.asa.agreement.Party;
import dev.asa.text.Identities;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Whether a pool evaluator is independent of an agreement's client and provider (whitepaper 3.6,
 * 3.6.1): it must not share identity, key, organization or CoC lineage with either. Names are
 * compared as a person reads them ({@link Identities#comparable}), exactly as for an evaluator an
 * agreement names, so that "ACME Labs" and "acme\u200Blabs" are one organization here too.
 *
 * @param reasons why it is not independent, one line each ("belongs to the provider's organization
 *     ('Acme Labs')"); empty when it is
 */
public record Independence(List<String> reasons) {

  public Independence {
    reasons = List.copyOf(reasons);
  }

  public boolean independent() {
    return reasons.isEmpty();
  }

  public static Independence of(EvaluatorProfile evaluator, Party client, Party provider) {
    Objects.requireNonNull(evaluator, "evaluator");
    List<String> reasons = new ArrayList<>();
    for (Party party : List.of(client, provider)) {
      String role = party.role().wireName();
      if (evaluator.identity().sameAgentAs(party.identity())) {
        reasons.add("has the same identity as the " + role);
      }
      if (evaluator.key().equals(party.verificationKey())) {
        reasons.add("holds the " + role + "'s key");
      }
      if (Identities.same(evaluator.organization(), party.organization())) {
        reasons.add("belongs to the " + role + "'s organization ('" + party.organization() + "')");
      }
      if (Identities.same(evaluator.identity().lineage(), party.identity().lineage())) {
        reasons.add("shares its CoC lineage with the " + role);
      }
    }
    return new Independence(reasons);
  }
}
