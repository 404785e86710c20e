package dev.asa.integrity;

import dev.asa.crypto.Ed25519PublicKey;
import java.util.Objects;

/**
 * A registered evaluator as the registry holds it: what it says, what it did, what the operator
 * says.
 */
public record PoolMember(EvaluatorProfile profile, TrackRecord record, Standing standing) {
  public PoolMember {
    Objects.requireNonNull(profile, "profile");
    Objects.requireNonNull(record, "record");
    Objects.requireNonNull(standing, "standing");
  }

  public Ed25519PublicKey key() {
    return profile.key();
  }

  /** "Judge Seven (key AbC...)" for messages. */
  public String describe() {
    return profile.displayName() + " (key " + profile.keyId() + ")";
  }
}
