package dev.asa.shadow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.StrictJson;
import dev.asa.json.Jcs;
import dev.asa.json.Json;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.Set;

/**
 * What a seal says: these criteria (by their commitment) were fixed for this agreement (or
 * standalone seal) at this time by this sealer. The signature covers the JCS canonical bytes of
 * {@link #toJson()}:
 *
 * <pre>
 * {"agreement_id":"...","commitment":"sha256:...","sealed_at":"2025-01-15T10:30:00Z","sealer":"did:key:..."}
 * </pre>
 *
 * A standalone seal has {@code seal_id} instead of {@code agreement_id}, so a seal for one can
 * never be replayed as a seal for the other.
 *
 * @param subject what the seal belongs to
 * @param sealedAt truncated to whole seconds, so that the text written is the only text that reads
 *     back to it
 * @param sealer who fixed the criteria (an identity string, e.g. a DID); the signer may differ: the
 *     server signs what a client seals
 */
public record SealStatement(
    Subject subject, Commitment commitment, Instant sealedAt, String sealer) {

  /**
   * What a seal belongs to: an agreement, or a standalone seal of the {@code /shadow/seals} API.
   */
  public record Subject(Kind kind, String id) {
    public Subject {
      Objects.requireNonNull(kind, "kind");
      if (id == null || id.isBlank() || id.length() > 256) {
        throw new IllegalArgumentException(kind.member + " must be 1 to 256 characters, not blank");
      }
    }

    public static Subject agreement(String agreementId) {
      return new Subject(Kind.AGREEMENT, agreementId);
    }

    public static Subject standalone(String sealId) {
      return new Subject(Kind.STANDALONE, sealId);
    }
  }

  public enum Kind {
    AGREEMENT("agreement_id"),
    STANDALONE("seal_id");

    private final String member;

    Kind(String member) {
      this.member = member;
    }

    public String member() {
      return member;
    }
  }

  public SealStatement {
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(commitment, "commitment");
    Objects.requireNonNull(sealedAt, "sealedAt");
    sealedAt = sealedAt.truncatedTo(ChronoUnit.SECONDS);
    if (sealer == null || sealer.isBlank() || sealer.length() > 512) {
      throw new IllegalArgumentException(
          "sealer must be 1 to 512 characters, not blank: who fixed the criteria");
    }
  }

  public ObjectNode toJson() {
    return Json.object()
        .put(subject.kind().member(), subject.id())
        .put("commitment", commitment.toString())
        .put("sealed_at", sealedAt.toString())
        .put("sealer", sealer);
  }

  /** The bytes that are signed: RFC 8785 canonical JSON of {@link #toJson()}. */
  public byte[] signingBytes() {
    return Jcs.canonicalize(toJson());
  }

  /**
   * Reads a statement strictly: exactly one of agreement_id and seal_id, the other three members,
   * nothing else, and {@code sealed_at} in the form this class writes (so the signed bytes are the
   * bytes received).
   */
  static SealStatement parse(JsonNode node, String pointer, StrictJson errors) {
    if (errors.object(node, pointer, "statement") == null) {
      return null;
    }
    int before = errors.count();
    boolean agreement = node.has("agreement_id");
    boolean standalone = node.has("seal_id");
    if (agreement == standalone) {
      errors.add(pointer, "must name exactly one of agreement_id and seal_id");
      return null;
    }
    Kind kind = agreement ? Kind.AGREEMENT : Kind.STANDALONE;
    errors.allowOnly(node, pointer, Set.of(kind.member(), "commitment", "sealed_at", "sealer"));
    String id = errors.text(node, pointer, kind.member(), 256);
    String commitmentText = errors.text(node, pointer, "commitment", 128);
    Commitment commitment = null;
    if (commitmentText != null) {
      try {
        commitment = Commitment.parse(commitmentText);
      } catch (IllegalArgumentException e) {
        errors.add(StrictJson.child(pointer, "commitment"), e.getMessage());
      }
    }
    String at = errors.text(node, pointer, "sealed_at", 64);
    Instant sealedAt = null;
    if (at != null) {
      try {
        sealedAt = Instant.parse(at);
        if (!sealedAt.truncatedTo(ChronoUnit.SECONDS).toString().equals(at)) {
          errors.add(
              StrictJson.child(pointer, "sealed_at"),
              "must be UTC to the second, as "
                  + sealedAt.truncatedTo(ChronoUnit.SECONDS)
                  + ", not '"
                  + at
                  + "'");
        }
      } catch (DateTimeParseException e) {
        errors.add(
            StrictJson.child(pointer, "sealed_at"),
            "must be a UTC time such as 2025-01-15T10:30:00Z, not '" + at + "'");
      }
    }
    String sealer = errors.text(node, pointer, "sealer", 512);
    if (errors.count() != before) {
      return null;
    }
    return new SealStatement(new Subject(kind, id), commitment, sealedAt, sealer);
  }
}
