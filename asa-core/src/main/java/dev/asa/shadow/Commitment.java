package dev.asa.shadow;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.crypto.Digest;
import dev.asa.json.Json;
import java.util.Objects;

/**
 * The commitment to a set of criteria: {@code sha256:} over the RFC 8785 canonical JSON of {@code
 * {"nonce": <base64url nonce>, "criteria": [<criteria in wire form>]}}.
 *
 * <p>Anyone holding the revealed nonce and criteria recomputes it with any JCS library and SHA-256;
 * nothing here is specific to this code base. It is also the report's {@code sealed_hash}.
 */
public record Commitment(Digest digest) {

  public Commitment {
    Objects.requireNonNull(digest, "digest");
  }

  public static Commitment compute(Nonce nonce, SealedCriteria criteria) {
    return new Commitment(Digest.ofCanonicalJson(input(nonce, criteria)));
  }

  /** The document that is hashed, for anyone who wants to see it. */
  public static ObjectNode input(Nonce nonce, SealedCriteria criteria) {
    ObjectNode o = Json.object().put("nonce", nonce.toBase64Url());
    o.set("criteria", criteria.toJson());
    return o;
  }

  /** Reads {@code sha256:<64 lowercase hex>}. */
  public static Commitment parse(String text) {
    return new Commitment(Digest.parse(text));
  }

  /** {@code sha256:<hex>}. */
  @Override
  public String toString() {
    return digest.toString();
  }
}
