package dev.asa.server.store;

import dev.asa.integrity.PoolMember;
import java.time.Instant;
import java.util.Objects;

/**
 * A registered evaluator as stored: what it says (profile), what it did (track record), what the
 * operator says (standing), with the registry's own bookkeeping.
 *
 * @param updatedAt when its record or standing last changed (its registration, at first)
 * @param version how many times it was written (1 at registration)
 */
public record EvaluatorRow(
    PoolMember member, Instant registeredAt, Instant updatedAt, long version) {
  public EvaluatorRow {
    Objects.requireNonNull(member, "member");
    Objects.requireNonNull(registeredAt, "registeredAt");
    Objects.requireNonNull(updatedAt, "updatedAt");
  }

  /** The key (base64url) that registered it: its id in the registry. */
  public String keyId() {
    return member.profile().keyId();
  }
}
