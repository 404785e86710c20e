package dev.asa.facts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.time.Instant;

/**
 * Reading and writing the members of a stored fact; facts are written by this server only, so a bad
 * one is a bug.
 */
final class FactJson {
  private FactJson() {}

  static String text(JsonNode o, String name) {
    JsonNode v = o.path(name);
    return v.isTextual() ? v.asText() : null;
  }

  static Instant instant(JsonNode o, String name) {
    String t = text(o, name);
    return t == null ? null : Instant.parse(t);
  }

  static BigDecimal number(JsonNode o, String name) {
    JsonNode v = o.path(name);
    return v.isNumber() ? v.decimalValue() : null;
  }

  static JsonNode node(JsonNode o, String name) {
    JsonNode v = o.get(name);
    return v == null || v.isNull() ? null : v.deepCopy();
  }

  static void put(ObjectNode o, String name, String value) {
    if (value != null) o.put(name, value);
  }

  static void put(ObjectNode o, String name, Instant value) {
    if (value != null) o.put(name, value.toString());
  }

  static void put(ObjectNode o, String name, BigDecimal value) {
    if (value != null) o.put(name, value);
  }

  static void put(ObjectNode o, String name, JsonNode value) {
    if (value != null) o.set(name, value.deepCopy());
  }

  static ObjectNode copy(ObjectNode o) {
    return o == null ? null : o.deepCopy();
  }
}
