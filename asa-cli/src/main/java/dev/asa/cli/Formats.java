package dev.asa.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.client.VerificationView.Target;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
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
    String symbol =
        switch (op) {
          case "gte" -> ">=";
          case "lte" -> "<=";
          case "gt" -> ">";
          case "lt" -> "<";
          case "eq" -> "=";
          case "neq" -> "!=";
          default -> op;
        };
    return symbol + " " + target(value);
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

  /** The items joined with commas, or {@code (none)}. */
  static String list(List<String> items) {
    return items.isEmpty() ? "(none)" : String.join(", ", items);
  }

  /** The texts of a JSON array joined with commas. */
  static String list(JsonNode array) {
    List<String> items = new ArrayList<>();
    array.forEach(n -> items.add(n.asText()));
    return items.isEmpty() ? "(none)" : String.join(", ", items);
  }
}
