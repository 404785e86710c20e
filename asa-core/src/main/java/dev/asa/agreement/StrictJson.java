package dev.asa.agreement;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The one strict reader of request bodies and other JSON the server is sent: typed getters for the
 * members of an object, each naming the member at fault by its RFC 6901 pointer and saying what was
 * expected. Nested objects are read with the pointer of the object ({@link #child}).
 *
 * <p>Two ways to report, chosen when the reader is made:
 *
 * <ul>
 *   <li>{@link #failFast()}: the first problem throws {@link InvalidDocumentException} at once, so
 *       a getter either returns a good value or does not return. For bodies read member by member,
 *       where later checks need the earlier values.
 *   <li>{@link #StrictJson() new StrictJson()}: every problem is collected and a getter returns
 *       null after recording one; {@link #throwIfAny()} throws them all together, so that the
 *       sender fixes the whole document in one round (sealed criteria, x402 payloads).
 * </ul>
 *
 * <p>The messages follow one pattern: "is missing: expected ...", "must be ..., found ...",
 * "unknown member 'x'; expected only ...".
 */
public final class StrictJson {

  private final List<Violation> violations = new ArrayList<>();
  private final boolean failFast;

  private static final StrictJson FAIL_FAST = new StrictJson(true);

  /** A reader that collects every problem until {@link #throwIfAny}. */
  public StrictJson() {
    this(false);
  }

  private StrictJson(boolean failFast) {
    this.failFast = failFast;
  }

  /** The reader that throws at the first problem; it keeps no state, so one is shared. */
  public static StrictJson failFast() {
    return FAIL_FAST;
  }

  /** Records a problem (or throws it, failing fast). */
  public void add(String pointer, String message) {
    if (failFast) {
      throw new InvalidDocumentException(pointer, message);
    }
    violations.add(new Violation(pointer, message));
  }

  public boolean ok() {
    return violations.isEmpty();
  }

  /**
   * How many problems were recorded; compare before and after reading a part to see if it was good.
   */
  public int count() {
    return violations.size();
  }

  /** Throws every problem recorded so far, if there is any. */
  public void throwIfAny() {
    if (!violations.isEmpty()) {
      throw new InvalidDocumentException(violations);
    }
  }

  /** The pointer of {@code member} in the object at {@code pointer}, escaped as RFC 6901 asks. */
  public static String child(String pointer, String member) {
    return pointer + "/" + member.replace("~", "~0").replace("/", "~1");
  }

  public static String child(String pointer, int index) {
    return pointer + "/" + index;
  }

  /**
   * {@code node} as an object, or null after a problem at {@code pointer}: "{@code what} must be an
   * object, found an array".
   */
  public ObjectNode object(JsonNode node, String pointer, String what) {
    if (node instanceof ObjectNode o) {
      return o;
    }
    add(pointer, what + " must be an object, found " + kind(node));
    return null;
  }

  /** Records a problem for each member not in {@code allowed}. */
  public void allowOnly(JsonNode object, String pointer, Collection<String> allowed) {
    for (var member : object.properties()) {
      String name = member.getKey();
      if (!allowed.contains(name)) {
        add(
            child(pointer, name),
            "unknown member '"
                + name
                + "'; expected only "
                + String.join(", ", allowed.stream().sorted().toList()));
      }
    }
  }

  public void allowOnly(JsonNode object, String pointer, String... allowed) {
    allowOnly(object, pointer, Arrays.asList(allowed));
  }

  /**
   * A required string, any string; {@code expected} says what it holds ("the dimension's name").
   */
  public String text(JsonNode object, String pointer, String member, String expected) {
    return text(object, pointer, member, null, expected);
  }

  /**
   * A required string matching {@code pattern} (any string when null). A string that does not match
   * is refused with "must be {@code expected}", so {@code expected} describes the form ("the
   * recipient address: 0x followed by 40 hex digits").
   */
  public String text(
      JsonNode object, String pointer, String member, Pattern pattern, String expected) {
    JsonNode v = object.get(member);
    String p = child(pointer, member);
    if (v == null || v.isNull()) {
      add(p, "is missing: expected " + expected);
      return null;
    }
    if (!v.isTextual()) {
      add(p, "must be " + expected + ", found " + kind(v));
      return null;
    }
    if (pattern != null && !pattern.matcher(v.textValue()).matches()) {
      add(p, "must be " + expected);
      return null;
    }
    return v.textValue();
  }

  /** An optional string, any string; null when absent or JSON null. */
  public String optionalText(JsonNode object, String pointer, String member) {
    JsonNode v = object.get(member);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isTextual()) {
      add(child(pointer, member), "must be a string, found " + kind(v));
      return null;
    }
    return v.textValue();
  }

  /** A required string of 1 to {@code max} characters that is not only spaces. */
  public String text(JsonNode object, String pointer, String member, int max) {
    JsonNode v = object.get(member);
    if (v == null || v.isNull()) {
      add(child(pointer, member), "is missing: expected a string of 1 to " + max + " characters");
      return null;
    }
    return bounded(v, child(pointer, member), max);
  }

  /**
   * An optional string as {@link #text(JsonNode, String, String, int)}; null when absent (or JSON
   * null).
   */
  public String optionalText(JsonNode object, String pointer, String member, int max) {
    JsonNode v = object.get(member);
    if (v == null || v.isNull()) {
      return null;
    }
    return bounded(v, child(pointer, member), max);
  }

  private String bounded(JsonNode v, String p, int max) {
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

  /** A required whole number from {@code min} to {@code max} ({@code 3.0} is whole). */
  public Integer integer(JsonNode object, String pointer, String member, int min, int max) {
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
    BigDecimal d = v.decimalValue();
    if (d.compareTo(BigDecimal.valueOf(min)) < 0 || d.compareTo(BigDecimal.valueOf(max)) > 0) {
      add(p, "must be from " + min + " to " + max + ", found " + v);
      return null;
    }
    return d.intValueExact();
  }

  private static boolean isWhole(JsonNode v) {
    BigDecimal d = v.decimalValue();
    return d.signum() == 0 || d.stripTrailingZeros().scale() <= 0;
  }

  /** An optional boolean; {@code otherwise} when absent. */
  public Boolean bool(JsonNode object, String pointer, String member, boolean otherwise) {
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

  /** What a node is, for messages: "an array", "a string", "null", "nothing" (absent). */
  public static String kind(JsonNode n) {
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
