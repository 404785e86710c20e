package dev.asa.facts;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import dev.asa.crypto.Ed25519PublicKey;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The pool evaluators the server assigned to an agreement when it became ACTIVE (whitepaper 3.6.1),
 * for an agreement whose document names no evaluator. It is what gives those evaluators their role:
 * the access policy reads it exactly as it reads {@code parties.evaluator}, so an assigned
 * evaluator may do what a named one may, and nobody else may.
 *
 * <p>It records enough to check the choice: the seed and the digest of the candidate list the draw
 * was made from (the full list and every draw are in the {@code evaluator_assigned} event), so that
 * anyone can recompute it with {@code dev.asa.integrity.Draw}.
 *
 * @param mode {@code random_from_pool}, {@code mutual} or {@code marketplace}
 * @param evaluators the assigned evaluators, the first the primary; at least one, no key twice
 * @param seed the draw seed, base64url: the server's deterministic Ed25519 signature over the
 *     agreement hash (see the event's {@code seed_rule})
 * @param candidatesDigest {@code sha256:...} of the eligible evaluators' keys, the list every draw
 *     or ranking of this assignment started from
 * @param notes what a reader should know ("the parties agreed on no eligible evaluator..."),
 *     possibly none (then not stored)
 * @param replaced evaluators assigned to this agreement before and replaced by a backup (they timed
 *     out, or failed a canary), oldest first; never assigned again to it (not stored while none)
 */
public record EvaluatorAssignmentFact(
    String mode,
    List<AssignedEvaluator> evaluators,
    String seed,
    String candidatesDigest,
    Instant assignedAt,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) @JsonSetter(nulls = Nulls.AS_EMPTY)
        List<String> notes,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) @JsonSetter(nulls = Nulls.AS_EMPTY)
        List<Ed25519PublicKey> replaced)
    implements TypedFact {

  /** An assignment at activation: nobody replaced yet. */
  public EvaluatorAssignmentFact(
      String mode,
      List<AssignedEvaluator> evaluators,
      String seed,
      String candidatesDigest,
      Instant assignedAt,
      List<String> notes) {
    this(mode, evaluators, seed, candidatesDigest, assignedAt, notes, List.of());
  }

  public EvaluatorAssignmentFact {
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(seed, "seed");
    Objects.requireNonNull(candidatesDigest, "candidatesDigest");
    Objects.requireNonNull(assignedAt, "assignedAt");
    evaluators = List.copyOf(evaluators);
    notes = List.copyOf(notes);
    replaced = List.copyOf(replaced);
    if (evaluators.isEmpty()) {
      throw new IllegalArgumentException("an assignment assigns at least one evaluator");
    }
    Set<Ed25519PublicKey> keys = new HashSet<>();
    for (AssignedEvaluator e : evaluators) {
      if (!keys.add(e.key())) {
        throw new IllegalArgumentException("evaluator " + e.keyId() + " is assigned twice");
      }
    }
    for (Ed25519PublicKey r : replaced) {
      if (keys.contains(r)) {
        throw new IllegalArgumentException(
            "evaluator " + r.toBase64Url() + " was replaced; it cannot be assigned again");
      }
    }
  }

  /**
   * One assigned evaluator as the registry described it at assignment: what the agreement's
   * evaluator-only routes, its verification result and its listing need. Stored with its identity
   * as one member, {@code identity: {scheme, value, lineage}}.
   *
   * @param lineage its CoC lineage, or null
   * @param organization its organization, or null
   */
  public record AssignedEvaluator(
      Ed25519PublicKey key,
      @JsonIgnore String identityScheme,
      @JsonIgnore String identityValue,
      @JsonIgnore String lineage,
      String displayName,
      String organization) {
    public AssignedEvaluator {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(identityScheme, "identityScheme");
      Objects.requireNonNull(identityValue, "identityValue");
      Objects.requireNonNull(displayName, "displayName");
    }

    public String keyId() {
      return key.toBase64Url();
    }

    /** How the registry identified the evaluator, as it is stored. */
    private record Identity(String scheme, String value, String lineage) {}

    @JsonProperty("identity")
    private Identity identity() {
      return new Identity(identityScheme, identityValue, lineage);
    }

    @JsonCreator
    private static AssignedEvaluator stored(
        @JsonProperty("key") Ed25519PublicKey key,
        @JsonProperty("identity") Identity identity,
        @JsonProperty("display_name") String displayName,
        @JsonProperty("organization") String organization) {
      Identity id = identity == null ? new Identity(null, null, null) : identity;
      return new AssignedEvaluator(
          key, id.scheme(), id.value(), id.lineage(), displayName, organization);
    }
  }

  /** The primary evaluator: the one that judges when the agreement has one. */
  public AssignedEvaluator primary() {
    return evaluators.getFirst();
  }

  /** The assigned evaluator holding this key, if any. */
  public Optional<AssignedEvaluator> byKey(Ed25519PublicKey key) {
    return evaluators.stream().filter(e -> e.key().equals(key)).findFirst();
  }
}
