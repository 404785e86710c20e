package dev.asa.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.client.VerificationView.Target;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Small renderings shared by the summaries: SLOs, digests, numbers, lists. */
final class Formats {
  private Formats() {}

  /**
   * {@code {"operator":"gte","value":80}} as {@code >= 80}; a range as {@code between 10 and 20}.
   */
  static String slo(JsonNode slo) {
    if (slo == null || slo.isMissingNode() || slo.isNull()) {
      return "";
    }
    JsonNode value = slo.path("value");
    String op = slo.path("operator").asText();
    if (op.equals("between") && value.isArray() && value.size() == 2) {
      return "between " + value.get(0).asText() + " and " + value.get(1).asText();
    }
    return symbol(op) + " " + target(value);
  }

  /** A typed SLO as {@link #slo(JsonNode)} writes it: {@code >= 80}, {@code between 10 and 20}. */
  static String slo(String operator, Target target) {
    if (operator.equals("between") && target instanceof Target.Range range) {
      // toString, as the JSON text of the ends reads (asText), whatever their notation
      return "between " + range.low() + " and " + range.high();
    }
    return symbol(operator) + " " + target(Optional.of(target));
  }

  private static String symbol(String operator) {
    return switch (operator) {
      case "gte" -> ">=";
      case "lte" -> "<=";
      case "gt" -> ">";
      case "lt" -> "<";
      case "eq" -> "=";
      case "neq" -> "!=";
      default -> operator;
    };
  }

  /** An SLO target as written in a result: {@code 85}, {@code true}, {@code 10..20}. */
  static String target(JsonNode value) {
    if (value == null || value.isMissingNode() || value.isNull()) {
      return "";
    }
    if (value.isArray() && value.size() == 2) {
      return value.get(0).asText() + ".." + value.get(1).asText();
    }
    return value.isNumber()
        ? value.decimalValue().stripTrailingZeros().toPlainString()
        : value.asText();
  }

  /** A typed SLO target as {@link #target(JsonNode)} writes it; empty when there is none. */
  static String target(Optional<Target> target) {
    return target
        .map(t ->
            switch (t) {
              case Target.Threshold n -> number(n.value());
              case Target.Flag f -> String.valueOf(f.value());
              case Target.Range r -> r.low().toPlainString() + ".." + r.high().toPlainString();
              case Target.Text text -> text.value();
            })
        .orElse("");
  }

  /** A number without trailing zeros ({@code 86.100} as {@code 86.1}), or a dash when absent. */
  static String number(JsonNode value) {
    if (value == null || !value.isNumber()) {
      return value == null || value.isMissingNode() || value.isNull() ? "-" : value.asText();
    }
    return value.decimalValue().stripTrailingZeros().toPlainString();
  }

  /** A number as {@link #number(JsonNode)} writes it, from a typed view. */
  static String number(BigDecimal value) {
    return value.stripTrailingZeros().toPlainString();
  }

  /** {@link #number(BigDecimal)}, or a dash when absent. */
  static String number(Optional<BigDecimal> value) {
    return value.map(Formats::number).orElse("-");
  }

  /**
   * The first 12 hex digits of a {@code sha256:...} digest: enough to tell events apart on screen.
   */
  static String shortHash(String digest) {
    if (digest == null) {
      return "";
    }
    String hex = digest.startsWith("sha256:") ? digest.substring("sha256:".length()) : digest;
    return hex.length() <= 12 ? hex : hex.substring(0, 12);
  }

  static String yesNo(boolean value) {
    return value ? "yes" : "no";
  }

  /** Cuts long text for a table cell; the full text is always available with {@code --json}. */
  static String cut(String text, int max) {
    if (text == null) {
      return "";
    }
    String oneLine = text.replaceAll("\\s+", " ").strip();
    return oneLine.length() <= max ? oneLine : oneLine.substring(0, max - 3) + "...";
  }

  /**
   * Text a party chose (a display name, an identity) made inert for a terminal and cut for a table
   * cell: every control or format character (escape sequences, carriage returns, bidirectional
   * overrides) becomes {@code ?}, and text longer than {@code max} characters keeps its first ones
   * and ends in {@code ...}. The full text is always available with {@code --json}.
   */
  static String inert(String text, int max) {
    if (text == null) {
      return "";
    }
    StringBuilder shown = new StringBuilder();
    int at = 0;
    int count = 0;
    // Only the first max + 1 characters are read, however long the text.
    while (at < text.length() && count <= max) {
      int c = text.codePointAt(at);
      shown.appendCodePoint(isUnsafe(c) ? '?' : c);
      at += Character.charCount(c);
      count++;
    }
    if (count <= max) {
      return shown.toString();
    }
    // Cut at a character, never inside a surrogate pair.
    return shown.substring(0, shown.offsetByCodePoints(0, max - 3)) + "...";
  }

  /**
   * Whether a character can change what a terminal shows around it: a control character (an escape
   * starts a sequence, a carriage return rewrites the line), a format character (a bidirectional
   * override reorders it), a line or paragraph separator, or half a surrogate pair.
   */
  static boolean isUnsafe(int codePoint) {
    return switch (Character.getType(codePoint)) {
      case Character.CONTROL,
          Character.FORMAT,
          Character.SURROGATE,
          Character.LINE_SEPARATOR,
          Character.PARAGRAPH_SEPARATOR ->
          true;
      default -> false;
    };
  }

  /** Identities longer than this are shortened in a table cell. */
  private static final int SHORT_ID = 24;

  /**
   * A long identity made short enough for a row, as the console shortens it: a did:key keeps its
   * method and the first 4 characters of its key ({@code did:key:z6Mk...a1b2}), anything else its
   * first 8; both keep the last 4. Shown inert ({@link #inert}).
   */
  static String shortId(String identity) {
    if (identity == null || identity.codePointCount(0, identity.length()) <= SHORT_ID) {
      return inert(identity, SHORT_ID);
    }
    int head = identity.startsWith("did:key:") ? "did:key:".length() + 4 : 8;
    int headEnd = identity.offsetByCodePoints(0, head);
    int tailStart = identity.offsetByCodePoints(identity.length(), -4);
    return inert(identity.substring(0, headEnd), head)
        + "..."
        + inert(identity.substring(tailStart), 4);
  }

  /**
   * Amounts by currency code as {@code 7.50 EUR, 30.00 USD}, in the map's order; empty for none.
   */
  static String amounts(Map<String, BigDecimal> amounts) {
    List<String> parts = new ArrayList<>();
    amounts.forEach((currency, amount) -> parts.add(amount.toPlainString() + " " + currency));
    return String.join(", ", parts);
  }

  /** The items joined with commas, or {@code (none)}. */
  static String list(List<String> items) {
    return items.isEmpty() ? "(none)" : String.join(", ", items);
  }
}
