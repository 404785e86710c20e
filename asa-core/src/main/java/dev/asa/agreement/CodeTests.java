package dev.asa.agreement;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

/**
 * Tests a code deliverable must pass (whitepaper 4.4, {@code code_generation}: "tests pass"): one
 * test file in the deliverable's language, run by the server's code sandbox against the delivered
 * code. In an agreement at {@code quality_criteria.tests}, signed by both parties before any code
 * is written; in a standalone verification at {@code original_request.tests}.
 *
 * <pre>{"language": "python", "content": "import unittest\n..."}</pre>
 *
 * @param language one of {@link #LANGUAGES}
 * @param content the test file's text
 */
public record CodeTests(String language, String content) {

  /** The languages the sandbox runs tests in. */
  public static final List<String> LANGUAGES = List.of("python", "javascript", "java");

  /** A test file larger than this is not a test file. */
  public static final int MAX_BYTES = 512 * 1024;

  public CodeTests {
    Objects.requireNonNull(language, "language");
    Objects.requireNonNull(content, "content");
  }

  /**
   * Reads {@code node} at {@code at}, adding every problem to {@code violations}; null when absent
   * or unreadable.
   */
  static CodeTests read(JsonNode node, String at, Violations violations) {
    if (node == null || node.isMissingNode() || node.isNull()) {
      return null;
    }
    if (!node.isObject()) {
      violations.add(at, "must be an object {\"language\", \"content\"}");
      return null;
    }
    int before = violations.size();
    node.properties()
        .forEach(e -> {
          if (!e.getKey().equals("language") && !e.getKey().equals("content")) {
            violations.add(at + "/" + e.getKey(), "is not a member of tests (language, content)");
          }
        });
    JsonNode language = node.get("language");
    if (language == null || !language.isTextual() || !LANGUAGES.contains(language.asText())) {
      violations.add(
          at + "/language",
          "must be one of " + String.join(", ", LANGUAGES) + ": the tests' language");
    }
    JsonNode content = node.get("content");
    if (content == null || !content.isTextual() || content.asText().isBlank()) {
      violations.add(at + "/content", "must be the test file's text");
    } else if (content.asText().getBytes(StandardCharsets.UTF_8).length > MAX_BYTES) {
      violations.add(at + "/content", "is larger than " + MAX_BYTES / 1024 + " KiB");
    }
    if (violations.size() > before) {
      return null;
    }
    return new CodeTests(language.asText(), content.asText());
  }

  /**
   * Reads a request's {@code tests} member (a standalone verification's {@code
   * original_request.tests}).
   *
   * @throws InvalidDocumentException naming every problem
   */
  public static CodeTests parse(JsonNode node, String at) {
    Violations violations = new Violations();
    CodeTests tests = read(node, at, violations);
    violations.throwIfAny();
    return tests;
  }

  public ObjectNode toJson() {
    return Json.object().put("language", language).put("content", content);
  }
}
