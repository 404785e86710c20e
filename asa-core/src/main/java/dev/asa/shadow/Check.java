package dev.asa.shadow;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.StrictJson;
import dev.asa.json.Jcs;
import dev.asa.json.Json;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * How a sealed criterion is decided: one of seven deterministic checks, which anyone can re-run on
 * the revealed criteria and get the same verdict, or {@link Judged}, which is sent to a judge.
 *
 * <p>Wire form: an object with a {@code type} and that type's members, for example {@code
 * {"type":"min_words","value":500}}. {@link #toJson()} writes every member, defaults included,
 * because that form is what the commitment covers: two spellings of the same check must not commit
 * to two different digests.
 */
public sealed interface Check {

  /** Longest pattern, value, title or assertion a check may carry. */
  int MAX_TEXT = 2000;

  /** Largest JSON Schema or expected value, as canonical JSON bytes. */
  int MAX_JSON_BYTES = 64 * 1024;

  /** The {@code type} of this check on the wire. */
  String type();

  ObjectNode toJson();

  /**
   * Whether the check needs a judge (everything else is decided by {@link ShadowValidator} alone).
   */
  default boolean isJudged() {
    return this instanceof Judged;
  }

  /**
   * The deliverable contains {@code value} as a substring.
   *
   * @param caseSensitive whether case matters; true when not given, so that the plain reading of
   *     {@code {"value":"API"}} is the strict one
   */
  record Contains(String value, boolean caseSensitive) implements Check {
    public Contains {
      requireText(value, "value");
    }

    @Override
    public String type() {
      return "contains";
    }

    @Override
    public ObjectNode toJson() {
      return Json.object()
          .put("type", type())
          .put("value", value)
          .put("case_sensitive", caseSensitive);
    }
  }

  /**
   * A {@link java.util.regex} pattern finds a match somewhere in the deliverable. No flags are set:
   * write {@code (?i)} or {@code (?m)} in the pattern to want them. Matching runs on a step budget
   * ({@link ShadowValidator#REGEX_STEP_BUDGET}) instead of a clock, so a catastrophic pattern ends
   * as an error verdict the same way on every machine.
   */
  record Regex(String pattern) implements Check {
    public Regex {
      requireText(pattern, "pattern");
      compile(pattern); // refuse now, not at validation
    }

    /** The compiled pattern; compiling is cheap next to matching, so it is not cached. */
    public Pattern compiled() {
      return compile(pattern);
    }

    private static Pattern compile(String pattern) {
      try {
        return Pattern.compile(pattern);
      } catch (PatternSyntaxException e) {
        throw new IllegalArgumentException(
            "not a valid regular expression: "
                + e.getDescription()
                + " near index "
                + e.getIndex());
      }
    }

    @Override
    public String type() {
      return "regex";
    }

    @Override
    public ObjectNode toJson() {
      return Json.object().put("type", type()).put("pattern", pattern);
    }
  }

  /**
   * The deliverable is JSON and satisfies a JSON Schema (2020-12 unless the schema says otherwise
   * with {@code $schema}). References outside the schema are never fetched: they fail.
   */
  record JsonSchema(JsonNode schema) implements Check {
    public JsonSchema {
      Objects.requireNonNull(schema, "schema");
      if (!schema.isObject() && !schema.isBoolean()) {
        throw new IllegalArgumentException(
            "a JSON Schema is an object (or true/false), not " + StrictJson.kind(schema));
      }
      schema = schema.deepCopy();
      requireSmall(schema, "schema");
      JsonSchemas.compile(
          schema); // refuse a schema the validator cannot use now, not at validation
    }

    @Override
    public JsonNode schema() {
      return schema.deepCopy();
    }

    @Override
    public String type() {
      return "json_schema";
    }

    @Override
    public ObjectNode toJson() {
      ObjectNode o = Json.object().put("type", type());
      o.set("schema", schema.deepCopy());
      return o;
    }
  }

  /**
   * The deliverable is JSON and the value at an RFC 6901 JSON Pointer ({@code /a/0/b}; {@code ""}
   * is the whole document) equals {@code value}. Equal means equal canonical JSON (RFC 8785):
   * member order does not matter and {@code 1.0} equals {@code 1}. JSON Pointer was chosen over a
   * {@code $.a[0].b} path because it has one standard meaning for every member name, dots and
   * brackets included, and is what every error in this project already points with.
   */
  record JsonPathEquals(String path, JsonNode value) implements Check {
    public JsonPathEquals {
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(value, "value");
      if (!path.isEmpty() && !path.startsWith("/")) {
        throw new IllegalArgumentException(
            "must be a JSON Pointer (RFC 6901) such as /status or /items/0/id, not '" + path + "'");
      }
      try {
        JsonPointer.compile(path);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("is not a valid JSON Pointer: " + e.getMessage());
      }
      value = value.deepCopy();
      requireSmall(value, "value");
    }

    public JsonPointer pointer() {
      return JsonPointer.compile(path);
    }

    @Override
    public JsonNode value() {
      return value.deepCopy();
    }

    @Override
    public String type() {
      return "json_path_equals";
    }

    @Override
    public ObjectNode toJson() {
      ObjectNode o = Json.object().put("type", type()).put("path", path);
      o.set("value", value.deepCopy());
      return o;
    }
  }

  /** The deliverable has at least {@code value} words (runs of non-whitespace characters). */
  record MinWords(int value) implements Check {
    public MinWords {
      requireCount(value);
    }

    @Override
    public String type() {
      return "min_words";
    }

    @Override
    public ObjectNode toJson() {
      return Json.object().put("type", type()).put("value", value);
    }
  }

  /** The deliverable has at most {@code value} words (runs of non-whitespace characters). */
  record MaxWords(int value) implements Check {
    public MaxWords {
      requireCount(value);
    }

    @Override
    public String type() {
      return "max_words";
    }

    @Override
    public ObjectNode toJson() {
      return Json.object().put("type", type()).put("value", value);
    }
  }

  /**
   * The deliverable has a Markdown ATX heading ({@code #} to {@code ######}, outside fenced code)
   * whose title equals {@code title}, ignoring case and runs of spaces.
   */
  record HasSection(String title) implements Check {
    public HasSection {
      requireText(title, "title");
    }

    @Override
    public String type() {
      return "has_section";
    }

    @Override
    public ObjectNode toJson() {
      return Json.object().put("type", type()).put("title", title);
    }
  }

  /**
   * A natural-language assertion a judge decides (the verification engine's judge, on the server).
   */
  record Judged(String assertion) implements Check {
    public Judged {
      requireText(assertion, "assertion");
    }

    @Override
    public String type() {
      return "judged";
    }

    @Override
    public ObjectNode toJson() {
      return Json.object().put("type", type()).put("assertion", assertion);
    }
  }

  /** The largest word count a check may ask for (far beyond any deliverable's). */
  int MAX_WORDS = 10_000_000;

  /** Every {@code type} on the wire, in documentation order. */
  String TYPES =
      "contains, regex, json_schema, json_path_equals, min_words, max_words, has_section, judged";

  /**
   * Reads a check, recording every violation (with its pointer below {@code pointer}) in {@code
   * errors}; null when it is not usable.
   */
  static Check parse(JsonNode node, String pointer, StrictJson errors) {
    if (errors.object(node, pointer, "check") == null) {
      return null;
    }
    JsonNode typeNode = node.get("type");
    if (typeNode == null || !typeNode.isTextual()) {
      errors.add(
          StrictJson.child(pointer, "type"),
          (typeNode == null ? "is missing" : "must be a string") + ": expected one of " + TYPES);
      return null;
    }
    String type = typeNode.textValue();
    Set<String> members =
        switch (type) {
          case "contains" -> Set.of("type", "value", "case_sensitive");
          case "regex" -> Set.of("type", "pattern");
          case "json_schema" -> Set.of("type", "schema");
          case "json_path_equals" -> Set.of("type", "path", "value");
          case "min_words", "max_words" -> Set.of("type", "value");
          case "has_section" -> Set.of("type", "title");
          case "judged" -> Set.of("type", "assertion");
          default -> null;
        };
    if (members == null) {
      errors.add(
          StrictJson.child(pointer, "type"),
          "'" + type + "' is not a check type; expected one of " + TYPES);
      return null;
    }
    int before = errors.count();
    errors.allowOnly(node, pointer, members);
    Check check =
        switch (type) {
          case "contains" -> {
            String value = errors.text(node, pointer, "value", MAX_TEXT);
            Boolean caseSensitive = errors.bool(node, pointer, "case_sensitive", true);
            yield value == null || caseSensitive == null
                ? null
                : new Contains(value, caseSensitive);
          }
          case "regex" -> {
            String pattern = errors.text(node, pointer, "pattern", MAX_TEXT);
            yield pattern == null
                ? null
                : construct(() -> new Regex(pattern), StrictJson.child(pointer, "pattern"), errors);
          }
          case "json_schema" -> {
            JsonNode schema = node.get("schema");
            if (schema == null) {
              errors.add(
                  StrictJson.child(pointer, "schema"), "is missing: expected a JSON Schema object");
              yield null;
            }
            yield construct(
                () -> new JsonSchema(schema), StrictJson.child(pointer, "schema"), errors);
          }
          case "json_path_equals" -> {
            JsonNode path = node.get("path");
            JsonNode value = node.get("value");
            if (path == null || !path.isTextual()) {
              errors.add(
                  StrictJson.child(pointer, "path"),
                  (path == null ? "is missing" : "must be a string")
                      + ": expected a JSON Pointer such as /status (\"\" for the whole document)");
            }
            if (value == null) {
              errors.add(
                  StrictJson.child(pointer, "value"),
                  "is missing: expected the JSON value the path must hold (null is a value)");
            }
            if (path == null || !path.isTextual() || value == null) {
              yield null;
            }
            // The constructor refuses either member; its message says which ("value is ..." or the
            // path's).
            try {
              yield new JsonPathEquals(path.textValue(), value);
            } catch (IllegalArgumentException e) {
              errors.add(
                  StrictJson.child(pointer, e.getMessage().startsWith("value ") ? "value" : "path"),
                  e.getMessage());
              yield null;
            }
          }
          case "min_words" -> {
            Integer n = errors.integer(node, pointer, "value", 0, MAX_WORDS);
            yield n == null ? null : new MinWords(n);
          }
          case "max_words" -> {
            Integer n = errors.integer(node, pointer, "value", 0, MAX_WORDS);
            yield n == null ? null : new MaxWords(n);
          }
          case "has_section" -> {
            String title = errors.text(node, pointer, "title", MAX_TEXT);
            yield title == null ? null : new HasSection(title);
          }
          case "judged" -> {
            String assertion = errors.text(node, pointer, "assertion", MAX_TEXT);
            yield assertion == null ? null : new Judged(assertion);
          }
          default -> throw new IllegalStateException(type);
        };
    return errors.count() == before ? check : null;
  }

  private static Check construct(
      java.util.function.Supplier<Check> make, String pointer, StrictJson errors) {
    try {
      return make.get();
    } catch (IllegalArgumentException e) {
      errors.add(pointer, e.getMessage());
      return null;
    }
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

  private static void requireCount(int n) {
    if (n < 0 || n > MAX_WORDS) {
      throw new IllegalArgumentException(
          "a word count must be from 0 to " + MAX_WORDS + ", not " + n);
    }
  }

  private static void requireSmall(JsonNode json, String what) {
    int size = Jcs.canonicalize(json).length;
    if (size > MAX_JSON_BYTES) {
      throw new IllegalArgumentException(
          what
              + " is "
              + size
              + " bytes as canonical JSON; at most "
              + MAX_JSON_BYTES
              + " are allowed");
    }
  }
}
