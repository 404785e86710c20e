package dev.asa.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The I-JSON rule for numbers (RFC 7493 section 2.2), made exact: a number is accepted only if the
 * value written is the value {@link Jcs} hashes.
 *
 * <p>JCS writes every number as the IEEE-754 double nearest to it. The parser keeps the decimal as
 * written ({@link java.math.BigDecimal}), and the server acts on that. Were the two allowed to
 * differ, {@code 75.000000000000001} would be signed as 75 (the digest) and paid as
 * 75.000000000000001 (the stored value): the parties would not have signed what the server
 * enforces. So the written decimal must equal, as a number, the double JCS prints for it: {@code
 * 0.1}, {@code 1e2}, {@code 75.50} pass; {@code 75.000000000000001}, {@code 9007199254740993} (2^53
 * + 1) and {@code 1e309} do not. Amounts, which need more than a double holds, travel as strings
 * and are not affected.
 */
public final class ExactNumbers {
  private ExactNumbers() {}

  /**
   * JSON pointers (RFC 6901) to every number in {@code root} whose value is not the one JCS would
   * hash, in document order; empty when all are exact.
   */
  public static List<String> inexact(JsonNode root) {
    List<String> found = new ArrayList<>();
    // Depth-first, children in document order; the parser already bounds the depth.
    ArrayDeque<Map.Entry<String, JsonNode>> todo = new ArrayDeque<>();
    todo.push(Map.entry("", root));
    while (!todo.isEmpty()) {
      Map.Entry<String, JsonNode> e = todo.pop();
      String at = e.getKey();
      JsonNode n = e.getValue();
      if (n.isNumber()) {
        if (!isExact(n)) {
          found.add(at);
        }
      } else if (n.isObject()) {
        List<Map.Entry<String, JsonNode>> children = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
          Map.Entry<String, JsonNode> m = it.next();
          children.add(Map.entry(at + "/" + escape(m.getKey()), m.getValue()));
        }
        pushReversed(todo, children);
      } else if (n.isArray()) {
        List<Map.Entry<String, JsonNode>> children = new ArrayList<>();
        for (int i = 0; i < n.size(); i++) {
          children.add(Map.entry(at + "/" + i, n.get(i)));
        }
        pushReversed(todo, children);
      }
    }
    return found;
  }

  /** Whether a number node's value is exactly the value of its JCS form. */
  public static boolean isExact(JsonNode number) {
    if (!number.isNumber()) {
      throw new IllegalArgumentException("not a number node: " + number.getNodeType());
    }
    if (number.isInt() || number.isShort()) {
      return true; // every int is a double exactly
    }
    if (number.isDouble() || number.isFloat()) {
      return Double.isFinite(number.doubleValue()); // already a binary value: JCS prints it exactly
    }
    return isExact(number.decimalValue());
  }

  /** Whether {@code written} equals, as a number, the double nearest to it as JCS prints it. */
  public static boolean isExact(BigDecimal written) {
    double nearest = Double.parseDouble(written.toString()); // correctly rounded, as Jcs does
    if (!Double.isFinite(nearest)) {
      return false; // beyond the largest double: JCS has no form for it at all
    }
    // Also refuses what underflows: 1e-400 is hashed as 0.
    return new BigDecimal(Jcs.numberToString(nearest)).compareTo(written) == 0;
  }

  private static void pushReversed(
      ArrayDeque<Map.Entry<String, JsonNode>> todo, List<Map.Entry<String, JsonNode>> children) {
    for (int i = children.size() - 1; i >= 0; i--) {
      todo.push(children.get(i));
    }
  }

  /** RFC 6901: '~' becomes "~0" and '/' becomes "~1". */
  private static String escape(String name) {
    return name.replace("~", "~0").replace("/", "~1");
  }
}
