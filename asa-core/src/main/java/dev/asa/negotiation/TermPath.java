package dev.asa.negotiation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Currency;
import dev.asa.agreement.InvalidDocumentException;
import java.math.BigDecimal;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A term a negotiation message may change, named by its dotted path (whitepaper section 7.2: {@code
 * "quality_criteria.dimensions[0].slo.value"}). The set is closed: the parties, the identity of the
 * document, the service description and everything else are not negotiable, and each term knows the
 * one type of value it takes, so no slot accepts prose.
 */
public sealed interface TermPath {

  /** Highest dimension index a path may name (the schema allows at most 32 dimensions). */
  int MAX_DIMENSION_INDEX = 31;

  /** The dotted path as written in {@code proposed_changes}. */
  String path();

  /** The RFC 6901 pointer of the term inside an agreement document. */
  String documentPointer();

  /** Refuses a value of the wrong type or range, naming the path. */
  void checkValue(JsonNode value);

  /**
   * Like {@link #checkValue(JsonNode)}, with the checks that need the document (an amount's
   * decimals).
   */
  default void checkValue(JsonNode value, ObjectNode doc) {
    checkValue(value);
  }

  /** Where errors about this term point: {@code /proposed_changes/<path>}. */
  default String messagePointer() {
    return messagePointer(path());
  }

  /** The current value, or a missing node. */
  default JsonNode read(ObjectNode doc) {
    return doc.at(documentPointer()).deepCopy();
  }

  /**
   * A copy of {@code doc} with the term set to {@code value}. Missing objects on the way are
   * created (a template may leave out {@code service.constraints}); a missing dimension is refused.
   */
  default ObjectNode write(ObjectNode doc, JsonNode value) {
    ObjectNode copy = doc.deepCopy();
    String[] segments = documentPointer().substring(1).split("/");
    JsonNode node = copy;
    for (int i = 0; i < segments.length - 1; i++) {
      String s = segments[i];
      if (node instanceof ArrayNode array) {
        int index = Integer.parseInt(s);
        if (index >= array.size() || !array.get(index).isObject()) {
          throw new InvalidDocumentException(
              messagePointer(), "the agreement has no dimension " + index);
        }
        node = array.get(index);
      } else {
        ObjectNode object = (ObjectNode) node;
        JsonNode next = object.get(s);
        if (next == null || !(next.isObject() || next.isArray())) {
          if (segments[i + 1].matches("\\d+")) {
            throw new InvalidDocumentException(messagePointer(), "the agreement has no " + s);
          }
          next = object.putObject(s);
        }
        node = next;
      }
    }
    ((ObjectNode) node).set(segments[segments.length - 1], value.deepCopy());
    return copy;
  }

  /**
   * A term whose value is a number (or, for the amount, a decimal string): the asymmetry rule
   * applies.
   */
  sealed interface Numeric extends TermPath {
    /** The value as an exact decimal; call after {@link #checkValue}. */
    BigDecimal numeric(JsonNode value);
  }

  /**
   * {@code quality_criteria.dimensions[i].slo.value}: a number (boolean and between-pair SLOs are
   * not negotiable).
   */
  record SloValue(int index) implements Numeric {
    public String path() {
      return "quality_criteria.dimensions[" + index + "].slo.value";
    }

    public String documentPointer() {
      return "/quality_criteria/dimensions/" + index + "/slo/value";
    }

    public void checkValue(JsonNode value) {
      Checks.number(this, value, null, null);
    }

    public BigDecimal numeric(JsonNode value) {
      return value.decimalValue();
    }
  }

  /** {@code quality_criteria.dimensions[i].weight}: a number in [0, 1]. */
  record Weight(int index) implements Numeric {
    public String path() {
      return "quality_criteria.dimensions[" + index + "].weight";
    }

    public String documentPointer() {
      return "/quality_criteria/dimensions/" + index + "/weight";
    }

    public void checkValue(JsonNode value) {
      Checks.number(this, value, BigDecimal.ZERO, BigDecimal.ONE);
    }

    public BigDecimal numeric(JsonNode value) {
      return value.decimalValue();
    }
  }

  /** {@code quality_criteria.composite_threshold}: a number in [0, 100]. */
  record CompositeThreshold() implements Numeric {
    public String path() {
      return "quality_criteria.composite_threshold";
    }

    public String documentPointer() {
      return "/quality_criteria/composite_threshold";
    }

    public void checkValue(JsonNode value) {
      Checks.number(this, value, BigDecimal.ZERO, BigDecimal.valueOf(100));
    }

    public BigDecimal numeric(JsonNode value) {
      return value.decimalValue();
    }
  }

  /**
   * {@code escrow.payment.amount}: a decimal string, never a JSON number, with at most the
   * currency's decimals.
   */
  record PaymentAmount() implements Numeric {
    private static final Pattern AMOUNT =
        Pattern.compile("^(0|[1-9][0-9]{0,17})(\\.[0-9]{1,18})?$");

    public String path() {
      return "escrow.payment.amount";
    }

    public String documentPointer() {
      return "/escrow/payment/amount";
    }

    public void checkValue(JsonNode value) {
      if (!value.isTextual() || !AMOUNT.matcher(value.asText()).matches()) {
        throw new InvalidDocumentException(
            messagePointer(),
            "must be a decimal string such as \"5.00\" (digits, optionally a point and decimals)");
      }
    }

    @Override
    public void checkValue(JsonNode value, ObjectNode doc) {
      checkValue(value);
      Currency.of(doc.path("escrow").path("payment").path("currency").asText())
          .ifPresent(c -> {
            if (new BigDecimal(value.asText()).stripTrailingZeros().scale() > c.decimals()) {
              throw new InvalidDocumentException(
                  messagePointer(),
                  c.code() + " has " + c.decimals() + " decimals; the amount has more");
            }
          });
    }

    public BigDecimal numeric(JsonNode value) {
      return new BigDecimal(value.asText());
    }
  }

  /**
   * {@code service.constraints.<name>}: the provider's declared resource limits, visible to both
   * parties.
   */
  record Constraint(String name) implements Numeric {
    static final List<String> NAMES = List.of("max_tokens", "max_duration_seconds", "max_cost_usd");

    public Constraint {
      if (!NAMES.contains(name)) {
        throw new IllegalArgumentException("not a constraint: " + name);
      }
    }

    public String path() {
      return "service.constraints." + name;
    }

    public String documentPointer() {
      return "/service/constraints/" + name;
    }

    public void checkValue(JsonNode value) {
      if (name.equals("max_cost_usd")) {
        Checks.number(this, value, BigDecimal.ZERO, null);
      } else {
        Checks.integer(this, value, 0);
      }
    }

    public BigDecimal numeric(JsonNode value) {
      return value.decimalValue();
    }
  }

  /** {@code verification.challenge_window_seconds}: an integer >= 0. */
  record ChallengeWindow() implements Numeric {
    public String path() {
      return "verification.challenge_window_seconds";
    }

    public String documentPointer() {
      return "/verification/challenge_window_seconds";
    }

    public void checkValue(JsonNode value) {
      Checks.integer(this, value, 0);
    }

    public BigDecimal numeric(JsonNode value) {
      return value.decimalValue();
    }
  }

  /** {@code escrow.dead_mans_switch.<role>_timeout_seconds}: an integer >= 1. */
  record DeadMansTimeout(String name) implements Numeric {
    static final List<String> NAMES =
        List.of("client_timeout_seconds", "provider_timeout_seconds", "evaluator_timeout_seconds");

    public DeadMansTimeout {
      if (!NAMES.contains(name)) {
        throw new IllegalArgumentException("not a dead man's switch timeout: " + name);
      }
    }

    public String path() {
      return "escrow.dead_mans_switch." + name;
    }

    public String documentPointer() {
      return "/escrow/dead_mans_switch/" + name;
    }

    public void checkValue(JsonNode value) {
      Checks.integer(this, value, 1);
    }

    public BigDecimal numeric(JsonNode value) {
      return value.decimalValue();
    }
  }

  /** {@code escrow.payment.graduated_release.mode}: {@code "tiers"} or {@code "continuous"}. */
  record ReleaseMode() implements TermPath {
    public String path() {
      return "escrow.payment.graduated_release.mode";
    }

    public String documentPointer() {
      return "/escrow/payment/graduated_release/mode";
    }

    public void checkValue(JsonNode value) {
      if (!value.isTextual()
          || !(value.asText().equals("tiers") || value.asText().equals("continuous"))) {
        throw new InvalidDocumentException(messagePointer(), "must be \"tiers\" or \"continuous\"");
      }
    }
  }

  /** The negotiable paths, for error messages. */
  String NEGOTIABLE =
      "quality_criteria.dimensions[i].slo.value, quality_criteria.dimensions[i].weight (i 0.."
          + MAX_DIMENSION_INDEX
          + "), quality_criteria.composite_threshold, escrow.payment.amount,"
          + " escrow.payment.graduated_release.mode, service.constraints.{max_tokens,max_duration_seconds,max_cost_usd},"
          + " verification.challenge_window_seconds,"
          + " escrow.dead_mans_switch.{client,provider,evaluator}_timeout_seconds";

  /** Reads a dotted path; anything outside the whitelist is refused, naming it. */
  static TermPath parse(String path) {
    switch (path) {
      case "quality_criteria.composite_threshold":
        return new CompositeThreshold();
      case "escrow.payment.amount":
        return new PaymentAmount();
      case "escrow.payment.graduated_release.mode":
        return new ReleaseMode();
      case "verification.challenge_window_seconds":
        return new ChallengeWindow();
      default:
        break;
    }
    if (path.startsWith("service.constraints.") && Constraint.NAMES.contains(path.substring(20))) {
      return new Constraint(path.substring(20));
    }
    if (path.startsWith("escrow.dead_mans_switch.")
        && DeadMansTimeout.NAMES.contains(path.substring(24))) {
      return new DeadMansTimeout(path.substring(24));
    }
    // No leading zeros, so each term has exactly one spelling and a message cannot name it twice.
    Matcher m = Checks.DIMENSION.matcher(path);
    if (m.matches()) {
      int index = Integer.parseInt(m.group(1));
      if (index <= MAX_DIMENSION_INDEX) {
        return m.group(2).equals("weight") ? new Weight(index) : new SloValue(index);
      }
    }
    throw new InvalidDocumentException(
        messagePointer(path), "not a negotiable term; negotiable: " + NEGOTIABLE);
  }

  /** {@code /proposed_changes/} + the path escaped as one RFC 6901 reference token. */
  static String messagePointer(String path) {
    return "/proposed_changes/" + path.replace("~", "~0").replace("/", "~1");
  }

  /** Shared value checks; public only because interface members are, not part of the API. */
  final class Checks {
    static final Pattern DIMENSION =
        Pattern.compile(
            "^quality_criteria\\.dimensions\\[(0|[1-9][0-9]?)]\\.(slo\\.value|weight)$");

    private Checks() {}

    static void number(TermPath t, JsonNode value, BigDecimal min, BigDecimal max) {
      if (value == null || !value.isNumber()) {
        throw new InvalidDocumentException(
            t.messagePointer(), "must be a JSON number" + range(min, max));
      }
      BigDecimal v = value.decimalValue();
      if ((min != null && v.compareTo(min) < 0) || (max != null && v.compareTo(max) > 0)) {
        throw new InvalidDocumentException(
            t.messagePointer(),
            v.stripTrailingZeros().toPlainString() + " is out of range" + range(min, max));
      }
    }

    static void integer(TermPath t, JsonNode value, long min) {
      if (value == null || !value.isIntegralNumber()) {
        throw new InvalidDocumentException(t.messagePointer(), "must be a JSON integer >= " + min);
      }
      if (value.decimalValue().compareTo(BigDecimal.valueOf(min)) < 0) {
        throw new InvalidDocumentException(t.messagePointer(), "must be >= " + min);
      }
    }

    private static String range(BigDecimal min, BigDecimal max) {
      if (min == null && max == null) {
        return "";
      }
      if (max == null) {
        return " (>= " + min.toPlainString() + ")";
      }
      return " (" + min.toPlainString() + ".." + max.toPlainString() + ")";
    }
  }

  /** For tests and logs: every path of a document with {@code dimensions} dimensions. */
  static List<TermPath> all(int dimensions) {
    java.util.ArrayList<TermPath> list = new java.util.ArrayList<>();
    for (int i = 0; i < dimensions; i++) {
      list.add(new SloValue(i));
      list.add(new Weight(i));
    }
    list.add(new CompositeThreshold());
    list.add(new PaymentAmount());
    list.add(new ReleaseMode());
    Constraint.NAMES.forEach(n -> list.add(new Constraint(n)));
    list.add(new ChallengeWindow());
    DeadMansTimeout.NAMES.forEach(n -> list.add(new DeadMansTimeout(n)));
    return List.copyOf(list);
  }
}
