package dev.asa.evaluators.offline;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.agreement.CompositeMethod;
import dev.asa.agreement.Dimension;
import dev.asa.agreement.MetricType;
import dev.asa.agreement.QualityCriteria;
import dev.asa.agreement.QualityGate;
import dev.asa.agreement.Slo;
import dev.asa.agreement.SloOperator;
import dev.asa.evaluators.Deliverable;
import dev.asa.evaluators.Evaluation;
import dev.asa.evaluators.EvaluationTask;
import dev.asa.evaluators.embedding.Model;
import dev.asa.json.Json;
import dev.asa.scoring.DimensionInput;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Runs the offline evaluator over the hand-labelled corpus ({@code src/test/resources/corpus}) and
 * checks that it ranks answers the way a reader would: for each request, the good answer above the
 * poor one (on topic, but thin, partial or repetitive) above the off-topic one, and empty answers
 * lowest of all. It prints the agreement, and a table of every score, so a change of calibration
 * shows what it did.
 *
 * <p>Each pair is scored on the section 5.4 default dimensions of its type, with relevance and
 * completeness added where the defaults lack them (code, data and translation have no relevance,
 * code none of either): the overall is the plain mean of the dimensions the evaluator scored.
 * Reviews use the text/analysis defaults.
 */
class OfflineCorpusTest {

  /**
   * An overall at or above this is a pass: the whitepaper's example composite threshold (section
   * 5.2).
   */
  static final double PASS_THRESHOLD = 75;

  private static final Map<String, List<String>> DEFAULTS =
      Map.of(
          "text/research", List.of("accuracy", "completeness", "relevance", "sources", "writing"),
          "text/analysis", List.of("accuracy", "methodology", "depth", "clarity", "actionability"),
          "code",
              List.of("correctness", "performance", "security", "maintainability", "documentation"),
          "data",
              List.of("accuracy", "completeness", "consistency", "format_compliance", "metadata"),
          "translation",
              List.of("accuracy", "fluency", "terminology", "cultural_fit", "completeness"),
          "general", List.of("accuracy", "completeness", "relevance", "clarity", "timeliness"));

  private static final EmbeddingEvaluator EVALUATOR = new EmbeddingEvaluator();

  record Item(
      String id,
      String group,
      String type,
      String label,
      String expected,
      String request,
      String content,
      String format) {}

  record Scored(Item item, Evaluation evaluation, double overall) {}

  private static final List<Scored> RESULTS = new ArrayList<>();

  @BeforeAll
  static void scoreCorpus() throws Exception {
    JsonNode index = Json.mapper().readTree(resource("index.json"));
    for (JsonNode i : index.path("items")) {
      JsonNode group = index.path("groups").path(i.path("group").asText());
      String type = group.path("type").asText();
      Item item =
          new Item(
              i.path("id").asText(),
              i.path("group").asText(),
              type,
              i.path("label").asText(),
              i.path("expected").asText(),
              group.path("request").asText(),
              resource(i.path("file").asText()),
              i.path("format").asText());
      String taskType = type.equals("review") ? "text/analysis" : type;
      EvaluationTask task =
          EvaluationTask.of(
              Deliverable.of(item.content(), item.format(), Instant.parse("2026-03-26T15:00:00Z")),
              item.request(),
              taskType,
              criteria(taskType));
      Evaluation e = EVALUATOR.evaluate(task);
      RESULTS.add(new Scored(item, e, overall(e)));
    }
    print();
  }

  static QualityCriteria criteria(String type) {
    Set<String> names = new LinkedHashSet<>(DEFAULTS.get(type));
    names.add("relevance");
    names.add("completeness");
    List<Dimension> dims =
        names.stream()
            .map(n ->
                new Dimension(
                    n,
                    new BigDecimal("0.1"),
                    MetricType.PERCENTAGE,
                    new Slo(SloOperator.GTE, new Slo.Target.Number(new BigDecimal("70"))),
                    n.equals("completeness") ? "verbosity" : null,
                    null,
                    null))
            .toList();
    return new QualityCriteria(
        dims,
        new BigDecimal("70"),
        CompositeMethod.WEIGHTED_AVERAGE,
        QualityCriteria.GuaranteeType.PROBABILISTIC,
        List.of(),
        QualityGate.Logic.ALL_MUST_PASS,
        null,
        List.of());
  }

  static double overall(Evaluation e) {
    return e.dimensions().values().stream()
        .filter(DimensionInput::isEvaluated)
        .mapToDouble(d -> d.score().doubleValue())
        .average()
        .orElseThrow();
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = OfflineCorpusTest.class.getResourceAsStream("/corpus/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  // ------------------------------------------------------------------ the checks

  /**
   * The orderings a reader expects within a group: good > poor > off-topic, and good > malformed.
   */
  static List<String[]> expectedOrderings() {
    List<String[]> pairs = new ArrayList<>();
    for (String group : groups()) {
      Scored good = find(group, "good");
      Scored poor = find(group, "poor");
      Scored off = find(group, "off_topic");
      pairs.add(new String[] {good.item().id(), poor.item().id()});
      pairs.add(new String[] {poor.item().id(), off.item().id()});
      pairs.add(new String[] {good.item().id(), off.item().id()});
      RESULTS.stream()
          .filter(s -> s.item().group().equals(group) && s.item().label().equals("malformed"))
          .forEach(m -> pairs.add(new String[] {good.item().id(), m.item().id()}));
    }
    return pairs;
  }

  @Test
  void ranksGoodAbovePoorAboveOffTopic() {
    List<String[]> pairs = expectedOrderings();
    List<String> wrong = new ArrayList<>();
    for (String[] p : pairs) {
      if (!(byId(p[0]).overall() > byId(p[1]).overall())) {
        wrong.add(
            p[0]
                + " "
                + fmt(byId(p[0]).overall())
                + " <= "
                + p[1]
                + " "
                + fmt(byId(p[1]).overall()));
      }
    }
    double rate = 1 - (double) wrong.size() / pairs.size();
    System.out.printf(
        Locale.ROOT,
        "%nordering agreement: %d of %d pairwise orderings right (%.1f%%)%s%n",
        pairs.size() - wrong.size(),
        pairs.size(),
        100 * rate,
        wrong.isEmpty() ? "" : "; wrong: " + wrong);
    assertThat(rate).as("share of orderings right; wrong: %s", wrong).isGreaterThanOrEqualTo(0.9);
  }

  @Test
  void emptyDeliverablesScoreLowest() {
    // Malformed text (a base64 blob) may tie with an empty answer at 0; every real answer is above.
    double lowestNonEmpty =
        RESULTS.stream()
            .filter(s -> !s.item().label().equals("empty"))
            .mapToDouble(Scored::overall)
            .min()
            .orElseThrow();
    double lowestAnswer =
        RESULTS.stream()
            .filter(s -> Set.of("good", "poor", "off_topic").contains(s.item().label()))
            .mapToDouble(Scored::overall)
            .min()
            .orElseThrow();
    List<Scored> empties = RESULTS.stream().filter(s -> s.item().label().equals("empty")).toList();
    assertThat(empties).hasSizeGreaterThanOrEqualTo(4);
    for (Scored e : empties) {
      assertThat(e.overall()).as(e.item().id()).isZero();
      assertThat(e.overall())
          .as(e.item().id())
          .isLessThanOrEqualTo(lowestNonEmpty)
          .isLessThan(lowestAnswer);
      assertThat(e.evaluation().dimensions().get("relevance").evidence()).contains("empty");
      assertThat(e.evaluation().dimensions().get("completeness").evidence()).contains("empty");
    }
  }

  @Test
  void passFailAgreesWithTheLabels() {
    int agree = 0;
    List<String> disagree = new ArrayList<>();
    for (Scored s : RESULTS) {
      boolean pass = s.overall() >= PASS_THRESHOLD;
      if (pass == s.item().expected().equals("pass")) {
        agree++;
      } else {
        disagree.add(s.item().id() + " " + fmt(s.overall()));
      }
    }
    double rate = (double) agree / RESULTS.size();
    System.out.printf(
        Locale.ROOT,
        "pass/fail agreement at overall >= %.0f: %d of %d (%.1f%%)%s%n",
        PASS_THRESHOLD,
        agree,
        RESULTS.size(),
        100 * rate,
        disagree.isEmpty() ? "" : "; disagree: " + disagree);
    assertThat(rate).as("pass/fail agreement; disagree: %s", disagree).isGreaterThanOrEqualTo(0.8);
  }

  @Test
  void corpusIsBigEnoughAndBalanced() {
    assertThat(RESULTS).hasSizeGreaterThanOrEqualTo(40);
    assertThat(groups()).hasSizeGreaterThanOrEqualTo(9);
    assertThat(RESULTS.stream().map(s -> s.item().type()).distinct())
        .contains("text/research", "code", "data", "translation", "review");
  }

  // ------------------------------------------------------------------ helpers and the printout

  private static List<String> groups() {
    return RESULTS.stream().map(s -> s.item().group()).distinct().toList();
  }

  private static Scored find(String group, String label) {
    return RESULTS.stream()
        .filter(s -> s.item().group().equals(group) && s.item().label().equals(label))
        .findFirst()
        .orElseThrow();
  }

  private static Scored byId(String id) {
    return RESULTS.stream().filter(s -> s.item().id().equals(id)).findFirst().orElseThrow();
  }

  private static String fmt(double d) {
    return String.format(Locale.ROOT, "%.1f", d);
  }

  private static void print() {
    System.out.println(
        "\nOffline embedding evaluator on the labelled corpus (" + RESULTS.size() + " pairs)");
    System.out.printf(
        Locale.ROOT,
        "%-14s %-10s %7s  %s%n",
        "id",
        "label",
        "overall",
        "scored dimensions (confidence)");
    for (Scored s : RESULTS) {
      Map<String, String> dims = new LinkedHashMap<>();
      s.evaluation()
          .dimensions()
          .forEach((n, d) -> {
            if (d.isEvaluated()) {
              dims.put(n, d.score().toPlainString() + " (" + d.confidence() + ")");
            }
          });
      System.out.printf(
          Locale.ROOT,
          "%-14s %-10s %7.1f  %s%n",
          s.item().id(),
          s.item().label(),
          s.overall(),
          dims);
    }
    if (Boolean.getBoolean("corpus.evidence")) {
      for (Scored s : RESULTS) {
        System.out.println("\n" + s.item().id());
        s.evaluation()
            .dimensions()
            .forEach((n, d) ->
                System.out.println(
                    "  "
                        + n
                        + ": "
                        + d.evidence()
                        + (d.shadowValue() == null
                            ? ""
                            : " | shadow " + d.shadowValue() + ": " + d.shadowEvidence())));
      }
    }
    printCalibration();
  }

  /** The raw similarities the calibration constants were chosen from, by label. */
  private static void printCalibration() {
    Map<String, List<Double>> top = new LinkedHashMap<>();
    Map<String, List<Double>> passage = new LinkedHashMap<>();
    Map<String, List<Double>> parts = new LinkedHashMap<>();
    for (Scored s : RESULTS) {
      if (s.item().content().isBlank()) {
        continue;
      }
      Similarities sim =
          Similarities.measure(s.item().request(), s.item().content(), new Model.Memo());
      String label = s.item().label();
      top.computeIfAbsent(label, k -> new ArrayList<>()).add(sim.topMean());
      for (double d : sim.toRequest()) {
        passage.computeIfAbsent(label, k -> new ArrayList<>()).add(d);
      }
      for (double d : sim.partBest()) {
        parts.computeIfAbsent(label, k -> new ArrayList<>()).add(d);
      }
    }
    System.out.println("\ncosine similarities by label: min / median / max");
    top.forEach((l, v) -> System.out.println("  top-5 mean to request, " + l + ": " + stats(v)));
    passage.forEach(
        (l, v) -> System.out.println("  each passage to request, " + l + ": " + stats(v)));
    parts.forEach(
        (l, v) -> System.out.println("  best passage per request part, " + l + ": " + stats(v)));
  }

  private static String stats(List<Double> v) {
    List<Double> s = v.stream().sorted().toList();
    return String.format(
        Locale.ROOT,
        "%.2f / %.2f / %.2f (n=%d)",
        s.getFirst(),
        s.get(s.size() / 2),
        s.getLast(),
        s.size());
  }
}
