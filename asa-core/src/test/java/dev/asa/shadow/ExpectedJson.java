package dev.asa.shadow;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Compares a produced document with a fixture's expected output the way the conformance fixtures
 * are meant: every member the fixture lists must be there with that value, members it does not list
 * are free (a report may carry {@code advisory}, {@code sealed_hash}...), arrays must match item by
 * item and in length, and numbers compare by value (0.0 equals 0).
 */
public final class ExpectedJson {
  private ExpectedJson() {}

  /** The differences, one per line with the JSON path; empty when the document matches. */
  public static List<String> differences(JsonNode expected, JsonNode actual) {
    List<String> out = new ArrayList<>();
    compare("$", expected, actual, out);
    return out;
  }

  private static void compare(String at, JsonNode expected, JsonNode actual, List<String> out) {
    if (actual == null || actual.isMissingNode()) {
      out.add(at + ": missing, expected " + expected);
    } else if (expected.isObject()) {
      if (!actual.isObject()) {
        out.add(at + ": expected an object, found " + actual);
        return;
      }
      expected
          .fields()
          .forEachRemaining(
              e -> compare(at + "." + e.getKey(), e.getValue(), actual.get(e.getKey()), out));
    } else if (expected.isArray()) {
      if (!actual.isArray() || actual.size() != expected.size()) {
        out.add(at + ": expected " + expected + ", found " + actual);
        return;
      }
      for (int i = 0; i < expected.size(); i++) {
        compare(at + "[" + i + "]", expected.get(i), actual.get(i), out);
      }
    } else if (expected.isNumber()) {
      if (!actual.isNumber() || expected.decimalValue().compareTo(actual.decimalValue()) != 0) {
        out.add(at + ": expected " + expected + ", found " + actual);
      }
    } else if (!expected.equals(actual)) {
      out.add(at + ": expected " + expected + ", found " + actual);
    }
  }
}
