package dev.asa.integrity;

import dev.asa.agreement.Role;
import java.util.Locale;

/**
 * The rule that keeps a pool member out of an agreement's draw, by the name the draw's record gives
 * it ({@code evaluator_assigned}'s {@code excluded}). Every rule rests on something the server
 * knows or the evaluator said about itself, never on what a party claims about itself: a party's
 * organization, CoC lineage and identity value are words nobody checks, and a party that could
 * remove evaluators by claiming their organization would choose its own judge (issue 53).
 */
public enum ExclusionRule {
  /** It does not evaluate the agreement's service type (its own registration says so). */
  OTHER_SERVICE_TYPE,
  /** It holds the client's key: the client signed with that key, so this is checked. */
  SAME_KEY_AS_CLIENT,
  /** It holds the provider's key: the provider signed with that key, so this is checked. */
  SAME_KEY_AS_PROVIDER,
  /** It declared a conflict of interest with a party's key when it registered. */
  DECLARED_CONFLICT,
  /** It does not qualify (record, standing): the server's own figures. */
  NOT_QUALIFIED,
  /** It assessed the provider's last {@code max_consecutive} deliveries in a row. */
  ROTATION,
  /** It was already assigned to this delivery (a backup draw). */
  ALREADY_ASSIGNED,
  /** It does not meet the agreement's marketplace criteria (price, domain, evaluations). */
  MARKETPLACE_CRITERIA;

  /** The name in the record: {@code same_key_as_provider}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Holding this party's key. */
  static ExclusionRule sameKeyAs(Role role) {
    return switch (role) {
      case CLIENT -> SAME_KEY_AS_CLIENT;
      case PROVIDER -> SAME_KEY_AS_PROVIDER;
      case EVALUATOR -> throw new IllegalArgumentException("independence is of the two signers");
    };
  }
}
