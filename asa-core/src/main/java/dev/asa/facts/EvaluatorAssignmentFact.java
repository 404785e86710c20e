package dev.asa.facts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.json.Json;
import java.time.Instant;
import java.util.ArrayList;
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
 *     possibly none
 * @param replaced evaluators assigned to this agreement before and replaced by a backup (they timed
 *     out, or failed a canary), oldest first; never assigned again to it
 */
public record EvaluatorAssignmentFact(
    String mode,
    List<AssignedEvaluator> evaluators,
    String seed,
    String candidatesDigest,
    Instant assignedAt,
    List<String> notes,
    List<Ed25519PublicKey> replaced) {

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
   * evaluator-only routes, its verification result and its listing need.
   *
   * @param lineage its CoC lineage, or null
   * @param organization its organization, or null
   */
  public record AssignedEvaluator(
      Ed25519PublicKey key,
      String identityScheme,
      String identityValue,
      String lineage,
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

    ObjectNode toJson() {
      ObjectNode o = Json.object();
      o.put("key", keyId());
      ObjectNode id = o.putObject("identity");
      id.put("scheme", identityScheme).put("value", identityValue);
      FactJson.put(id, "lineage", lineage);
      o.put("display_name", displayName);
      FactJson.put(o, "organization", organization);
      return o;
    }

    static AssignedEvaluator fromJson(JsonNode o) {
      JsonNode id = o.path("identity");
      return new AssignedEvaluator(
          Ed25519PublicKey.fromBase64Url(FactJson.text(o, "key")),
          FactJson.text(id, "scheme"),
          FactJson.text(id, "value"),
          FactJson.text(id, "lineage"),
          FactJson.text(o, "display_name"),
          FactJson.text(o, "organization"));
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

  public ObjectNode toJson() {
    ObjectNode o = Json.object();
    o.put("mode", mode);
    ArrayNode list = o.putArray("evaluators");
    evaluators.forEach(e -> list.add(e.toJson()));
    o.put("seed", seed);
    o.put("candidates_digest", candidatesDigest);
    o.put("assigned_at", assignedAt.toString());
    if (!notes.isEmpty()) {
      ArrayNode ns = o.putArray("notes");
      notes.forEach(ns::add);
    }
    if (!replaced.isEmpty()) {
      ArrayNode rs = o.putArray("replaced");
      replaced.forEach(k -> rs.add(k.toBase64Url()));
    }
    return o;
  }

  static EvaluatorAssignmentFact fromJson(JsonNode o) {
    List<AssignedEvaluator> evaluators = new ArrayList<>();
    o.path("evaluators").forEach(e -> evaluators.add(AssignedEvaluator.fromJson(e)));
    List<String> notes = new ArrayList<>();
    o.path("notes").forEach(n -> notes.add(n.asText()));
    List<Ed25519PublicKey> replaced = new ArrayList<>();
    o.path("replaced").forEach(k -> replaced.add(Ed25519PublicKey.fromBase64Url(k.asText())));
    return new EvaluatorAssignmentFact(
        FactJson.text(o, "mode"),
        evaluators,
        FactJson.text(o, "seed"),
        FactJson.text(o, "candidates_digest"),
        FactJson.instant(o, "assigned_at"),
        notes,
        replaced);
  }
}
