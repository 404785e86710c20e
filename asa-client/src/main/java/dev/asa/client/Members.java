package dev.asa.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.json.Json;
import dev.asa.lifecycle.State;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the members of a server answer for the typed views. A required member that is missing or of
 * the wrong kind is an {@link IllegalArgumentException} naming the member, what was expected and
 * what came instead, so that a view is never built half-empty.
 */
final class Members {
  private Members() {}

  /** {@code answer} itself, when it is an object. */
  static ObjectNode object(JsonNode answer, String what) {
    if (answer instanceof ObjectNode o) {
      return o;
    }
    throw new IllegalArgumentException(
        what + " must be a JSON object; got " + (answer == null ? "null" : shown(answer)));
  }

  static String text(JsonNode o, String name, String what) {
    JsonNode v = o.path(name);
    if (!v.isTextual()) {
      throw missing(o, name, "a string", what);
    }
    return v.asText();
  }

  static Optional<String> optionalText(JsonNode o, String name) {
    JsonNode v = o.path(name);
    return v.isTextual() ? Optional.of(v.asText()) : Optional.empty();
  }

  static long integer(JsonNode o, String name, String what) {
    JsonNode v = o.path(name);
    if (!v.isIntegralNumber()) {
      throw missing(o, name, "an integer", what);
    }
    return v.asLong();
  }

  static Optional<Long> optionalInteger(JsonNode o, String name) {
    JsonNode v = o.path(name);
    return v.isIntegralNumber() ? Optional.of(v.asLong()) : Optional.empty();
  }

  static boolean bool(JsonNode o, String name, String what) {
    JsonNode v = o.path(name);
    if (!v.isBoolean()) {
      throw missing(o, name, "true or false", what);
    }
    return v.asBoolean();
  }

  static Optional<Boolean> optionalBool(JsonNode o, String name) {
    JsonNode v = o.path(name);
    return v.isBoolean() ? Optional.of(v.asBoolean()) : Optional.empty();
  }

  /**
   * A decimal written as a JSON number (scores, percentages) or as a string (amounts are strings so
   * that no cent is lost in a binary fraction); either way exactly the digits the server wrote.
   */
  static BigDecimal decimal(JsonNode o, String name, String what) {
    return optionalDecimal(o, name)
        .orElseThrow(() -> missing(o, name, "a number or a decimal string", what));
  }

  static Optional<BigDecimal> optionalDecimal(JsonNode o, String name) {
    JsonNode v = o.path(name);
    if (v.isNumber()) {
      return Optional.of(v.decimalValue());
    }
    if (v.isTextual()) {
      try {
        return Optional.of(new BigDecimal(v.asText()));
      } catch (NumberFormatException e) {
        return Optional.empty();
      }
    }
    return Optional.empty();
  }

  static State state(JsonNode o, String name, String what) {
    String value = text(o, name, what);
    try {
      return State.fromWire(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(what + ": member '" + name + "': " + e.getMessage(), e);
    }
  }

  static Instant instant(JsonNode o, String name, String what) {
    return optionalInstant(o, name)
        .orElseThrow(() -> missing(o, name, "an RFC 3339 time such as 2026-11-22T10:00:00Z", what));
  }

  static Optional<Instant> optionalInstant(JsonNode o, String name) {
    JsonNode v = o.path(name);
    if (!v.isTextual()) {
      return Optional.empty();
    }
    try {
      return Optional.of(Instant.parse(v.asText()));
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }

  static ObjectNode child(JsonNode o, String name, String what) {
    if (o.path(name) instanceof ObjectNode child) {
      return child;
    }
    throw missing(o, name, "an object", what);
  }

  /** An object member, or empty when it is absent or not an object. */
  static Optional<ObjectNode> optionalChild(JsonNode o, String name) {
    return o.path(name) instanceof ObjectNode child ? Optional.of(child) : Optional.empty();
  }

  /**
   * An object member whose values are decimals (amounts by currency code), in the server's order;
   * an absent member is an empty map.
   */
  static Map<String, BigDecimal> decimals(JsonNode o, String name, String what) {
    JsonNode v = o.path(name);
    if (v.isMissingNode() || v.isNull()) {
      return Map.of();
    }
    if (!v.isObject()) {
      throw missing(o, name, "an object of decimals", what);
    }
    Map<String, BigDecimal> out = new LinkedHashMap<>();
    for (var e : v.properties()) {
      out.put(e.getKey(), decimal(v, e.getKey(), what + "'s " + name));
    }
    return Collections.unmodifiableMap(out);
  }

  /**
   * An object member whose values are integers (counts by name), in the server's order; an absent
   * member is an empty map.
   */
  static Map<String, Long> integers(JsonNode o, String name, String what) {
    JsonNode v = o.path(name);
    if (v.isMissingNode() || v.isNull()) {
      return Map.of();
    }
    if (!v.isObject()) {
      throw missing(o, name, "an object of integers", what);
    }
    Map<String, Long> out = new LinkedHashMap<>();
    for (var e : v.properties()) {
      out.put(e.getKey(), integer(v, e.getKey(), what + "'s " + name));
    }
    return Collections.unmodifiableMap(out);
  }

  /** The strings of an array member; an absent member is an empty list. */
  static List<String> texts(JsonNode o, String name, String what) {
    JsonNode v = o.path(name);
    if (v.isMissingNode() || v.isNull()) {
      return List.of();
    }
    if (!v.isArray()) {
      throw missing(o, name, "an array of strings", what);
    }
    List<String> out = new ArrayList<>();
    for (JsonNode e : v) {
      if (!e.isTextual()) {
        throw missing(o, name, "an array of strings", what);
      }
      out.add(e.asText());
    }
    return List.copyOf(out);
  }

  /** The objects of an array member; an absent member is an empty list. */
  static List<ObjectNode> objects(JsonNode o, String name, String what) {
    JsonNode v = o.path(name);
    if (v.isMissingNode() || v.isNull()) {
      return List.of();
    }
    List<ObjectNode> out = new ArrayList<>();
    if (v.isArray()) {
      for (JsonNode e : v) {
        if (e instanceof ObjectNode object) {
          out.add(object);
          continue;
        }
        throw missing(o, name, "an array of objects", what);
      }
      return out;
    }
    throw missing(o, name, "an array of objects", what);
  }

  /** The objects of an array member that must be there, even if empty. */
  static List<ObjectNode> requiredObjects(JsonNode o, String name, String what) {
    if (!o.path(name).isArray()) {
      throw missing(o, name, "an array of objects", what);
    }
    return objects(o, name, what);
  }

  private static IllegalArgumentException missing(
      JsonNode o, String name, String expected, String what) {
    JsonNode v = o.path(name);
    String found = v.isMissingNode() ? "it is missing" : "it is " + shown(v);
    return new IllegalArgumentException(
        what
            + " needs member '"
            + name
            + "' as "
            + expected
            + ", but "
            + found
            + " (in "
            + shown(o)
            + "); is this the answer of the route this type reads?");
  }

  private static String shown(JsonNode node) {
    return AsaApiException.abbreviate(Json.write(node));
  }
}
