package dev.asa.shadow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.StrictJson;
import dev.asa.json.Json;
import java.util.Objects;
import java.util.Set;

/**
 * One sealed acceptance criterion: a binary pass/fail assertion the provider never sees before the
 * reveal.
 *
 * <p>Wire form (every member is written; this form is what the commitment covers):
 *
 * <pre>{"id":"sc-01","category":"edge_case","assertion":"...","expected":"...",
 *  "message":"...","check":{"type":"contains","value":"...","case_sensitive":true}}</pre>
 *
 * @param id unique within its set, 1 to 64 of {@code A-Z a-z 0-9 _ . -}; the report's {@code
 *     test_name}
 * @param category one of happy_path, edge_case, error_handling, security, completeness
 * @param assertion what is asserted, in words (for the sealer, the validator and the reveal)
 * @param expected what a passing deliverable shows; the report's {@code expected}
 * @param message what the provider is told when this criterion fails, the only part of it shared
 *     during hardening; optional on the way in, {@code expected} when not given. Write it so that
 *     it names the gap without quoting the check (a regex, a word count)
 * @param check how it is decided
 */
public record SealedCriterion(
    String id, Category category, String assertion, String expected, String message, Check check) {

  /** Longest assertion, expected or message text. */
  public static final int MAX_TEXT = 2000;

  private static final Set<String> MEMBERS =
      Set.of("id", "category", "assertion", "expected", "message", "check");

  private static final java.util.regex.Pattern ID =
      java.util.regex.Pattern.compile("[A-Za-z0-9_.-]{1,64}");

  private static boolean isId(String s) {
    return s != null && ID.matcher(s).matches();
  }

  public SealedCriterion {
    if (!isId(id)) {
      throw new IllegalArgumentException(
          "criterion id must be 1 to 64 of A-Z a-z 0-9 _ . -, not '" + id + "'");
    }
    Objects.requireNonNull(category, "category");
    if (category == Category.UNKNOWN) {
      throw new IllegalArgumentException("a sealed criterion needs a category: " + SEALABLE);
    }
    requireText(assertion, "assertion");
    requireText(expected, "expected");
    message = message == null ? expected : message;
    requireText(message, "message");
    Objects.requireNonNull(check, "check");
  }

  public SealedCriterion(
      String id, Category category, String assertion, String expected, Check check) {
    this(id, category, assertion, expected, null, check);
  }

  static final String SEALABLE = "happy_path, edge_case, error_handling, security, completeness";

  public ObjectNode toJson() {
    ObjectNode o =
        Json.object()
            .put("id", id)
            .put("category", category.wire())
            .put("assertion", assertion)
            .put("expected", expected)
            .put("message", message);
    o.set("check", check.toJson());
    return o;
  }

  /** Reads one criterion, recording every violation under {@code pointer}; null when unusable. */
  static SealedCriterion parse(JsonNode node, String pointer, StrictJson errors) {
    if (errors.object(node, pointer, "a criterion") == null) {
      return null;
    }
    int before = errors.count();
    errors.allowOnly(node, pointer, MEMBERS);
    String id = errors.text(node, pointer, "id", 64);
    if (id != null && !isId(id)) {
      errors.add(
          StrictJson.child(pointer, "id"), "'" + id + "' must be 1 to 64 of A-Z a-z 0-9 _ . -");
    }
    String categoryText = errors.text(node, pointer, "category", 64);
    Category category = categoryText == null ? null : Category.fromWire(categoryText);
    if (categoryText != null && (category == null || category == Category.UNKNOWN)) {
      errors.add(
          StrictJson.child(pointer, "category"),
          "'" + categoryText + "' is not one of " + SEALABLE);
    }
    String assertion = errors.text(node, pointer, "assertion", MAX_TEXT);
    String expected = errors.text(node, pointer, "expected", MAX_TEXT);
    String message = errors.optionalText(node, pointer, "message", MAX_TEXT);
    JsonNode checkNode = node.get("check");
    Check check = null;
    if (checkNode == null) {
      errors.add(
          StrictJson.child(pointer, "check"),
          "is missing: expected {\"type\": one of " + Check.TYPES + ", ...}");
    } else {
      check = Check.parse(checkNode, StrictJson.child(pointer, "check"), errors);
    }
    if (errors.count() != before) {
      return null;
    }
    return new SealedCriterion(id, category, assertion, expected, message, check);
  }

  /**
   * Reads one criterion on its own; {@link dev.asa.agreement.InvalidDocumentException} lists what
   * is wrong.
   */
  public static SealedCriterion parse(JsonNode node) {
    StrictJson errors = new StrictJson();
    SealedCriterion c = parse(node, "", errors);
    errors.throwIfAny();
    return c;
  }

  private static void requireText(String s, String what) {
    if (s == null || s.isBlank()) {
      throw new IllegalArgumentException(what + " must not be empty or blank");
    }
    if (s.length() > MAX_TEXT) {
      throw new IllegalArgumentException(
          what + " is " + s.length() + " characters long; at most " + MAX_TEXT + " are allowed");
    }
  }
}
