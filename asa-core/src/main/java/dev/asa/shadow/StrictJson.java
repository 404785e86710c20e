package dev.asa.shadow;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.agreement.InvalidDocumentException;
import dev.asa.agreement.Violation;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Strict reading of sealed-criteria documents, collecting every violation with the RFC 6901
 * pointer of the member at fault, so that a sealer fixes the whole request in one round.
 *
 * <p>Unknown members are refused here, unlike in agreements: a criterion is committed to and can
 * never be corrected after sealing, so a misspelt {@code case_sensitve} silently ignored would seal
 * a different check from the one the sealer meant.
 */
final class StrictJson {

  private final List<Violation> violations = new ArrayList<>();

  void add(String pointer, String message) {
    violations.add(new Violation(pointer, message));
  }

  boolean ok() {
    return violations.isEmpty();
  }

  int count() {
    return violations.size();
  }

  /** Throws every violation collected so far, if there is any. */
  void throwIfAny() {
    if (!violations.isEmpty()) {
      throw new InvalidDocumentException(violations);
    }
  }

  static String child(String pointer, String member) {
    return pointer + "/" + member.replace("~", "~0").replace("/", "~1");
  }

  static String child(String pointer, int index) {
    return pointer + "/" + index;
  }

  /** True when {@code node} is an object; records a violation otherwise. */
  boolean object(JsonNode node, String pointer, String what) {
    if (node == null || !node.isObject()) {
      add(pointer, what + " must be an object, found " + kind(node));
      return false;
    }
    return true;
  }

  /** Records a violation for each member not in {@code known}. */
  void onlyKnown(JsonNode object, String pointer, Set<String> known) {
    for (var member : object.properties()) {
      String name = member.getKey();
      if (!known.contains(name)) {
        add(child(pointer, name), "unknown member '" + name + "'; expected only " + String.join(", ", known.stream().sorted().toList()));
      }
    }
  }

  /** A required string of 1 to {@code max} characters that is not only spaces; null when it is not. */
  String text(JsonNode object, String pointer, String member, int max) {
    String p = child(pointer, member);
    JsonNode v = object.get(member);
    if (v == null || v.isNull()) {
      add(p, "is missing: expected a string of 1 to " + max + " characters");
      return null;
    }
    return textValue(v, p, max);
  }

  /** An optional string as {@link #text}; null when absent (or JSON null). */
  String optionalText(JsonNode object, String pointer, String member, int max) {
    JsonNode v = object.get(member);
    if (v == null || v.isNull()) {
      return null;
    }
    return textValue(v, child(pointer, member), max);
  }

  private String textValue(JsonNode v, String p, int max) {
    if (!v.isTextual()) {
      add(p, "must be a string, found " + kind(v));
      return null;
    }
    String s = v.textValue();
    if (s.isBlank()) {
      add(p, "must not be empty or blank");
      return null;
    }
    if (s.length() > max) {
      add(p, "is " + s.length() + " characters long; at most " + max + " are allowed");
      return null;
    }
    return s;
  }

  /** A required whole number from {@code min} to {@code max}; null when it is not one. */
  Integer integer(JsonNode object, String pointer, String member, int min, int max) {
    String p = child(pointer, member);
    JsonNode v = object.get(member);
    if (v == null || v.isNull()) {
      add(p, "is missing: expected a whole number from " + min + " to " + max);
      return null;
    }
    if (!v.isIntegralNumber() && !(v.isNumber() && isWhole(v))) {
      add(p, "must be a whole number from " + min + " to " + max + ", found " + kind(v) + " " + v);
      return null;
    }
    java.math.BigDecimal d = v.decimalValue();
    if (d.compareTo(java.math.BigDecimal.valueOf(min)) < 0 || d.compareTo(java.math.BigDecimal.valueOf(max)) > 0) {
      add(p, "must be from " + min + " to " + max + ", found " + v);
      return null;
    }
    return d.intValueExact();
  }

  private static boolean isWhole(JsonNode v) {
    java.math.BigDecimal d = v.decimalValue();
    return d.signum() == 0 || d.stripTrailingZeros().scale() <= 0;
  }

  /** An optional boolean; {@code otherwise} when absent. */
  Boolean bool(JsonNode object, String pointer, String member, boolean otherwise) {
    JsonNode v = object.get(member);
    if (v == null || v.isNull()) {
      return otherwise;
    }
    if (!v.isBoolean()) {
      add(child(pointer, member), "must be true or false, found " + kind(v));
      return null;
    }
    return v.booleanValue();
  }

  private static final Pattern ID = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

  static boolean isId(String s) {
    return s != null && ID.matcher(s).matches();
  }

  static String kind(JsonNode n) {
    if (n == null || n.isMissingNode()) {
      return "nothing";
    }
    return switch (n.getNodeType()) {
      case ARRAY -> "an array";
      case OBJECT -> "an object";
      case STRING -> "a string";
      case NUMBER -> "a number";
      case BOOLEAN -> "a boolean";
      case NULL -> "null";
      default -> n.getNodeType().name().toLowerCase(Locale.ROOT);
    };
  }
}
