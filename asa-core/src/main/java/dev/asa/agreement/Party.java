package dev.asa.agreement;

import dev.asa.crypto.Ed25519PublicKey;
import java.util.Objects;
import java.util.Optional;

/**
 * One party of an agreement. Client and provider always carry an Ed25519 {@code verification_key}
 * (part of the signed terms); the evaluator may omit it, in which case only the server's built-in
 * evaluator can act for it.
 */
public record Party(
    Role role,
    Identity identity,
    String displayName,
    String organization,
    Ed25519PublicKey verificationKey,
    String evaluatorType) {

  public Party {
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(identity, "identity");
    if (role != Role.EVALUATOR) {
      Objects.requireNonNull(verificationKey, "a client or provider needs a verification_key");
    }
  }

  public Optional<Ed25519PublicKey> key() {
    return Optional.ofNullable(verificationKey);
  }

  public Optional<String> organizationName() {
    return Optional.ofNullable(organization);
  }
}
