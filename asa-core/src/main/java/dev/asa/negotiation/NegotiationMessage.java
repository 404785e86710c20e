package dev.asa.negotiation;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.Violation;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.json.JsonTree;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One structured negotiation message (whitepaper section 7.2). Every member has a closed type: an
 * identifier pattern, an integer, an enum, a whitelisted path with a typed value, a decimal. No
 * member takes prose, so an injection attempt has nowhere to go and is refused where it appears.
 *
 * @param negotiationId null only in round 1 (the server then assigns one)
 * @param changes empty unless the action is propose or counter
 * @param marketReference null when absent
 * @param proposedEvaluators the registry evaluators the sender proposes to judge the agreement
 *     ({@code verification.evaluator_selection} mutual, whitepaper 3.6.1), its whole list: it
 *     replaces the sender's earlier one (an empty list withdraws it); empty when the message leaves
 *     {@code proposed_evaluators} out, which keeps the earlier list. Whether the agreement takes
 *     proposals at all is {@link EvaluatorProposals}'s to decide.
 */
public record NegotiationMessage(
    String negotiationId,
    int round,
    Kind action,
    List<Change> changes,
    RationaleCode rationale,
    MarketReference marketReference,
    boolean renormalizeWeights,
    Optional<List<Ed25519PublicKey>> proposedEvaluators) {

  /** What the message does. */
  public enum Kind {
    PROPOSE,
    COUNTER,
    ACCEPT,
    REJECT;

    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** Whether the action carries proposed_changes. */
    public boolean changesTerms() {
      return this == PROPOSE || this == COUNTER;
    }
  }

  /** One proposed change: a whitelisted term and its new value (already type-checked). */
  public record Change(TermPath path, JsonNode value) {
    public Change {
      Objects.requireNonNull(path, "path");
      value = Objects.requireNonNull(value, "value").deepCopy();
    }

    @Override
    public JsonNode value() {
      return value.deepCopy();
    }
  }

  /** A market figure the sender cites; the server decides whether its source is trusted. */
  public record MarketReference(BigDecimal median, String source) {
    public MarketReference {
      Objects.requireNonNull(median, "median");
      Objects.requireNonNull(source, "source");
    }
  }

  /**
   * Identifiers the server hands out ({@code neg-...}): short, no spaces, no punctuation to hide
   * text in.
   */
  static final Pattern NEGOTIATION_ID = Pattern.compile("^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$");

  /** A market data source is a short snake_case identifier such as arp_market_data. */
  static final Pattern SOURCE = Pattern.compile("^[a-z][a-z0-9_]{0,63}$");

  static final Pattern AMOUNT = Pattern.compile("^(0|[1-9][0-9]{0,17})(\\.[0-9]{1,18})?$");

  /** More changes than there are terms can only be noise. */
  static final int MAX_CHANGES = 2 * (TermPath.MAX_DIMENSION_INDEX + 1) + 16;

  /**
   * A party proposes a short list it would accept; a longer one only makes it likelier that both
   * lists meet by chance, which is the random draw mutual selection was chosen to avoid.
   */
  public static final int MAX_PROPOSED_EVALUATORS = 5;

  private static final Set<String> MEMBERS =
      Set.of(
          "negotiation_id",
          "round",
          "action",
          "proposed_changes",
          "rationale_code",
          "market_reference",
          "renormalize_weights",
          "proposed_evaluators",
          "party");

  public NegotiationMessage {
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(rationale, "rationale");
    changes = List.copyOf(changes);
    proposedEvaluators =
        Objects.requireNonNull(proposedEvaluators, "proposedEvaluators (empty when absent)")
            .map(List::copyOf);
    if (proposedEvaluators.isPresent()) {
      List<Ed25519PublicKey> keys = proposedEvaluators.get();
      if (action == Kind.REJECT) {
        throw new IllegalArgumentException("a reject proposes no evaluators");
      }
      if (keys.size() > MAX_PROPOSED_EVALUATORS || new HashSet<>(keys).size() != keys.size()) {
        throw new IllegalArgumentException(
            "at most " + MAX_PROPOSED_EVALUATORS + " distinct evaluators: " + keys);
      }
    }
    if (round < 1) {
      throw new IllegalArgumentException("round must be >= 1");
    }
    if (action.changesTerms() == changes.isEmpty()) {
      throw new IllegalArgumentException(
          action.wireName() + (changes.isEmpty() ? " needs changes" : " takes no changes"));
    }
  }

  /**
   * Reads a message body, reporting every problem at once with its JSON pointer. The optional
   * {@code party} member is only checked to be a role name: who sends is decided by authentication.
   */
  public static NegotiationMessage parse(JsonNode body) {
    if (body == null || !body.isObject()) {
      throw new InvalidDocumentException("", "a negotiation message must be a JSON object");
    }
    List<Violation> v = new ArrayList<>();
    for (Map.Entry<String, JsonNode> e : body.properties()) {
      if (!MEMBERS.contains(e.getKey())) {
        v.add(
            new Violation(
                "/" + JsonTree.pointerToken(e.getKey()),
                "unknown member; a message has only " + String.join(", ", sorted(MEMBERS))));
      }
    }

    String negotiationId = null;
    JsonNode id = body.get("negotiation_id");
    if (id != null) {
      if (!id.isTextual() || !NEGOTIATION_ID.matcher(id.asText()).matches()) {
        v.add(
            new Violation(
                "/negotiation_id",
                "must be the identifier the server returned (letters, digits, - and _, at most 64)"));
      } else {
        negotiationId = id.asText();
      }
    }

    int round = 0;
    JsonNode r = body.get("round");
    if (r == null || !r.isIntegralNumber() || !r.canConvertToInt() || r.intValue() < 1) {
      v.add(
          new Violation(
              "/round",
              "required: an integer >= 1 (1 for the first message, then the previous round + 1)"));
    } else {
      round = r.intValue();
    }
    if (round > 1 && id == null) {
      v.add(
          new Violation(
              "/negotiation_id",
              "required from round 2: repeat the negotiation_id the server returned"));
    }

    Kind kind = null;
    JsonNode a = body.get("action");
    if (a == null || !a.isTextual()) {
      v.add(new Violation("/action", "required: propose, counter, accept or reject"));
    } else {
      for (Kind k : Kind.values()) {
        if (k.wireName().equals(a.asText())) {
          kind = k;
        }
      }
      if (kind == null) {
        v.add(new Violation("/action", "must be propose, counter, accept or reject"));
      }
    }

    RationaleCode rationale = null;
    JsonNode rc = body.get("rationale_code");
    if (rc == null || !rc.isTextual() || RationaleCode.fromWire(rc.asText()).isEmpty()) {
      v.add(
          new Violation(
              "/rationale_code",
              "required: one of " + RationaleCode.wireNames() + " (no free text)"));
    } else {
      rationale = RationaleCode.fromWire(rc.asText()).orElseThrow();
    }

    List<Change> changes = new ArrayList<>();
    JsonNode pc = body.get("proposed_changes");
    if (kind != null && kind.changesTerms()) {
      if (pc == null || !pc.isObject() || pc.isEmpty()) {
        v.add(
            new Violation(
                "/proposed_changes",
                "required for "
                    + kind.wireName()
                    + ": a map from a negotiable term's path to its new value"));
      } else if (pc.size() > MAX_CHANGES) {
        v.add(new Violation("/proposed_changes", "at most " + MAX_CHANGES + " changes"));
      } else {
        for (Map.Entry<String, JsonNode> e : pc.properties()) {
          try {
            TermPath path = TermPath.parse(e.getKey());
            path.checkValue(e.getValue());
            changes.add(new Change(path, e.getValue()));
          } catch (InvalidDocumentException ex) {
            v.addAll(ex.violations());
          }
        }
      }
    } else if (kind != null && pc != null) {
      v.add(new Violation("/proposed_changes", kind.wireName() + " takes no proposed_changes"));
    }

    MarketReference reference = null;
    JsonNode mr = body.get("market_reference");
    if (mr != null) {
      if (!mr.isObject()) {
        v.add(
            new Violation(
                "/market_reference",
                "must be an object with median_price_for_service_type and source"));
      } else {
        for (Map.Entry<String, JsonNode> e : mr.properties()) {
          if (!e.getKey().equals("median_price_for_service_type") && !e.getKey().equals("source")) {
            v.add(
                new Violation(
                    "/market_reference/" + JsonTree.pointerToken(e.getKey()),
                    "unknown member; only median_price_for_service_type and source"));
          }
        }
        JsonNode median = mr.get("median_price_for_service_type");
        JsonNode source = mr.get("source");
        boolean ok = true;
        if (median == null || !median.isTextual() || !AMOUNT.matcher(median.asText()).matches()) {
          v.add(
              new Violation(
                  "/market_reference/median_price_for_service_type",
                  "required: a decimal string such as \"5.50\""));
          ok = false;
        }
        if (source == null || !source.isTextual() || !SOURCE.matcher(source.asText()).matches()) {
          v.add(
              new Violation(
                  "/market_reference/source",
                  "required: a short snake_case source identifier such as arp_market_data"));
          ok = false;
        }
        if (ok) {
          reference = new MarketReference(new BigDecimal(median.asText()), source.asText());
        }
      }
    }

    boolean renormalize = false;
    JsonNode rw = body.get("renormalize_weights");
    if (rw != null) {
      if (!rw.isBoolean()) {
        v.add(new Violation("/renormalize_weights", "must be true or false"));
      } else {
        renormalize = rw.booleanValue();
      }
    }

    Optional<List<Ed25519PublicKey>> proposed = proposedEvaluators(body, kind, v);

    JsonNode party = body.get("party");
    if (party != null
        && !(party.isTextual()
            && (party.asText().equals("client") || party.asText().equals("provider")))) {
      v.add(new Violation("/party", "must be client or provider"));
    }

    if (!v.isEmpty()) {
      throw new InvalidDocumentException(v);
    }
    return new NegotiationMessage(
        negotiationId, round, kind, changes, rationale, reference, renormalize, proposed);
  }

  /**
   * {@code proposed_evaluators}: registry evaluators by key, each once, at most {@link
   * #MAX_PROPOSED_EVALUATORS}. Only the form is checked here: whether the agreement takes proposals
   * (mutual mode, within its rounds) is {@link EvaluatorProposals}'s rule, and whether an evaluator
   * can be assigned is decided at activation, when the pool is screened.
   */
  private static Optional<List<Ed25519PublicKey>> proposedEvaluators(
      JsonNode body, Kind kind, List<Violation> v) {
    JsonNode pe = body.get("proposed_evaluators");
    if (pe == null) {
      return Optional.empty();
    }
    String at = "/proposed_evaluators";
    if (kind == Kind.REJECT) {
      v.add(
          new Violation(
              at,
              "reject takes no proposed_evaluators: the negotiation ends, nothing is assigned"));
      return Optional.empty();
    }
    if (!pe.isArray()) {
      v.add(
          new Violation(
              at,
              "must be a list of registry evaluators' keys (base64url Ed25519 public keys, as in"
                  + " GET /evaluators), at most "
                  + MAX_PROPOSED_EVALUATORS
                  + "; [] withdraws your proposal"));
      return Optional.empty();
    }
    if (pe.size() > MAX_PROPOSED_EVALUATORS) {
      v.add(
          new Violation(
              at,
              "at most "
                  + MAX_PROPOSED_EVALUATORS
                  + " evaluators, got "
                  + pe.size()
                  + ": propose the few you would accept"));
      return Optional.empty();
    }
    List<Ed25519PublicKey> keys = new ArrayList<>();
    boolean ok = true;
    for (int i = 0; i < pe.size(); i++) {
      JsonNode k = pe.get(i);
      String pointer = at + "/" + i;
      Ed25519PublicKey key = null;
      String problem = "not a string";
      if (k.isTextual()) {
        try {
          key = Ed25519PublicKey.fromBase64Url(k.asText());
        } catch (IllegalArgumentException e) {
          problem = e.getMessage();
        }
      }
      if (key == null) {
        v.add(
            new Violation(
                pointer,
                "must be an evaluator's key, base64url (no padding) of a 32-byte Ed25519 public"
                    + " key as GET /evaluators lists it ("
                    + problem
                    + ")"));
        ok = false;
      } else if (keys.contains(key)) {
        v.add(new Violation(pointer, "proposes the same evaluator twice"));
        ok = false;
      } else {
        keys.add(key);
      }
    }
    return ok ? Optional.of(keys) : Optional.empty();
  }

  private static List<String> sorted(Set<String> s) {
    return new ArrayList<>(new java.util.TreeSet<>(s));
  }
}
