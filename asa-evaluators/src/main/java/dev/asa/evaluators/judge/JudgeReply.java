package dev.asa.evaluators.judge;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.agreement.Dimension;
import dev.asa.agreement.MetricType;
import dev.asa.json.Json;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The judge's answer, checked strictly: either every requested dimension with a score in range,
 * non-empty evidence and a confidence, or the list of what is wrong (for the corrective second
 * attempt). A partly usable answer is not used in part: a missing score is never filled in.
 *
 * @param scores by dimension name, in the order requested
 * @param claims the spot-checked claims, in the judge's order (empty when none were asked for)
 */
record JudgeReply(Map<String, Score> scores, List<Claim> claims) {

  /** One dimension's score as the judge gave it; confidence already clamped to 0..1. */
  record Score(BigDecimal score, String evidence, BigDecimal confidence) {}

  /** One spot-checked claim. */
  record Claim(String claim, Verdict verdict, String reason) {}

  enum Verdict {
    SUPPORTED,
    UNSUPPORTED,
    UNVERIFIABLE
  }

  /** The outcome of parsing: a reply, or what was wrong with the text. */
  sealed interface Parsed permits Ok, Problems {}

  record Ok(JudgeReply reply) implements Parsed {}

  record Problems(List<String> problems) implements Parsed {}

  private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

  /** A reply that opens like a refusal and contains no JSON object at all. */
  private static final Pattern REFUSAL =
      Pattern.compile(
          "^(i'?m sorry|i am sorry|sorry|i can'?t|i cannot|i can not|i won'?t|i will not|i'?m unable|i am unable"
              + "|i'?m not able|i am not able|i must decline|i'?m not comfortable)\\b.*",
          Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

  static boolean looksLikeRefusal(String text) {
    String t = text.strip().replace('\u2019', '\'');
    return t.indexOf('{') < 0 && REFUSAL.matcher(t).matches();
  }

  /**
   * @param text the judge's answer: a JSON object, optionally inside a ```json fence
   * @param requested the dimensions asked for
   * @param spotChecks the most claims asked for; 0 when none
   */
  static Parsed parse(String text, List<Dimension> requested, int spotChecks) {
    if (text == null || text.isBlank()) {
      return new Problems(List.of("the answer was empty"));
    }
    JsonNode root;
    try {
      root = Json.parse(unfenced(text));
    } catch (JsonProcessingException e) {
      return new Problems(
          List.of("the answer is not a single valid JSON object (" + e.getOriginalMessage() + ")"));
    }
    if (!root.isObject()) {
      return new Problems(List.of("the answer is JSON but not an object"));
    }
    List<String> problems = new ArrayList<>();
    Map<String, Score> scores = scores(root.get("dimensions"), requested, problems);
    List<Claim> claims =
        spotChecks > 0 ? claims(root.get("claims"), spotChecks, problems) : List.of();
    return problems.isEmpty()
        ? new Ok(new JudgeReply(scores, claims))
        : new Problems(List.copyOf(problems));
  }

  /** The text inside a ```json ... ``` (or bare ```) fence, or the text itself. */
  static String unfenced(String text) {
    String t = text.strip();
    if (!t.startsWith("```")) {
      return t;
    }
    int firstNewline = t.indexOf('\n');
    if (firstNewline < 0 || !t.endsWith("```") || t.length() < firstNewline + 4) {
      return t; // an unclosed fence is not JSON; the parser will say so
    }
    String info = t.substring(3, firstNewline).strip().toLowerCase(Locale.ROOT);
    if (!info.isEmpty() && !info.equals("json")) {
      return t;
    }
    return t.substring(firstNewline + 1, t.length() - 3).strip();
  }

  private static Map<String, Score> scores(
      JsonNode dims, List<Dimension> requested, List<String> problems) {
    if (dims == null || !dims.isArray()) {
      problems.add("\"dimensions\" must be an array");
      return Map.of();
    }
    Map<String, JsonNode> byName = new HashMap<>();
    Set<String> duplicates = new HashSet<>();
    for (JsonNode entry : dims) {
      JsonNode name = entry.get("name");
      if (name == null || !name.isTextual()) {
        problems.add("every entry of \"dimensions\" needs a \"name\" string");
        continue;
      }
      if (byName.putIfAbsent(name.asText(), entry) != null) {
        duplicates.add(name.asText());
      }
    }
    Map<String, Score> scores = new LinkedHashMap<>();
    for (Dimension dimension : requested) {
      String name = dimension.name();
      if (duplicates.contains(name)) {
        problems.add("dimension \"" + name + "\" appears more than once");
        continue;
      }
      JsonNode entry = byName.get(name);
      if (entry == null) {
        problems.add("dimension \"" + name + "\" is missing");
        continue;
      }
      Score score = score(name, dimension.metric(), entry, problems);
      if (score != null) {
        scores.put(name, score);
      }
    }
    return scores;
  }

  private static Score score(
      String name, MetricType metric, JsonNode entry, List<String> problems) {
    int before = problems.size();
    JsonNode score = entry.get("score");
    BigDecimal value = null;
    if (score == null || !score.isNumber()) {
      problems.add("dimension \"" + name + "\" needs a numeric \"score\"");
    } else {
      value = score.decimalValue();
      if (value.compareTo(BigDecimal.ZERO) < 0 || value.compareTo(HUNDRED) > 0) {
        problems.add(
            "dimension \"" + name + "\" has score " + value.toPlainString() + ", outside 0..100");
      } else if (metric == MetricType.BOOLEAN
          && value.signum() != 0
          && value.compareTo(HUNDRED) != 0) {
        problems.add(
            "dimension \""
                + name
                + "\" is yes/no, so its score must be 0 or 100, not "
                + value.toPlainString());
      }
    }
    JsonNode evidence = entry.get("evidence");
    if (evidence == null || !evidence.isTextual() || evidence.asText().isBlank()) {
      problems.add("dimension \"" + name + "\" needs a non-empty \"evidence\" string");
    }
    JsonNode confidence = entry.get("confidence");
    if (confidence == null || !confidence.isNumber()) {
      problems.add("dimension \"" + name + "\" needs a numeric \"confidence\" between 0 and 1");
    }
    if (problems.size() > before) {
      return null;
    }
    // Clamped rather than refused: "confidence 1.2" is an overstatement, not an unusable answer.
    BigDecimal c = confidence.decimalValue().max(BigDecimal.ZERO).min(BigDecimal.ONE);
    return new Score(value.stripTrailingZeros(), evidence.asText().strip(), c);
  }

  private static List<Claim> claims(JsonNode claims, int spotChecks, List<String> problems) {
    if (claims == null || !claims.isArray()) {
      problems.add(
          "\"claims\" must be an array (empty if the deliverable makes no factual claims)");
      return List.of();
    }
    if (claims.size() > spotChecks) {
      problems.add("\"claims\" has " + claims.size() + " entries; check at most " + spotChecks);
      return List.of();
    }
    List<Claim> out = new ArrayList<>();
    for (JsonNode c : claims) {
      JsonNode claim = c.get("claim");
      JsonNode verdict = c.get("verdict");
      JsonNode reason = c.get("reason");
      Verdict v = verdict != null && verdict.isTextual() ? verdict(verdict.asText()) : null;
      if (claim == null || !claim.isTextual() || claim.asText().isBlank() || v == null) {
        problems.add(
            "every claim needs a non-empty \"claim\" and a \"verdict\" of supported, unsupported or unverifiable");
        return List.of();
      }
      out.add(
          new Claim(
              claim.asText().strip(),
              v,
              reason != null && reason.isTextual() ? reason.asText().strip() : ""));
    }
    return out;
  }

  private static Verdict verdict(String text) {
    return switch (text.strip().toLowerCase(Locale.ROOT)) {
      case "supported" -> Verdict.SUPPORTED;
      case "unsupported" -> Verdict.UNSUPPORTED;
      case "unverifiable" -> Verdict.UNVERIFIABLE;
      default -> null;
    };
  }
}
