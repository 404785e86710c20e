package dev.asa.shadow;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.agreement.StrictJson;
import dev.asa.json.Json;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The results of one test suite (sealed or open), read from the validator input format {@code
 * {"tests":[{"name","status","category","expected","actual","message"}]}}.
 *
 * <p>Reading is strict: a score computed from a file the reader only half understood would be
 * presented as authoritative, so anything that cannot be read with certainty is refused with the
 * member at fault. Members a runner adds beyond these (durations, file names) are ignored, as
 * unknown members are everywhere in ASA.
 */
public record TestSuite(List<TestResult> tests) {

  public TestSuite {
    tests = List.copyOf(tests);
    Set<String> names = new HashSet<>();
    for (TestResult t : tests) {
      if (!names.add(t.name())) {
        throw new IllegalArgumentException("test name '" + t.name() + "' appears more than once");
      }
    }
  }

  public static TestSuite of(TestResult... tests) {
    return new TestSuite(List.of(tests));
  }

  public int total() {
    return tests.size();
  }

  public int failed() {
    return (int) tests.stream().filter(TestResult::isFailure).count();
  }

  public int passed() {
    return total() - failed();
  }

  public List<TestResult> failures() {
    return tests.stream().filter(TestResult::isFailure).toList();
  }

  public long count(Category category) {
    return tests.stream().filter(t -> t.category() == category).count();
  }

  /** Reads UTF-8 JSON text in the input format. */
  public static TestSuite parse(byte[] utf8) throws UnusableTestResultsException {
    JsonNode root;
    try {
      root = Json.parse(utf8);
    } catch (JsonProcessingException e) {
      String where =
          e.getLocation() == null || e.getLocation().getLineNr() < 1
              ? ""
              : " (line "
                  + e.getLocation().getLineNr()
                  + ", column "
                  + e.getLocation().getColumnNr()
                  + ")";
      throw new UnusableTestResultsException("not valid JSON: " + e.getOriginalMessage() + where);
    }
    return parse(root);
  }

  /** Reads a parsed document in the input format. */
  public static TestSuite parse(JsonNode root) throws UnusableTestResultsException {
    if (root == null || !root.isObject()) {
      throw new UnusableTestResultsException(
          "expected an object {\"tests\": [...]}, found " + StrictJson.kind(root));
    }
    JsonNode array = root.get("tests");
    if (array == null) {
      throw new UnusableTestResultsException("missing \"tests\": expected {\"tests\": [...]}");
    }
    if (!array.isArray()) {
      throw new UnusableTestResultsException(
          "\"tests\" must be an array, found " + StrictJson.kind(array));
    }
    List<TestResult> tests = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (int i = 0; i < array.size(); i++) {
      TestResult t = test(array.get(i), "tests[" + i + "]");
      if (!names.add(t.name())) {
        throw new UnusableTestResultsException(
            "tests["
                + i
                + "].name: '"
                + t.name()
                + "' appears more than once, so failures could not be told apart");
      }
      tests.add(t);
    }
    return new TestSuite(tests);
  }

  private static TestResult test(JsonNode node, String at) throws UnusableTestResultsException {
    if (!node.isObject()) {
      throw new UnusableTestResultsException(
          at + " must be an object, found " + StrictJson.kind(node));
    }
    String name = text(node, at, "name");
    if (name == null || name.isBlank()) {
      throw new UnusableTestResultsException(
          at + ".name is missing or empty: every test needs a name");
    }
    String statusText = text(node, at, "status");
    if (statusText == null) {
      throw new UnusableTestResultsException(
          at + ".status is missing: expected one of " + Status.allWire());
    }
    Status status = Status.fromWire(statusText);
    if (status == null) {
      throw new UnusableTestResultsException(
          at + ".status '" + statusText + "' is not one of " + Status.allWire());
    }
    String categoryText = text(node, at, "category");
    Category category = categoryText == null ? Category.UNKNOWN : Category.fromWire(categoryText);
    if (category == null) {
      throw new UnusableTestResultsException(
          at + ".category '" + categoryText + "' is not one of " + Category.allWire());
    }
    return new TestResult(
        name,
        status,
        category,
        text(node, at, "expected"),
        text(node, at, "actual"),
        text(node, at, "message"));
  }

  /** An optional string member: null when absent or JSON null, refused when of another type. */
  private static String text(JsonNode node, String at, String member)
      throws UnusableTestResultsException {
    JsonNode v = node.get(member);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isTextual()) {
      throw new UnusableTestResultsException(
          at + "." + member + " must be a string, found " + StrictJson.kind(v));
    }
    return v.textValue();
  }
}
