package dev.asa.integrity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.StrictJson;
import dev.asa.crypto.Digest;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A verifiable random choice of evaluators (whitepaper 3.6.1): which {@code chosen} evaluators a
 * seed picks from a candidate list. Anyone holding the record can recompute it; a Draw that exists
 * is one that recomputes (the constructor checks), so a tampered record cannot even be read.
 *
 * <p>The recipe, for reimplementation:
 *
 * <ol>
 *   <li>candidates in canonical order: by their 32 key bytes, compared as unsigned bytes;
 *   <li>candidates digest: {@code sha256:} over the RFC 8785 form of the JSON array of their keys
 *       (unpadded base64url), in that order;
 *   <li>a {@link HashStream} with domain {@value #DOMAIN} and parts: the purpose (UTF-8), the seed
 *       bytes, the 32 bytes of the candidates digest;
 *   <li>for each evaluator to choose: index = a number below the count of candidates left; take
 *       that candidate out of the (ordered) list.
 * </ol>
 *
 * @param purpose what the draw is for, so that two draws with one seed differ: {@code evaluator},
 *     {@code backup-1}, ... (lower case, digits, {@code _ - . :}; at most 64 characters)
 * @param candidates every evaluator that could have been chosen, in canonical order
 * @param chosen the evaluators chosen, in the order drawn
 */
public record Draw(
    String purpose, Seed seed, List<Ed25519PublicKey> candidates, List<Ed25519PublicKey> chosen) {

  /** Domain separation: no other use of SHA-256 in the project starts its input this way. */
  public static final String DOMAIN = "asa/evaluator-draw/v1";

  private static final Pattern PURPOSE = Pattern.compile("[a-z0-9][a-z0-9_.:-]{0,63}");

  /** Canonical order of keys: their bytes as unsigned numbers. */
  public static final Comparator<Ed25519PublicKey> CANONICAL =
      (a, b) -> Arrays.compareUnsigned(a.bytes(), b.bytes());

  public Draw {
    Objects.requireNonNull(purpose, "purpose");
    Objects.requireNonNull(seed, "seed");
    if (!PURPOSE.matcher(purpose).matches()) {
      throw new IllegalArgumentException(
          "a draw's purpose is lower case, digits and _ - . : (at most 64), e.g. evaluator or"
              + " backup-1; got '"
              + purpose
              + "'");
    }
    candidates = List.copyOf(candidates);
    chosen = List.copyOf(chosen);
    if (!candidates.equals(canonical(candidates))) {
      throw new IllegalArgumentException(
          "candidates must be distinct and in canonical order (Draw.canonical)");
    }
    List<Ed25519PublicKey> expected = choose(purpose, seed, candidates, chosen.size());
    if (!chosen.equals(expected)) {
      throw new IllegalArgumentException(
          "the chosen evaluators do not follow from the seed and the candidates: the draw picks "
              + ids(expected)
              + ", not "
              + ids(chosen));
    }
  }

  /**
   * Draws {@code count} evaluators from {@code candidates} (any order; they are put in canonical
   * order first).
   *
   * @throws IllegalArgumentException when there are fewer candidates than {@code count}, or a
   *     candidate is listed twice
   */
  public static Draw perform(
      String purpose, Seed seed, Collection<Ed25519PublicKey> candidates, int count) {
    List<Ed25519PublicKey> ordered = canonical(candidates);
    if (ordered.size() != candidates.size()) {
      throw new IllegalArgumentException("a candidate is listed twice");
    }
    if (count < 1 || count > ordered.size()) {
      throw new IllegalArgumentException(
          "cannot draw " + count + " evaluators from " + ordered.size() + " candidates");
    }
    Objects.requireNonNull(purpose, "purpose");
    Objects.requireNonNull(seed, "seed");
    return new Draw(purpose, seed, ordered, choose(purpose, seed, ordered, count));
  }

  /** The candidates, distinct, in canonical order. */
  public static List<Ed25519PublicKey> canonical(Collection<Ed25519PublicKey> keys) {
    return keys.stream().distinct().sorted(CANONICAL).toList();
  }

  /** The digest of a candidate list (any order): what a recorded draw commits to. */
  public static Digest digestOf(Collection<Ed25519PublicKey> candidates) {
    ArrayNode ids = Json.mapper().createArrayNode();
    canonical(candidates).forEach(k -> ids.add(k.toBase64Url()));
    return Digest.ofCanonicalJson(ids);
  }

  public Digest candidatesDigest() {
    return digestOf(candidates);
  }

  private static List<Ed25519PublicKey> choose(
      String purpose, Seed seed, List<Ed25519PublicKey> ordered, int count) {
    if (count > ordered.size()) {
      throw new IllegalArgumentException(
          "cannot draw " + count + " evaluators from " + ordered.size() + " candidates");
    }
    HashStream stream =
        new HashStream(
            DOMAIN,
            purpose.getBytes(StandardCharsets.UTF_8),
            seed.bytes(),
            digestOf(ordered).bytes());
    List<Ed25519PublicKey> left = new ArrayList<>(ordered);
    List<Ed25519PublicKey> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      out.add(left.remove(stream.below(left.size())));
    }
    return out;
  }

  /**
   * Checks a recorded draw against a candidate list obtained elsewhere (the registry's, say), for
   * records that keep only the digest of the list.
   *
   * @return why it does not check out, or empty when it does
   */
  public static Optional<String> problemWith(
      JsonNode recorded, Collection<Ed25519PublicKey> candidates) {
    String purpose;
    Seed seed;
    Digest digest;
    List<Ed25519PublicKey> chosen;
    try {
      ObjectNode o = StrictJson.failFast().object(recorded, "", "a recorded draw");
      purpose = StrictJson.failFast().text(o, "", "purpose", "the draw's purpose");
      seed = Seed.fromBase64Url(StrictJson.failFast().text(o, "", "seed", "the seed (base64url)"));
      digest =
          Digest.parse(
              StrictJson.failFast().text(o, "", "candidates_digest", "sha256:<64 lowercase hex>"));
      chosen = keys(o, "chosen");
    } catch (InvalidDocumentException | IllegalArgumentException e) {
      return Optional.of("the record cannot be read: " + e.getMessage());
    }
    if (new HashSet<>(candidates).size() != candidates.size()) {
      return Optional.of("a candidate is listed twice");
    }
    if (!digestOf(candidates).equals(digest)) {
      return Optional.of(
          "the candidate list has digest "
              + digestOf(candidates)
              + ", not the recorded "
              + digest
              + ": it is not the list the draw was made from");
    }
    try {
      new Draw(purpose, seed, canonical(candidates), chosen);
    } catch (IllegalArgumentException e) {
      return Optional.of(e.getMessage());
    }
    return Optional.empty();
  }

  /**
   * {@code {"purpose", "seed", "candidates_digest", "candidates": [...], "chosen": [...]}}, keys in
   * unpadded base64url.
   */
  public ObjectNode toJson() {
    ObjectNode o = Json.object();
    o.put("purpose", purpose);
    o.put("seed", seed.toBase64Url());
    o.put("candidates_digest", candidatesDigest().toString());
    ArrayNode c = o.putArray("candidates");
    candidates.forEach(k -> c.add(k.toBase64Url()));
    ArrayNode ch = o.putArray("chosen");
    chosen.forEach(k -> ch.add(k.toBase64Url()));
    return o;
  }

  /**
   * Reads what {@link #toJson} wrote and recomputes it.
   *
   * @throws InvalidDocumentException when it is malformed, its digest does not match its
   *     candidates, or the chosen evaluators do not follow from it
   */
  public static Draw fromJson(JsonNode recorded) {
    ObjectNode o = StrictJson.failFast().object(recorded, "", "a recorded draw");
    StrictJson.failFast()
        .allowOnly(o, "", "purpose", "seed", "candidates_digest", "candidates", "chosen");
    String purpose = StrictJson.failFast().text(o, "", "purpose", "the draw's purpose");
    Seed seed;
    try {
      seed = Seed.fromBase64Url(StrictJson.failFast().text(o, "", "seed", "the seed (base64url)"));
    } catch (IllegalArgumentException e) {
      throw new InvalidDocumentException("/seed", e.getMessage());
    }
    List<Ed25519PublicKey> candidates = keys(o, "candidates");
    List<Ed25519PublicKey> chosen = keys(o, "chosen");
    String digest =
        StrictJson.failFast().text(o, "", "candidates_digest", "sha256:<64 lowercase hex>");
    if (!digestOf(candidates).toString().equals(digest)) {
      throw new InvalidDocumentException(
          "/candidates_digest",
          "does not match the candidates: they digest to " + digestOf(candidates));
    }
    try {
      return new Draw(purpose, seed, candidates, chosen);
    } catch (IllegalArgumentException e) {
      throw new InvalidDocumentException("/chosen", e.getMessage());
    }
  }

  private static List<Ed25519PublicKey> keys(ObjectNode o, String member) {
    JsonNode a = o.get(member);
    if (a == null || !a.isArray()) {
      throw new InvalidDocumentException(
          "/" + member, "must be a list of evaluator keys (unpadded base64url)");
    }
    List<Ed25519PublicKey> out = new ArrayList<>();
    for (int i = 0; i < a.size(); i++) {
      try {
        out.add(Ed25519PublicKey.fromBase64Url(a.get(i).asText()));
      } catch (IllegalArgumentException e) {
        throw new InvalidDocumentException("/" + member + "/" + i, e.getMessage());
      }
    }
    return out;
  }

  private static String ids(List<Ed25519PublicKey> keys) {
    return keys.stream().map(Ed25519PublicKey::toBase64Url).toList().toString();
  }
}
