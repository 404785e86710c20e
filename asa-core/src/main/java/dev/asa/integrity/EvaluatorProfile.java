package dev.asa.integrity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Identity;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.Party;
import dev.asa.agreement.Role;
import dev.asa.agreement.StrictJson;
import dev.asa.crypto.DidKey;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.document.Agreement;
import dev.asa.json.Json;
import dev.asa.text.ControlCharacters;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What an evaluator says about itself when it joins the registry ({@code POST /evaluators}): who it
 * is, whom it belongs to (shown to the parties), what it evaluates, with which model and for how
 * much. The key is not in the body: it is the key that signed the registration request, so an
 * evaluator can only ever register itself.
 *
 * <p>The body is read strictly, every problem named by its JSON pointer:
 *
 * <pre>
 * {"identity": {"scheme": "api_key", "value": "judge-7"}, "display_name": "Judge Seven",
 *  "organization": "Impartial Ltd", "lineage": "sha256:...", "service_types": ["research"],
 *  "model": "judge-large-2", "price_usd": 0.30, "domains": ["medicine"],
 *  "conflicts_of_interest": ["<a party's key, base64url>"]}
 * </pre>
 *
 * @param key the evaluator's Ed25519 key: it signs the registration and every result
 * @param identity who it is; {@code identity.lineage} is the body's top-level {@code lineage}
 * @param organization whom it belongs to, or null; shown to the parties, never compared with what a
 *     party claims for itself (that claim is unchecked: {@link Independence})
 * @param serviceTypes the service types it evaluates (at least one, no repeats)
 * @param model the judge model it runs, or null (a judge may not judge its own model's work)
 * @param priceUsd what it charges per evaluation, or null when it does not say
 * @param domains domains of expertise it declares, possibly none (marketplace criteria)
 * @param conflictsOfInterest the keys of parties whose agreements it declares it must not judge
 *     (its employer's, a partner's), possibly none: the pool draw leaves it out of any agreement
 *     one of them signs. Keys, not organizations, because a key is what a party proves by signing;
 *     a party could claim any organization. Only the evaluator itself and the operator see them.
 */
public record EvaluatorProfile(
    Ed25519PublicKey key,
    Identity identity,
    String displayName,
    String organization,
    List<String> serviceTypes,
    String model,
    BigDecimal priceUsd,
    List<String> domains,
    List<Ed25519PublicKey> conflictsOfInterest) {

  /** Longest display name, organization or model name (as for agreement parties). */
  public static final int MAX_NAME = 200;

  /** Longest identity value or lineage (as for agreement parties). */
  public static final int MAX_IDENTIFIER = 512;

  /** Most service types or domains one evaluator may list. */
  public static final int MAX_LIST = 32;

  /** Most party keys one evaluator may declare a conflict of interest with. */
  public static final int MAX_CONFLICTS = 256;

  /** Highest price per evaluation; the whitepaper's costliest judge is about $31. */
  public static final BigDecimal MAX_PRICE_USD = BigDecimal.valueOf(10_000);

  /** Finest price step: a millionth of a dollar. */
  public static final int MAX_PRICE_DECIMALS = 6;

  private static final Pattern SCHEME = Pattern.compile("[a-z0-9][a-z0-9_.-]{0,31}");
  private static final Pattern SNAKE_NAME = Pattern.compile("[a-z][a-z0-9_]{0,63}");
  private static final List<String> MEMBERS =
      List.of(
          "identity",
          "display_name",
          "organization",
          "lineage",
          "service_types",
          "model",
          "price_usd",
          "domains",
          "conflicts_of_interest");

  public EvaluatorProfile {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(identity, "identity");
    Objects.requireNonNull(displayName, "displayName");
    serviceTypes = List.copyOf(serviceTypes);
    domains = List.copyOf(domains);
    conflictsOfInterest = List.copyOf(conflictsOfInterest);
    if (serviceTypes.isEmpty()) {
      throw new IllegalArgumentException("an evaluator evaluates at least one service type");
    }
    if (priceUsd != null && priceUsd.signum() < 0) {
      throw new IllegalArgumentException("price_usd must not be negative");
    }
  }

  /** A profile that declares no conflict of interest. */
  public EvaluatorProfile(
      Ed25519PublicKey key,
      Identity identity,
      String displayName,
      String organization,
      List<String> serviceTypes,
      String model,
      BigDecimal priceUsd,
      List<String> domains) {
    this(
        key,
        identity,
        displayName,
        organization,
        serviceTypes,
        model,
        priceUsd,
        domains,
        List.of());
  }

  /**
   * Reads a registration body signed by {@code signer}.
   *
   * @throws InvalidDocumentException listing every problem, each by its pointer
   */
  public static EvaluatorProfile parse(JsonNode body, Ed25519PublicKey signer) {
    Objects.requireNonNull(signer, "signer");
    StrictJson json = new StrictJson();
    ObjectNode b = json.object(body, "", "an evaluator registration");
    json.throwIfAny();
    json.allowOnly(b, "", MEMBERS);

    Identity identity = identity(json, b, signer);
    String displayName = named(json, b, "display_name", true);
    String organization = named(json, b, "organization", false);
    String model = named(json, b, "model", false);
    List<String> serviceTypes = names(json, b, "service_types", 1);
    List<String> domains = b.has("domains") ? names(json, b, "domains", 0) : List.of();
    BigDecimal price = price(json, b);
    List<Ed25519PublicKey> conflicts = conflicts(json, b);
    json.throwIfAny();
    return new EvaluatorProfile(
        signer,
        identity,
        displayName,
        organization,
        serviceTypes,
        model,
        price,
        domains,
        conflicts);
  }

  /**
   * Reads what {@link #toJson} wrote (the registration with its {@code key}), as a store does.
   *
   * @throws InvalidDocumentException when it is not such a registration
   */
  public static EvaluatorProfile fromJson(JsonNode stored) {
    ObjectNode copy = StrictJson.failFast().object(stored, "", "a stored evaluator").deepCopy();
    String key = StrictJson.failFast().text(copy, "", "key", "the evaluator's key (base64url)");
    copy.remove("key");
    Ed25519PublicKey k;
    try {
      k = Ed25519PublicKey.fromBase64Url(key);
    } catch (IllegalArgumentException e) {
      throw new InvalidDocumentException("/key", e.getMessage());
    }
    return parse(copy, k);
  }

  private static Identity identity(StrictJson json, ObjectNode b, Ed25519PublicKey signer) {
    String lineage = json.optionalText(b, "", "lineage", MAX_IDENTIFIER);
    noControl(json, "/lineage", lineage);
    JsonNode node = b.get("identity");
    if (node == null) {
      json.add("/identity", "is missing: expected {\"scheme\": ..., \"value\": ...}");
      return null;
    }
    ObjectNode id = json.object(node, "/identity", "identity");
    if (id == null) {
      return null;
    }
    if (id.has("lineage")) {
      // One place for the lineage, so that no reader picks the other one.
      json.add("/identity/lineage", "give the lineage once, as the top-level member \"lineage\"");
    }
    json.allowOnly(id, "/identity", "scheme", "value", "lineage");
    String scheme =
        json.text(
            id,
            "/identity",
            "scheme",
            SCHEME,
            "an identity scheme such as coc, erc8004, did, a2a, api_key or public_key"
                + " (lower case, at most 32 characters)");
    String value = json.text(id, "/identity", "value", MAX_IDENTIFIER);
    noControl(json, "/identity/value", value);
    if (scheme == null || value == null) {
      return null;
    }
    Identity identity = new Identity(scheme, value, lineage);
    if (scheme.equals("did") && !value.startsWith("did:")) {
      json.add("/identity/value", "an identity of scheme 'did' must start with 'did:'");
    } else if (identity.isDidKey()) {
      try {
        if (!DidKey.parse(value).equals(signer)) {
          json.add(
              "/identity/value",
              "is a did:key of another key; register with the key this identity encodes, or"
                  + " give another identity");
        }
      } catch (IllegalArgumentException e) {
        json.add("/identity/value", e.getMessage());
      }
    }
    return identity;
  }

  private static String named(StrictJson json, ObjectNode b, String member, boolean required) {
    String value =
        required ? json.text(b, "", member, MAX_NAME) : json.optionalText(b, "", member, MAX_NAME);
    noControl(json, "/" + member, value);
    return value;
  }

  private static void noControl(StrictJson json, String pointer, String value) {
    String problem = value == null ? null : ControlCharacters.problemWith(value);
    if (problem != null) {
      json.add(pointer, problem);
    }
  }

  private static List<String> names(StrictJson json, ObjectNode b, String member, int min) {
    String at = "/" + member;
    JsonNode node = b.get(member);
    String expected =
        "a list of "
            + min
            + " to "
            + MAX_LIST
            + " lower-case snake_case names such as "
            + (member.equals("domains") ? "medicine" : "research or code_generation");
    if (node == null || node.isNull()) {
      json.add(at, "is missing: expected " + expected);
      return List.of();
    }
    if (!(node instanceof ArrayNode array) || array.size() < min || array.size() > MAX_LIST) {
      json.add(
          at,
          "must be "
              + expected
              + ", found "
              + (node.isArray() ? node.size() + " entries" : StrictJson.kind(node)));
      return List.of();
    }
    List<String> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < array.size(); i++) {
      JsonNode e = array.get(i);
      String p = StrictJson.child(at, i);
      if (!e.isTextual() || !SNAKE_NAME.matcher(e.textValue()).matches()) {
        json.add(
            p,
            "must be a lower-case snake_case name (a letter, then up to 63 letters, digits or"
                + " underscores), found "
                + (e.isTextual() ? "'" + e.textValue() + "'" : StrictJson.kind(e)));
      } else if (!seen.add(e.textValue())) {
        json.add(p, "'" + e.textValue() + "' is listed twice");
      } else {
        out.add(e.textValue());
      }
    }
    return out;
  }

  private static List<Ed25519PublicKey> conflicts(StrictJson json, ObjectNode b) {
    JsonNode node = b.get("conflicts_of_interest");
    if (node == null) {
      return List.of();
    }
    String expected =
        "a list of up to "
            + MAX_CONFLICTS
            + " keys (base64url, as a party's verification_key) of parties whose agreements this"
            + " evaluator must not judge";
    if (!(node instanceof ArrayNode array) || array.size() > MAX_CONFLICTS) {
      json.add(
          "/conflicts_of_interest",
          "must be "
              + expected
              + ", found "
              + (node.isArray() ? node.size() + " entries" : StrictJson.kind(node)));
      return List.of();
    }
    List<Ed25519PublicKey> out = new ArrayList<>();
    for (int i = 0; i < array.size(); i++) {
      JsonNode e = array.get(i);
      String p = StrictJson.child("/conflicts_of_interest", i);
      if (!e.isTextual()) {
        json.add(p, "must be a party's key (base64url), found " + StrictJson.kind(e));
        continue;
      }
      try {
        Ed25519PublicKey k = Ed25519PublicKey.fromBase64Url(e.textValue());
        if (out.contains(k)) {
          json.add(p, "'" + e.textValue() + "' is listed twice");
        } else {
          out.add(k);
        }
      } catch (IllegalArgumentException bad) {
        json.add(p, "is not a key (base64url, as a party's verification_key): " + bad.getMessage());
      }
    }
    return out;
  }

  private static BigDecimal price(StrictJson json, ObjectNode b) {
    JsonNode v = b.get("price_usd");
    if (v == null || v.isNull()) {
      return null;
    }
    String expected =
        "a number of US dollars per evaluation from 0 to "
            + MAX_PRICE_USD.toPlainString()
            + " with at most "
            + MAX_PRICE_DECIMALS
            + " decimals, e.g. 0.30";
    if (!v.isNumber()) {
      json.add("/price_usd", "must be " + expected + ", found " + StrictJson.kind(v));
      return null;
    }
    BigDecimal price = v.decimalValue();
    if (price.signum() < 0
        || price.compareTo(MAX_PRICE_USD) > 0
        || price.stripTrailingZeros().scale() > MAX_PRICE_DECIMALS) {
      json.add("/price_usd", "must be " + expected + ", found " + v);
      return null;
    }
    return price;
  }

  /** Whether it evaluates deliveries of this service type. */
  public boolean serves(String serviceType) {
    return serviceTypes.contains(serviceType);
  }

  /** Whether it declared a conflict of interest with the party holding this key. */
  public boolean declaresConflictWith(Ed25519PublicKey party) {
    return conflictsOfInterest.contains(party);
  }

  /** The key as written everywhere (unpadded base64url): the evaluator's id in the registry. */
  public String keyId() {
    return key.toBase64Url();
  }

  /**
   * The evaluator as an agreement party, for the assignment's record and the evaluator-only routes
   * ({@code type} {@code pool}).
   */
  public Party asParty() {
    return new Party(
        Role.EVALUATOR, identity, displayName, organization, key, Agreement.POOL_EVALUATOR_TYPE);
  }

  /**
   * The registration as it is stored and shown back to the evaluator ({@code GET
   * /evaluators/{key}}), key included; {@code conflicts_of_interest} only when it declared some.
   * The registry's views take the conflicts out for anyone but the evaluator and the operator: they
   * name parties.
   */
  public ObjectNode toJson() {
    ObjectNode o = Json.object();
    o.put("key", keyId());
    ObjectNode id = o.putObject("identity");
    id.put("scheme", identity.scheme()).put("value", identity.value());
    o.put("display_name", displayName);
    if (organization != null) {
      o.put("organization", organization);
    }
    if (identity.lineage() != null) {
      o.put("lineage", identity.lineage());
    }
    ArrayNode types = o.putArray("service_types");
    serviceTypes.forEach(types::add);
    if (model != null) {
      o.put("model", model);
    }
    if (priceUsd != null) {
      o.put("price_usd", priceUsd);
    }
    ArrayNode ds = o.putArray("domains");
    domains.forEach(ds::add);
    if (!conflictsOfInterest.isEmpty()) {
      ArrayNode cs = o.putArray("conflicts_of_interest");
      conflictsOfInterest.forEach(k -> cs.add(k.toBase64Url()));
    }
    return o;
  }
}
