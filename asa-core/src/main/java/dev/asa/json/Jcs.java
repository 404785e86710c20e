package dev.asa.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The RFC 8785 JSON Canonicalization Scheme (JCS).
 *
 * <p>Everything this project hashes or signs is hashed or signed over this form, so two parties who
 * hold the same JSON value (whatever whitespace, member order or number spelling they received it
 * in) compute the same bytes. The rules are those of ECMAScript's {@code JSON.stringify}: members
 * sorted by the UTF-16 code units of their names, minimal string escaping, and numbers written as
 * ECMAScript writes an IEEE-754 double.
 *
 * <p>Consequences worth knowing before you put a value in a signed document:
 *
 * <ul>
 *   <li>Every number becomes a double, so integers beyond 2^53 and long decimals lose precision.
 *       That is why amounts travel as decimal <em>strings</em> in this project.
 *   <li>Values that have no canonical form are refused with {@link IllegalArgumentException} rather
 *       than silently altered: NaN, infinities (including decimals too large for a double), strings
 *       with unpaired UTF-16 surrogates, and non-JSON nodes such as binary.
 * </ul>
 */
public final class Jcs {

  private Jcs() {}

  /** The canonical form as UTF-8 bytes: the input to every digest and signature. */
  public static byte[] canonicalize(JsonNode node) {
    return canonicalString(node).getBytes(StandardCharsets.UTF_8);
  }

  /** The canonical form as text; {@link #canonicalize} is its UTF-8 encoding. */
  public static String canonicalString(JsonNode node) {
    if (node == null) {
      throw new IllegalArgumentException(
          "cannot canonicalize a null JsonNode; use NullNode for JSON null");
    }
    StringBuilder out = new StringBuilder();
    write(node, out);
    return out.toString();
  }

  private static void write(JsonNode node, StringBuilder out) {
    switch (node.getNodeType()) {
      case OBJECT -> writeObject(node, out);
      case ARRAY -> writeArray(node, out);
      case STRING -> writeString(node.textValue(), out);
      case NUMBER -> out.append(numberToString(toDouble(node)));
      case BOOLEAN -> out.append(node.booleanValue() ? "true" : "false");
      case NULL -> out.append("null");
      default ->
          throw new IllegalArgumentException(
              "JSON canonicalization supports only plain JSON values, not a "
                  + node.getNodeType()
                  + " node; convert it to a string or number first");
    }
  }

  private static void writeObject(JsonNode object, StringBuilder out) {
    List<Map.Entry<String, JsonNode>> members = new ArrayList<>(object.properties());
    // String.compareTo compares char by char, i.e. by UTF-16 code unit, exactly as RFC 8785 asks.
    members.sort(Map.Entry.comparingByKey());
    out.append('{');
    for (int i = 0; i < members.size(); i++) {
      if (i > 0) {
        out.append(',');
      }
      writeString(members.get(i).getKey(), out);
      out.append(':');
      write(members.get(i).getValue(), out);
    }
    out.append('}');
  }

  private static void writeArray(JsonNode array, StringBuilder out) {
    out.append('[');
    boolean first = true;
    for (JsonNode element : array) {
      if (!first) {
        out.append(',');
      }
      first = false;
      write(element, out);
    }
    out.append(']');
  }

  /** Escapes as {@code JSON.stringify} does; refuses lone surrogates, which UTF-8 cannot carry. */
  private static void writeString(String s, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append("\\u00")
                .append(Character.forDigit(c >> 4, 16))
                .append(Character.forDigit(c & 0xf, 16));
          } else if (Character.isHighSurrogate(c)
              && i + 1 < s.length()
              && Character.isLowSurrogate(s.charAt(i + 1))) {
            out.append(c).append(s.charAt(++i));
          } else if (Character.isSurrogate(c)) {
            throw new IllegalArgumentException(
                "string contains an unpaired UTF-16 surrogate (U+"
                    + Integer.toHexString(c).toUpperCase(java.util.Locale.ROOT)
                    + ") at index "
                    + i
                    + "; it has no UTF-8 encoding, so the value cannot be canonicalized");
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  /**
   * The IEEE-754 double a JSON number stands for. Decimal and big-integer nodes go through their
   * decimal text, which {@link Double#parseDouble} rounds correctly to the nearest double.
   */
  private static double toDouble(JsonNode number) {
    if (number.isBigDecimal()) {
      BigDecimal exact = number.decimalValue();
      return Double.parseDouble(exact.toString());
    }
    if (number.isBigInteger()) {
      return Double.parseDouble(number.bigIntegerValue().toString());
    }
    // int, long, float and double nodes: widening or round-to-nearest conversion, both exact rules.
    return number.doubleValue();
  }

  /**
   * ECMAScript {@code Number.prototype.toString} of a double (ECMA-262, Number::toString).
   *
   * <p>Java's {@link Double#toString} (JDK 19+) already finds the shortest decimal that rounds back
   * to the double; this method moves its digits into the ECMAScript layout. The one disagreement
   * between the two is fixed up in {@link #shortestDigits}.
   */
  static String numberToString(double value) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      throw new IllegalArgumentException(
          "JSON has no representation for "
              + value
              + " (is a decimal too large for a double?); "
              + "RFC 8785 refuses NaN and Infinity");
    }
    if (value == 0) {
      return "0"; // both +0 and -0
    }
    if (value < 0) {
      return "-" + numberToString(-value);
    }
    Decimal d = shortestDigits(value);
    String s = d.digits;
    int k = s.length();
    int n = d.pointPosition;
    StringBuilder out = new StringBuilder();
    if (k <= n && n <= 21) {
      out.append(s).append("0".repeat(n - k));
    } else if (0 < n && n <= 21) {
      out.append(s, 0, n).append('.').append(s, n, k);
    } else if (-6 < n && n <= 0) {
      out.append("0.").append("0".repeat(-n)).append(s);
    } else {
      out.append(s.charAt(0));
      if (k > 1) {
        out.append('.').append(s, 1, k);
      }
      int exponent = n - 1;
      out.append('e').append(exponent < 0 ? '-' : '+').append(Math.abs(exponent));
    }
    return out.toString();
  }

  /**
   * A positive decimal {@code 0.digits × 10^pointPosition}: digits without leading or trailing
   * zeros, in ECMA-262 terms {@code s} (as text), {@code k = digits.length()} and {@code n}.
   */
  private record Decimal(String digits, int pointPosition) {}

  private static Decimal shortestDigits(double positive) {
    Decimal java = parseJavaToString(Double.toString(positive));
    // Java renders at least two digits when one would do but two land closer (e.g. 4.9E-324 for
    // Double.MIN_VALUE); ECMAScript always takes the fewest digits ("5e-324").
    if (java.digits.length() == 2) {
      Decimal oneDigit = closestOneDigitDecimal(positive, java);
      if (oneDigit != null) {
        return oneDigit;
      }
    }
    return java;
  }

  /** Reads the digits and decimal point out of Java's "123.45" or "1.2345E-7" forms. */
  private static Decimal parseJavaToString(String text) {
    int e = text.indexOf('E');
    String mantissa = e < 0 ? text : text.substring(0, e);
    int exponent = e < 0 ? 0 : Integer.parseInt(text.substring(e + 1));
    int dot = mantissa.indexOf('.');
    String digits = mantissa.substring(0, dot) + mantissa.substring(dot + 1);
    int point = dot + exponent;
    int lead = 0;
    while (lead < digits.length() - 1 && digits.charAt(lead) == '0') {
      lead++;
    }
    int end = digits.length();
    while (end > lead + 1 && digits.charAt(end - 1) == '0') {
      end--;
    }
    return new Decimal(digits.substring(lead, end), point - lead);
  }

  /**
   * Among the one-digit decimals next to a two-digit one, the one that rounds back to {@code value}
   * and lies closest to it, or null if neither rounds back.
   */
  private static Decimal closestOneDigitDecimal(double value, Decimal twoDigits) {
    int first = twoDigits.digits.charAt(0) - '0';
    int n = twoDigits.pointPosition;
    Decimal down = new Decimal(String.valueOf(first), n);
    Decimal up = first == 9 ? new Decimal("1", n + 1) : new Decimal(String.valueOf(first + 1), n);
    boolean downOk = roundsTo(down, value);
    boolean upOk = roundsTo(up, value);
    if (downOk && upOk) {
      BigDecimal exact = new BigDecimal(value);
      int cmp = exact.subtract(toBigDecimal(down)).compareTo(toBigDecimal(up).subtract(exact));
      return cmp <= 0 ? down : up;
    }
    return downOk ? down : upOk ? up : null;
  }

  private static boolean roundsTo(Decimal d, double value) {
    return Double.parseDouble(d.digits + "E" + (d.pointPosition - d.digits.length())) == value;
  }

  private static BigDecimal toBigDecimal(Decimal d) {
    return new BigDecimal(d.digits).scaleByPowerOfTen(d.pointPosition - d.digits.length());
  }
}
