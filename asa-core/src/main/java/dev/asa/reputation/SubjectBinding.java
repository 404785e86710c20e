package dev.asa.reputation;

import dev.asa.agreement.Identity;
import dev.asa.crypto.DidKey;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Which key an identity's reputation belongs to. An identity is a label a party writes into the
 * terms; nothing stops a stranger from writing a famous agent's name over its own key, to borrow
 * that agent's record or to spoil it. So an identity's figures count only the outcomes signed under
 * one key:
 *
 * <ul>
 *   <li>a {@code did:key} identity is its key, so only that key;
 *   <li>any other identity is bound to the key that first completed an agreement under it on this
 *       server (trust on first use), and outcomes under other keys are left out.
 * </ul>
 *
 * A verified Chain of Consciousness would bind a {@code coc} identity for good; until this server
 * verifies chains, such identities are treated like the rest.
 */
public final class SubjectBinding {
  private SubjectBinding() {}

  /** The key {@code subject}'s figures rest on, given every outcome recorded under its name. */
  public static Optional<String> boundKey(Identity subject, List<Outcome> outcomes) {
    if (subject.isDidKey()) {
      try {
        return Optional.of(DidKey.parse(subject.value()).toBase64Url());
      } catch (IllegalArgumentException e) {
        return Optional.empty(); // not a well-formed did:key: no key can be its
      }
    }
    return outcomes.stream()
        .min(Comparator.comparing(Outcome::endedAt).thenComparing(Outcome::agreementId))
        .map(Outcome::partyKey);
  }

  /** The outcomes that count for {@code subject}: those under its bound key. */
  public static List<Outcome> counted(Identity subject, List<Outcome> outcomes) {
    Optional<String> key = boundKey(subject, outcomes);
    return key.map(k -> outcomes.stream().filter(o -> o.partyKey().equals(k)).toList())
        .orElse(List.of());
  }
}
