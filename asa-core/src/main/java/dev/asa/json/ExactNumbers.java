package dev.asa.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

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
    JsonTree.walk(
        root,
        (at, name, n) -> {
          if (n.isNumber() && !isExact(n)) {
            found.add(at);
          }
        });
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
}
