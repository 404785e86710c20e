package dev.asa.agreement;

import dev.asa.crypto.Ed25519PublicKey;
import java.util.Objects;
import java.util.Optional;

/**
 * One party of an agreement. Client and provider always carry an Ed25519 {@code verification_key}
 * (part of the signed terms). A named evaluator carries one too, the key its results are signed
 * with, unless it is the server's own evaluator ({@code "type": "builtin"}), which signs with the
 * server's key and takes none (the rule is {@link SemanticRules}'s).
 *
 * @param model the model the provider declares its agent runs ({@code parties.provider.model}), or
 *     null: a judge never judges its own model's work (whitepaper 5.6, self-enhancement bias)
 * @param evaluatorSettings the evaluator's {@code parties.evaluator.config}; {@link
 *     EvaluatorSettings#NONE} when it says nothing, and for the client and the provider
 */
public record Party(
    Role role,
    Identity identity,
    String displayName,
    String organization,
    Ed25519PublicKey verificationKey,
    String evaluatorType,
    String model,
    EvaluatorSettings evaluatorSettings) {

  public Party {
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(identity, "identity");
    if (role != Role.EVALUATOR) {
      Objects.requireNonNull(verificationKey, "a client or provider needs a verification_key");
    }
    evaluatorSettings = evaluatorSettings == null ? EvaluatorSettings.NONE : evaluatorSettings;
  }

  /** The {@code parties.evaluator.type} that names the server's own evaluator. */
  public static final String BUILTIN = "builtin";

  /** A party that declares no model and, if the evaluator, no settings. */
  public Party(
      Role role,
      Identity identity,
      String displayName,
      String organization,
      Ed25519PublicKey verificationKey,
      String evaluatorType) {
    this(role, identity, displayName, organization, verificationKey, evaluatorType, null, null);
  }

  /** The model the party declares it runs (the provider's, {@code parties.provider.model}). */
  public Optional<String> declaredModel() {
    return Optional.ofNullable(model);
  }

  /** Whether this is an evaluator naming the server's own ({@code "type": "builtin"}). */
  public boolean isBuiltin() {
    return role == Role.EVALUATOR && BUILTIN.equals(evaluatorType);
  }

  public Optional<Ed25519PublicKey> key() {
    return Optional.ofNullable(verificationKey);
  }

  public Optional<String> organizationName() {
    return Optional.ofNullable(organization);
  }
}
