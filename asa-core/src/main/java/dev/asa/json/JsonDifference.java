package dev.asa.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;

/**
 * Where two JSON values first differ, as a JSON pointer relative to them ("" for the values
 * themselves). Numbers compare by value (0.25 equals 0.250, 1 equals 1.0), members in any order;
 * everything else exactly. Used to name the difference when a request repeats terms it must repeat
 * unchanged.
 */
public final class JsonDifference {
  private JsonDifference() {}

  /** The pointer of the first difference, or empty when the two values are equal. */
  public static Optional<String> first(JsonNode expected, JsonNode actual) {
    return at("", expected, actual);
  }

  private static Optional<String> at(String pointer, JsonNode expected, JsonNode actual) {
    if (expected == null || expected.isMissingNode() || actual == null || actual.isMissingNode()) {
      boolean bothAbsent =
          (expected == null || expected.isMissingNode())
              && (actual == null || actual.isMissingNode());
      return bothAbsent ? Optional.empty() : Optional.of(pointer);
    }
    if (expected.isNumber() && actual.isNumber()) {
      return expected.decimalValue().compareTo(actual.decimalValue()) == 0
          ? Optional.empty()
          : Optional.of(pointer);
    }
    if (expected.isObject() && actual.isObject()) {
      for (Iterator<Map.Entry<String, JsonNode>> it = expected.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        Optional<String> d =
            at(pointer + "/" + escape(e.getKey()), e.getValue(), actual.get(e.getKey()));
        if (d.isPresent()) {
          return d;
        }
      }
      for (Iterator<String> it = actual.fieldNames(); it.hasNext(); ) {
        String name = it.next();
        if (!expected.has(name)) {
          return Optional.of(pointer + "/" + escape(name));
        }
      }
      return Optional.empty();
    }
    if (expected.isArray() && actual.isArray()) {
      int n = Math.max(expected.size(), actual.size());
      for (int i = 0; i < n; i++) {
        Optional<String> d = at(pointer + "/" + i, expected.get(i), actual.get(i));
        if (d.isPresent()) {
          return d;
        }
      }
      return Optional.empty();
    }
    return expected.equals(actual) ? Optional.empty() : Optional.of(pointer);
  }

  private static String escape(String name) {
    return name.replace("~", "~0").replace("/", "~1");
  }
}
