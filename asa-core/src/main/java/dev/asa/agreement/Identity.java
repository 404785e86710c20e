package dev.asa.agreement;

import dev.asa.text.Identities;
import java.util.Objects;

/**
 * Who a party is, in the identity system of its choice (whitepaper section 3.7): a scheme
 * discriminator ({@code coc}, {@code erc8004}, {@code did}, {@code a2a}, {@code api_key}, {@code
 * public_key}) and a value. {@code lineage} is the optional CoC lineage used by the
 * evaluator-independence rule.
 */
public record Identity(String scheme, String value, String lineage) {
  public Identity {
    Objects.requireNonNull(scheme, "scheme");
    Objects.requireNonNull(value, "value");
  }

  /**
   * Same scheme and value: the same agent, whatever else differs. Values are compared in {@link
   * Identities#comparable} form, so that "Alice", "alice " and "al\u200Bice" are one agent.
   */
  public boolean sameAgentAs(Identity other) {
    return scheme.equals(other.scheme) && Identities.same(value, other.value);
  }

  public boolean isDidKey() {
    return scheme.equals("did") && value.startsWith("did:key:");
  }
}
