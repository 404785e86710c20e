package dev.asa.evaluators.judgeeval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The figures of a report, from records and scores small enough to check by hand. */
class JudgeReportTest {

  private static LabelledRecord.Pairwise pair(
      int line, String category, String a, String b, Preference human) {
    return new LabelledRecord.Pairwise(
        line,
        null,
        category,
        new Answer("q", a, "general", null),
        new Answer("q", b, "general", null),
        human);
  }

  @Test
  void pairwiseAgreementCountsTiesAsMissesOverallAndPerCategory() {
    List<LabelledRecord.Pairwise> records =
        List.of(
            pair(1, "math", "long answer", "short", Preference.A), // judge a: hit; longer a: hit
            pair(2, "math", "tiny", "a longer one", Preference.A), // judge a: hit; longer b: miss
            pair(3, "code", "same", "same", Preference.B), // judge tie: miss; length tie: miss
            pair(4, null, "xx", "x", Preference.B)); // judge b: hit; longer a: miss
    List<double[]> scores =
        List.of(
            new double[] {80, 70},
            new double[] {60, 50},
            new double[] {50, 50},
            new double[] {10, 20});
    PairwiseReport report = PairwiseReport.of(records, composites(scores), Bootstrap.DEFAULT, true);

    assertThat(report.overall().n()).isEqualTo(4);
    assertThat(report.overall().judge().hits()).isEqualTo(3);
    assertThat(report.overall().judge().ties()).isEqualTo(1);
    assertThat(report.overall().judge().agreement().value()).isEqualTo(0.75);
    assertThat(report.overall().baseline().hits()).isEqualTo(1);
    assertThat(report.overall().baseline().ties()).isEqualTo(1);
    assertThat(report.overall().baseline().agreement().value()).isEqualTo(0.25);
    assertThat(report.overall().difference().value()).isCloseTo(0.5, within(1e-12));

    assertThat(report.categories())
        .extracting(PairwiseReport.Group::category)
        .containsExactly("(none)", "code", "math");
    PairwiseReport.Group math = report.categories().get(2);
    assertThat(math.n()).isEqualTo(2);
    assertThat(math.judge().agreement().value()).isEqualTo(1.0);
    assertThat(math.judge().agreement().ci()).isEqualTo(new Interval(1, 1));
    assertThat(math.baseline().agreement().value()).isEqualTo(0.5);

    Interval ci = report.overall().judge().agreement().ci();
    assertThat(ci.lower()).isLessThanOrEqualTo(0.75);
    assertThat(ci.upper()).isGreaterThanOrEqualTo(0.75);

    JsonNode json = report.toJson();
    assertThat(json.path("kind").asText()).isEqualTo("pairwise");
    assertThat(json.path("overall").path("judge").path("agreement").asDouble()).isEqualTo(0.75);
    assertThat(json.path("overall").path("length_baseline").path("hits").asInt()).isEqualTo(1);
    assertThat(json.path("bootstrap").path("seed").asLong()).isEqualTo(15);
    assertThat(json.path("records").get(2).path("pick").asText()).isEqualTo("tie");
    assertThat(json.path("records").get(3).path("longer").asText()).isEqualTo("a");
  }

  @Test
  void eachDimensionAlonePicksByItsOwnScoreAndLeavesOutRecordsWithoutIt() {
    List<LabelledRecord.Pairwise> records =
        List.of(
            pair(1, null, "a", "b", Preference.A),
            pair(2, null, "a", "b", Preference.B),
            pair(3, null, "a", "b", Preference.A),
            pair(4, null, "a", "b", Preference.B));
    List<List<Scored>> scores =
        List.of(
            // relevance picks a (hit), clarity b (miss)
            List.of(answer(60, 90, 10.0), answer(50, 80, 20.0)),
            // relevance ties (miss), clarity b (hit)
            List.of(answer(60, 70, 10.0), answer(50, 70, 20.0)),
            // relevance picks a (hit), clarity a (hit)
            List.of(answer(60, 90, 30.0), answer(50, 10, 20.0)),
            // clarity not scored for b: the record is left out of clarity's rate
            List.of(answer(60, 10, 30.0), answer(50, 90, null)));
    PairwiseReport report = PairwiseReport.of(records, scores, Bootstrap.DEFAULT, false);

    assertThat(report.dimensions())
        .extracting(PairwiseReport.DimensionRate::dimension)
        .containsExactly("relevance", "clarity");
    PairwiseReport.DimensionRate relevance = report.dimensions().get(0);
    assertThat(relevance.n()).isEqualTo(4);
    assertThat(relevance.judge().hits()).isEqualTo(3);
    assertThat(relevance.judge().ties()).isEqualTo(1);
    PairwiseReport.DimensionRate clarity = report.dimensions().get(1);
    assertThat(clarity.n()).isEqualTo(3);
    assertThat(clarity.judge().hits()).isEqualTo(2);
    assertThat(clarity.judge().agreement().value()).isCloseTo(2.0 / 3, within(1e-12));

    JsonNode json = report.toJson();
    assertThat(json.path("dimensions").get(1).path("dimension").asText()).isEqualTo("clarity");
    assertThat(json.path("dimensions").get(1).path("n").asInt()).isEqualTo(3);
    assertThat(json.path("dimensions").get(1).path("judge").path("hits").asInt()).isEqualTo(2);
    assertThat(json.path("records").get(3).path("dimensions_b").has("clarity")).isFalse();
    assertThat(json.path("records").get(0).path("dimensions_a").path("relevance").asDouble())
        .isEqualTo(90);
  }

  @Test
  void aJudgeWithOnlyACompositeReportsNoDimensions() {
    PairwiseReport report =
        PairwiseReport.of(
            List.of(pair(1, null, "a", "bb", Preference.A)),
            composites(List.<double[]>of(new double[] {2, 1})),
            Bootstrap.DEFAULT,
            false);
    assertThat(report.dimensions()).isEmpty();
    assertThat(report.toJson().path("dimensions").isEmpty()).isTrue();
  }

  @Test
  void eachDimensionAloneIsRankedAgainstThePeoplesScores() {
    List<LabelledRecord.Pointwise> records =
        List.of(point(1, "x", 1), point(2, "x", 2), point(3, "x", 3), point(4, "x", 4));
    List<List<Scored>> scores =
        List.of(
            List.of(answer(1, 4, 1.0)),
            List.of(answer(2, 3, 2.0)),
            List.of(answer(3, 2, null)),
            List.of(answer(4, 1, 4.0)));
    PointwiseReport report = PointwiseReport.of(records, scores, Bootstrap.DEFAULT, false);
    assertThat(report.overall().judge().spearman().value()).isCloseTo(1, within(1e-12));
    assertThat(report.dimensions().get(0).dimension()).isEqualTo("relevance");
    assertThat(report.dimensions().get(0).judge().spearman().value()).isCloseTo(-1, within(1e-12));
    assertThat(report.dimensions().get(1).n()).isEqualTo(3);
    assertThat(report.dimensions().get(1).judge().spearman().value()).isCloseTo(1, within(1e-12));
    assertThat(report.toJson().path("records").get(2).path("dimensions").has("clarity")).isFalse();
  }

  /** Each record's answers scored with composites only, as a judge without dimensions scores. */
  private static List<List<Scored>> composites(List<double[]> scores) {
    return scores.stream()
        .map(s -> java.util.Arrays.stream(s).mapToObj(Scored::composite).toList())
        .toList();
  }

  /** A composite, a relevance score and, unless null, a clarity score. */
  private static Scored answer(double composite, double relevance, Double clarity) {
    java.util.Map<String, Double> dimensions = new java.util.LinkedHashMap<>();
    dimensions.put("relevance", relevance);
    if (clarity != null) {
      dimensions.put("clarity", clarity);
    }
    return new Scored(composite, dimensions);
  }

  @Test
  void withoutTheBaselineNoBaselineFigures() {
    PairwiseReport report =
        PairwiseReport.of(
            List.of(pair(1, null, "a", "bb", Preference.A)),
            composites(List.of(new double[] {2, 1})),
            Bootstrap.DEFAULT,
            false);
    assertThat(report.overall().baseline()).isNull();
    assertThat(report.categories()).isEmpty();
    assertThat(report.toJson().path("overall").has("length_baseline")).isFalse();
    assertThat(report.toJson().path("records").get(0).has("longer")).isFalse();
  }

  @Test
  void pointwiseCorrelationsAreThoseOfTheScoresAndTheLengths() {
    // human 1..5; judge 2, 1, 4, 3, 5 (Spearman 0.8, tau-b 0.6); lengths 1..5 (both 1).
    List<LabelledRecord.Pointwise> records =
        List.of(
            point(1, "x", 1),
            point(2, "xx", 2),
            point(3, "xxx", 3),
            point(4, "xxxx", 4),
            point(5, "xxxxx", 5));
    List<double[]> scores =
        List.of(
            new double[] {2},
            new double[] {1},
            new double[] {4},
            new double[] {3},
            new double[] {5});
    PointwiseReport report =
        PointwiseReport.of(records, composites(scores), Bootstrap.DEFAULT, true);
    assertThat(report.overall().judge().spearman().value()).isCloseTo(0.8, within(1e-12));
    assertThat(report.overall().judge().kendallTauB().value()).isCloseTo(0.6, within(1e-12));
    assertThat(report.overall().baseline().spearman().value()).isCloseTo(1, within(1e-12));
    assertThat(report.overall().baseline().kendallTauB().value()).isCloseTo(1, within(1e-12));
    JsonNode json = report.toJson();
    assertThat(json.path("overall").path("judge").path("kendall_tau_b").path("value").asDouble())
        .isEqualTo(0.6);
    assertThat(json.path("records").get(4).path("length").asInt()).isEqualTo(5);
  }

  @Test
  void figuresDoNotDependOnTheOrderOfTheRecords() {
    Random random = new Random(515);
    for (int trial = 0; trial < 20; trial++) {
      int n = 5 + random.nextInt(30);
      List<LabelledRecord.Pairwise> records = new java.util.ArrayList<>();
      List<double[]> scores = new java.util.ArrayList<>();
      for (int i = 0; i < n; i++) {
        records.add(
            pair(
                i + 1,
                random.nextBoolean() ? "p" : "q",
                "a".repeat(random.nextInt(5)),
                "b".repeat(random.nextInt(5)),
                random.nextBoolean() ? Preference.A : Preference.B));
        scores.add(new double[] {random.nextInt(4), random.nextInt(4)});
      }
      PairwiseReport report =
          PairwiseReport.of(records, composites(scores), Bootstrap.DEFAULT, true);
      java.util.List<Integer> order = new java.util.ArrayList<>();
      for (int i = 0; i < n; i++) {
        order.add(i);
      }
      java.util.Collections.shuffle(order, random);
      PairwiseReport shuffled =
          PairwiseReport.of(
              order.stream().map(records::get).toList(),
              composites(order.stream().map(scores::get).toList()),
              Bootstrap.DEFAULT,
              true);
      assertThat(shuffled.overall().judge().hits()).isEqualTo(report.overall().judge().hits());
      assertThat(shuffled.overall().baseline().hits())
          .isEqualTo(report.overall().baseline().hits());
      assertThat(shuffled.categories())
          .extracting(g -> g.judge().hits())
          .isEqualTo(report.categories().stream().map(g -> g.judge().hits()).toList());
    }
  }

  private static LabelledRecord.Pointwise point(int line, String answer, double human) {
    return new LabelledRecord.Pointwise(
        line, null, null, new Answer("q", answer, "general", null), human);
  }
}
