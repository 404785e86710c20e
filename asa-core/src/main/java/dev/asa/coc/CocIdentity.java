package dev.asa.coc;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.Violation;
import dev.asa.crypto.Digest;
import dev.asa.crypto.Ed25519PublicKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A party's identity as a CoC chain: {@code {"scheme": "coc", "value": "sha256:<genesis
 * entry_hash>"}} and where the chain is, either {@code chain_url} (JSON Lines, fetched by the
 * server) or {@code chain} (the entries inline, an array). {@code chain_key} optionally names the
 * Ed25519 key that signs every entry. A {@code coc} identity with neither is a bare claim, as
 * before: nothing is verified and no provenance is recorded.
 *
 * @param chainUrl where the chain is served, or null
 * @param chain the entries sent inline, or null
 * @param chainKey the key every entry is signed with, or null
 */
public record CocIdentity(
    Digest genesis, String chainUrl, JsonNode chain, Ed25519PublicKey chainKey) {

  public static final String SCHEME = "coc";

  /** Whether the chain comes from a URL (and so can be fetched again, and have grown). */
  public boolean fetched() {
    return chainUrl != null;
  }

  /**
   * Reads a party's {@code identity} object; empty for another scheme or a bare coc claim.
   *
   * @param pointer the identity's JSON pointer, for refusals
   * @throws InvalidDocumentException a chain given in a form that cannot be verified
   */
  public static Optional<CocIdentity> read(JsonNode identity, String pointer) {
    boolean hasUrl = identity.has("chain_url");
    boolean hasChain = identity.has("chain");
    boolean hasKey = identity.has("chain_key");
    if (!SCHEME.equals(identity.path("scheme").asText())) {
      if (hasUrl || hasChain || hasKey) {
        String member = hasUrl ? "chain_url" : hasChain ? "chain" : "chain_key";
        throw new InvalidDocumentException(
            pointer + "/" + member, "only a coc identity has a chain");
      }
      return Optional.empty();
    }
    if (!hasUrl && !hasChain) {
      if (hasKey) {
        throw new InvalidDocumentException(
            pointer + "/chain_key", "a chain key without chain_url or chain");
      }
      return Optional.empty();
    }
    List<Violation> violations = new ArrayList<>();
    if (hasUrl && hasChain) {
      violations.add(new Violation(pointer + "/chain", "give chain_url or chain, not both"));
    }
    Digest genesis = null;
    String value = identity.path("value").asText();
    if (value.length() == 71
        && value.startsWith("sha256:")
        && CocHashes.isHash(value.substring(7))) {
      genesis = CocHashes.toDigest(value.substring(7));
    } else {
      violations.add(
          new Violation(
              pointer + "/value",
              "a coc identity with a chain is sha256: and the genesis entry_hash (64 lowercase"
                  + " hex)"));
    }
    Ed25519PublicKey key = null;
    if (hasKey) {
      try {
        key = Ed25519PublicKey.fromBase64Url(identity.path("chain_key").asText());
      } catch (IllegalArgumentException e) {
        violations.add(new Violation(pointer + "/chain_key", e.getMessage()));
      }
    }
    String url = hasUrl ? identity.path("chain_url").asText() : null;
    if (hasUrl && !(url.startsWith("https://") || url.startsWith("http://"))) {
      violations.add(new Violation(pointer + "/chain_url", "an http(s) URL"));
    }
    JsonNode chain = hasChain ? identity.get("chain") : null;
    if (hasChain && !chain.isArray()) {
      violations.add(new Violation(pointer + "/chain", "an array of CoC entries"));
    }
    if (!violations.isEmpty()) {
      throw new InvalidDocumentException(violations);
    }
    return Optional.of(new CocIdentity(genesis, url, chain, key));
  }
}
