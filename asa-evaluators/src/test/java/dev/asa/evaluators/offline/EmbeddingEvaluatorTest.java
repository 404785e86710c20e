package dev.asa.evaluators.offline;

import static org.assertj.core.api.Assertions.assertThat;

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
import dev.asa.evaluators.text.UnfencedCode;
import dev.asa.scoring.DimensionInput;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class EmbeddingEvaluatorTest {

  private static final EmbeddingEvaluator EVALUATOR = new EmbeddingEvaluator();
  private static final Instant NOW = Instant.parse("2026-03-26T15:00:00Z");

  private static final String REQUEST =
      "Explain how to set up a simple backup routine for a home computer: what to back up, how often, "
          + "where to keep the copies, and how to check that the backups actually work.";

  private static final String ANSWER =
      """
      # A home backup routine

      Back up documents, photos and email archives: anything you could not download again. Programs can be reinstalled.

      Run an automatic backup every day to an external drive at your desk, and keep a second copy off-site in a cloud
      backup service, so that a fire or a theft at home does not take every copy.

      Every three months, restore a few files from each copy and open them, to check that the backups actually work.
      """;

  static Dimension dim(String name, MetricType metric, String shadow) {
    Slo slo =
        metric == MetricType.BOOLEAN
            ? new Slo(SloOperator.EQ, new Slo.Target.Flag(true))
            : new Slo(SloOperator.GTE, new Slo.Target.Number(new BigDecimal("70")));
    return new Dimension(name, new BigDecimal("0.2"), metric, slo, shadow, null, null);
  }

  static QualityCriteria criteria(Dimension... dims) {
    return new QualityCriteria(
        Arrays.asList(dims),
        new BigDecimal("70"),
        CompositeMethod.WEIGHTED_AVERAGE,
        QualityCriteria.GuaranteeType.PROBABILISTIC,
        List.of(),
        QualityGate.Logic.ALL_MUST_PASS,
        null,
        List.of());
  }

  static Evaluation evaluate(String content, String format, String type, Dimension... dims)
      throws Exception {
    return EVALUATOR.evaluate(
        EvaluationTask.of(Deliverable.of(content, format, NOW), REQUEST, type, criteria(dims)));
  }

  @Test
  void dimensionsItCannotJudgeAreNotEvaluatedWithTheReason() throws Exception {
    List<String> names =
        List.of(
            "accuracy",
            "correctness",
            "security",
            "performance",
            "methodology",
            "terminology",
            "cultural_fit",
            "actionability",
            "timeliness",
            "format_compliance",
            "tone");
    Evaluation e =
        evaluate(
            ANSWER,
            "markdown",
            "general",
            names.stream().map(n -> dim(n, MetricType.PERCENTAGE, null)).toArray(Dimension[]::new));
    assertThat(e.dimensions().keySet()).containsExactlyElementsOf(names);
    for (DimensionInput d : e.dimensions().values()) {
      assertThat(d.isEvaluated()).as(d.name()).isFalse();
      assertThat(d.evidence())
          .startsWith("the offline embedding evaluator cannot judge " + d.name() + ": ");
    }
    assertThat(e.dimensions().get("accuracy").evidence())
        .contains("needs a judge that can check claims");
  }

  @Test
  void scoresWhatItCanInCriteriaOrderWithEvidenceAndConfidence() throws Exception {
    Evaluation e =
        evaluate(
            ANSWER,
            "markdown",
            "general",
            dim("accuracy", MetricType.PERCENTAGE, "hallucination_rate"),
            dim("completeness", MetricType.PERCENTAGE, "verbosity"),
            dim("relevance", MetricType.SCORE, null),
            dim("clarity", MetricType.PERCENTAGE, "repetition_rate"));
    assertThat(e.evaluatorId()).isEqualTo("embedding/all-minilm-l6-v2-q");
    assertThat(e.type()).isEqualTo("embedding");
    assertThat(e.model()).isEqualTo("all-MiniLM-L6-v2 (quantized)");
    assertThat(e.dimensions().keySet())
        .containsExactly("accuracy", "completeness", "relevance", "clarity");
    assertThat(e.dimensions().get("accuracy").shadowValue())
        .isNull(); // hallucinations are not measured here
    DimensionInput relevance = e.dimensions().get("relevance");
    // On topic, and scaled for depth: 75 words where an explanation is expected to say more.
    assertThat(relevance.score()).isGreaterThan(new BigDecimal("60"));
    assertThat(relevance.evidence())
        .contains("best-matching passages to the request")
        .contains("on topic");
    assertThat(relevance.confidence()).isBetween(new BigDecimal("0.5"), new BigDecimal("0.95"));
    DimensionInput completeness = e.dimensions().get("completeness");
    assertThat(completeness.score()).isGreaterThan(new BigDecimal("50"));
    assertThat(completeness.shadowValue()).isNotNull();
    assertThat(completeness.shadowEvidence()).contains("off-topic passages");
    assertThat(e.dimensions().get("clarity").shadowValue()).isNotNull();
    assertThat(e.usage().inputTokens()).isPositive();
    assertThat(e.usage().costUsd()).isZero();
  }

  @Test
  void confidenceFollowsTheSignalNotAConstant() throws Exception {
    Dimension relevance = dim("relevance", MetricType.PERCENTAGE, null);
    BigDecimal onTopic =
        evaluate(ANSWER, "markdown", "general", relevance)
            .dimensions()
            .get("relevance")
            .confidence();
    BigDecimal borderline =
        evaluate("Computers hold files. Some people keep things.", "text", "general", relevance)
            .dimensions()
            .get("relevance")
            .confidence();
    assertThat(onTopic).isNotEqualByComparingTo(borderline);
  }

  @Test
  void offTopicAnswerScoresLowRelevance() throws Exception {
    Evaluation e =
        evaluate(
            "Tomatoes grow well in containers if they get six to eight hours of direct sun. "
                + "Water deeply whenever the top of the compost is dry.",
            "text",
            "general",
            dim("relevance", MetricType.PERCENTAGE, null));
    assertThat(e.dimensions().get("relevance").score()).isLessThan(new BigDecimal("20"));
  }

  /**
   * An answer of a few words of its own is scaled on the prose dimensions, and says so; a writing
   * score is the same whether or not relevance is asked for beside it.
   */
  @Test
  void anAnswerThatSaysLittleOfItsOwnIsScaledAndSaysSo() throws Exception {
    String request = "How does a refrigerator keep food cold?";
    String thin = "A refrigerator keeps food cold.";
    String full =
        "A pump compresses refrigerant gas, which heats up and sheds that heat through coils at the"
            + " back. The refrigerant then expands inside, evaporates and absorbs heat from the air"
            + " around the food, so the cabinet stays near four degrees.";
    Dimension relevance = dim("relevance", MetricType.PERCENTAGE, null);
    Dimension clarity = dim("clarity", MetricType.PERCENTAGE, null);
    Evaluation thinAnswer = evaluateFor(request, thin, relevance, clarity);
    assertThat(thinAnswer.dimensions().get("relevance").evidence())
        // "keeps" is not the request's "keep" to the crude stemmer: one word of its own.
        .contains("says little of its own: 1 distinct content word beyond the request's")
        // 0.47 for saying little (1 word of 10), times 0.46 for depth: "how does" asks for an
        // explanation, which is expected to say some 80 words of its own (OwnContent).
        .contains("the request calls for an extended answer")
        .contains("scaled by 0.21");
    assertThat(thinAnswer.dimensions().get("clarity").score())
        .isEqualByComparingTo(
            evaluateFor(request, thin, clarity).dimensions().get("clarity").score());
    assertThat(evaluateFor(request, full, relevance).dimensions().get("relevance").score())
        .isGreaterThan(thinAnswer.dimensions().get("relevance").score());
    assertThat(evaluateFor(request, full, relevance).dimensions().get("relevance").evidence())
        .doesNotContain("says little of its own")
        .contains("how much it says of its own: 21 distinct content words")
        // 16.4 weighted words, where an explanation is expected to say some 80 (OwnContent).
        .contains("scaled by 0.77");
    assertThat(
            evaluateFor(
                    "Rewrite this sentence in the passive: we fixed it.",
                    "It was fixed.",
                    relevance)
                .dimensions()
                .get("relevance")
                .evidence())
        .contains("the request asks for its own text reworked");
  }

  /**
   * Of two answers close to the request, the one that says more of its own is the more complete;
   * saying the same again adds nothing, and an answer far from the request earns nothing for its
   * length.
   */
  @Test
  void completenessCountsHowFarAnAnswerCloseToTheRequestReaches() throws Exception {
    String request = "How does a refrigerator keep food cold?";
    String full =
        "A pump compresses refrigerant gas, which heats up and sheds that heat through coils at the"
            + " back. The refrigerant then expands inside, evaporates and absorbs heat from the air"
            + " around the food, so the cabinet stays near four degrees.";
    String fuller =
        full
            + " A thermostat switches the compressor on when a sensor reads the cabinet warming"
            + " above its setting. Foam insulation in the walls and a magnetic door gasket slow the"
            + " heat leaking back in. A defrost heater melts the frost on the evaporator fins every"
            + " few hours, and the water drains to a pan where the compressor's warmth dries it.";
    Dimension completeness = dim("completeness", MetricType.PERCENTAGE, null);
    DimensionInput brief =
        evaluateFor(request, full, completeness).dimensions().get("completeness");
    DimensionInput fullerScored =
        evaluateFor(request, fuller, completeness).dimensions().get("completeness");
    assertThat(fullerScored.evidence()).contains("how far it reaches");
    assertThat(fullerScored.score()).isGreaterThan(brief.score());
    DimensionInput repeated =
        evaluateFor(request, fuller + "\n\n" + fuller, completeness)
            .dimensions()
            .get("completeness");
    assertThat(repeated.score()).isLessThanOrEqualTo(fullerScored.score());
    String offTopic =
        "Sourdough bread rises because wild yeast and lactic acid bacteria ferment the flour's"
            + " sugars, releasing carbon dioxide that the gluten network traps. Bakers feed the"
            + " starter daily with equal weights of flour and water and keep it at room temperature."
            + " A long cold proof in the refrigerator deepens the sour flavour and firms the dough.";
    assertThat(
            evaluateFor(request, offTopic, completeness)
                .dimensions()
                .get("completeness")
                .evidence())
        .contains("counted 0% at relevance");
  }

  /**
   * Keywords picked out of a text the request hands over are the text's own words by design: the
   * list is not "saying little of its own", and its items are not filler. Before, a job advert's 29
   * key words (Auto-J) scored completeness 8, relevance 31 and clarity 41, below a shorter list
   * dressed in a sentence of its own.
   */
  @Test
  void keywordsPickedOutOfTheTextHandedOverAreTheWork() throws Exception {
    String request =
        """
        Please list the key words from the following job requirements so that I can use them in \
        my resume.

        Planning: you manage your time well and set priorities among competing deadlines.
        Communication: you write and speak clearly about research findings and their assessment.
        Analysis: you review data in spreadsheets and present what you find to partners.
        Improvement: you evaluate current processes and raise their standards.\
        """;
    String keywords =
        """
        1. Time management
        2. Priorities
        3. Deadlines
        4. Written communication
        5. Research findings
        6. Data review
        7. Spreadsheets
        8. Process evaluation
        9. Standards\
        """;
    Dimension completeness = dim("completeness", MetricType.PERCENTAGE, null);
    Dimension relevance = dim("relevance", MetricType.PERCENTAGE, null);
    Dimension clarity = dim("clarity", MetricType.PERCENTAGE, null);
    Map<String, DimensionInput> scored =
        evaluateFor(request, keywords, completeness, relevance, clarity).dimensions();
    for (String name : List.of("completeness", "relevance", "clarity")) {
      assertThat(scored.get(name).evidence())
          .as(name)
          .contains("the request asks for words picked out of its own text")
          .doesNotContain("says little of its own");
      assertThat(scored.get(name).score()).as(name).isGreaterThan(BigDecimal.valueOf(60));
    }
    assertThat(scored.get("completeness").evidence()).contains(", 0 vague (hedges, filler)");
  }

  /**
   * A fenced code block is one unit: its opening fence ("```python") and a line such as
   * "print(word, count)" are not sentences restating a request about counting words in Python, and
   * its blank lines do not cut its imports off as a passage of their own, off the request's topic.
   * Read as prose, the explained program below lost a sixth of its relevance's on-topic share to
   * its imports, and the bare code block lost its fence and a line.
   */
  @Test
  void aCodeBlockIsReadAsOneUnit() throws Exception {
    String request =
        "Write a Python program that counts how often each word occurs in the text files of a"
            + " directory and prints the five most common words.";
    String code =
        """
        ```python
        import os
        from collections import Counter

        def top_words(directory, n=5):
            counts = Counter()
            for name in os.listdir(directory):
                if name.endswith(".txt"):
                    with open(os.path.join(directory, name), encoding="utf-8") as f:
                        counts.update(f.read().lower().split())
            return counts.most_common(n)

        for word, count in top_words("."):
            print(word, count)
        ```
        """;
    String explained =
        code
            + """

            How it works:

            1. `os.listdir` lists the directory, and every file ending in `.txt` is read.
            2. A `Counter` adds up each lower-cased word across all the files.
            3. `most_common(5)` returns the five words with the highest counts, which are printed.
            """;
    Dimension relevance = dim("relevance", MetricType.PERCENTAGE, null);
    assertThat(evaluateFor(request, explained, relevance).dimensions().get("relevance").evidence())
        .contains("2 of 2 passages on topic")
        .doesNotContain("restating");
    assertThat(evaluateFor(request, code, relevance).dimensions().get("relevance").evidence())
        .contains("1 of 1 passage on topic")
        .doesNotContain("restating");
  }

  /**
   * Code given back without its fence is read as the code block its reader sees ({@link
   * UnfencedCode}): asked to rewrite a method, an answer that pastes the rewrite bare had its lines
   * the request also holds taken out as restatements, and the rest read as fragments far from the
   * request (Auto-J's C# rewrite: relevance 33 beside 93 for the same code fenced). Read as prose,
   * the bare rewrite below lost 3 of its lines as restatements and scored 0.63 against 0.81.
   */
  @Test
  void codeGivenBackWithoutItsFenceIsReadAsCode() throws Exception {
    String method =
        """
        public int divide(int numerator, int denominator) {
          try {
            return numerator / denominator;
          } catch (ArithmeticException e) {
            return 0;
          }
        }\
        """;
    String request =
        "Revise this Java method to improve error handling and reduce code duplication:\n\n"
            + method;
    String rewrite =
        """
        public int divide(int numerator, int denominator) {
          if (denominator == 0) {
            throw new IllegalArgumentException("denominator must not be zero");
          }
          return numerator / denominator;
        }\
        """;
    Dimension relevance = dim("relevance", MetricType.PERCENTAGE, null);
    Evaluation bare = evaluateFor(request, "Here is the revised method:\n\n" + rewrite, relevance);
    Evaluation fenced =
        evaluateFor(request, "Here is the revised method:\n\n```\n" + rewrite + "\n```", relevance);
    // Only the line that introduces the code restates the request, as it does beside a fence.
    assertThat(bare.dimensions().get("relevance").evidence())
        .contains("not scored: 1 sentence restating the request")
        .isEqualTo(fenced.dimensions().get("relevance").evidence());
    assertThat(bare.dimensions().get("relevance").score())
        .isEqualByComparingTo(fenced.dimensions().get("relevance").score());
  }

  /**
   * A sum worked out wrong costs completeness and the evidence names it; right sums added beside it
   * buy nothing back, nor raise a right answer.
   */
  @Test
  void aSumWorkedOutWrongCostsCompletenessAndRightOnesEarnNothing() throws Exception {
    String request =
        "Benjamin bought 5 sci-fi novels at $20 each, 3 history books at $30 each and 2"
            + " philosophy books at $45 each. What was the total cost of his purchases?";
    String right =
        "The novels cost 5 x $20 = $100, the history books 3 x $30 = $90 and the philosophy"
            + " books 2 x $45 = $90. In total he paid $100 + $90 + $90 = $280.";
    String wrong = right.replace("= $280", "= $270");
    Dimension completeness = dim("completeness", MetricType.PERCENTAGE, null);
    Evaluation ofRight = evaluateFor(request, right, completeness);
    Evaluation ofWrong = evaluateFor(request, wrong, completeness);
    assertThat(ofRight.dimensions().get("completeness").evidence())
        .contains("arithmetic: 4 sums worked out, none wrong");
    assertThat(ofWrong.dimensions().get("completeness").evidence())
        .contains("arithmetic: 1 of 4 sums worked out wrong (\"$100 + $90 + $90 = $270\")")
        .contains("scaled by 0.75");
    assertThat(ofWrong.dimensions().get("completeness").score())
        .isLessThan(ofRight.dimensions().get("completeness").score());

    String padded = " Also 2 + 2 = 4, 3 x 3 = 9 and 10 - 4 = 6.";
    for (Map.Entry<String, Evaluation> answer : Map.of(wrong, ofWrong, right, ofRight).entrySet()) {
      assertThat(
              evaluateFor(request, answer.getKey() + padded, completeness)
                  .dimensions()
                  .get("completeness")
                  .score())
          .as(answer.getKey())
          .isLessThanOrEqualTo(answer.getValue().dimensions().get("completeness").score());
    }
  }

  private static Evaluation evaluateFor(String request, String content, Dimension... dims)
      throws Exception {
    return EVALUATOR.evaluate(
        EvaluationTask.of(Deliverable.of(content, null, NOW), request, "general", criteria(dims)));
  }

  @Test
  void emptyDeliverableScoresZeroAndSaysSo() throws Exception {
    for (String empty : List.of("", "   \n\t ")) {
      Evaluation e =
          evaluate(
              empty,
              "text",
              "general",
              dim("relevance", MetricType.PERCENTAGE, null),
              dim("completeness", MetricType.PERCENTAGE, null),
              dim("accuracy", MetricType.PERCENTAGE, null));
      assertThat(e.dimensions().get("relevance").score()).isZero();
      assertThat(e.dimensions().get("completeness").score()).isZero();
      assertThat(e.dimensions().get("completeness").evidence()).contains("empty");
      assertThat(e.dimensions().get("accuracy").isEvaluated()).isFalse();
    }
  }

  @Test
  void sourcesAsACountAreTheCount() throws Exception {
    Evaluation e =
        evaluate(
            "As Smith et al. (2024) and [1] show, see https://energy.gov/x.\n\n## References\n"
                + "- [1] Lee, B. (2023). Backups at home. Consumer Guides.\n"
                + "- [2] Smith, A. et al. (2024). Restoring files. Data Journal.\n",
            "markdown",
            "text/research",
            dim("sources", MetricType.COUNT, null),
            dim("source_quality", MetricType.PERCENTAGE, null));
    assertThat(e.dimensions().get("sources").score()).isEqualByComparingTo("2");
    assertThat(e.dimensions().get("source_quality").score())
        .isEqualByComparingTo("40"); // 15 x 2 + 10 for the list
    assertThat(e.dimensions().get("source_quality").evidence()).contains("counted, not checked");
  }

  @Test
  void metricsItCannotExpressAndNonProseAreNotEvaluated() throws Exception {
    Evaluation e =
        evaluate(
            "def backup():\n    copy('~/Documents', '/mnt/drive')\n",
            "code",
            "code",
            dim("relevance", MetricType.BOOLEAN, null),
            dim("writing", MetricType.PERCENTAGE, null));
    assertThat(e.dimensions().get("relevance").isEvaluated()).isFalse();
    assertThat(e.dimensions().get("relevance").evidence()).contains("not as a boolean");
    assertThat(e.dimensions().get("writing").isEvaluated()).isFalse();
    assertThat(e.dimensions().get("writing").evidence()).contains("only on prose");
  }

  @Test
  void reportsProgressToTheEnd() throws Exception {
    List<String> stages = new ArrayList<>();
    int[] last = new int[2];
    EvaluationTask task =
        EvaluationTask.of(
                Deliverable.of(ANSWER, "markdown", NOW),
                REQUEST,
                "general",
                criteria(dim("relevance", MetricType.PERCENTAGE, null)))
            .withProgress((stage, done, total) -> {
              stages.add(stage);
              last[0] = done;
              last[1] = total;
            });
    EVALUATOR.evaluate(task);
    assertThat(stages).hasSizeGreaterThanOrEqualTo(3).anyMatch(s -> s.startsWith("embedding"));
    assertThat(last[0]).isEqualTo(last[1]);
  }

  @Test
  void longDeliverablesAreSampledAndSaySo() throws Exception {
    String longText =
        "Keep a second backup copy off-site so that a fire at home does not take every copy.\n\n"
            .repeat(400);
    Evaluation e =
        evaluate(longText, "text", "general", dim("relevance", MetricType.PERCENTAGE, null));
    assertThat(e.dimensions().get("relevance").evidence()).contains("sampled 256 of 400 passages");
  }

  @Test
  void concurrentEvaluationsAgreeWithSequentialOnes() throws Exception {
    Dimension[] dims = {
      dim("relevance", MetricType.PERCENTAGE, null),
      dim("completeness", MetricType.PERCENTAGE, "verbosity")
    };
    List<String> answers =
        List.of(
            ANSWER,
            "Use an external drive and back up every day.",
            "Tomatoes need sun.",
            ANSWER + "\n\nAlso label the drives.");
    List<Map<String, DimensionInput>> sequential = new ArrayList<>();
    for (String a : answers) {
      sequential.add(evaluate(a, "markdown", "general", dims).dimensions());
    }
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<Evaluation>> futures = new ArrayList<>();
      for (int round = 0; round < 3; round++) {
        for (String a : answers) {
          futures.add(pool.submit(() -> evaluate(a, "markdown", "general", dims)));
        }
      }
      for (int i = 0; i < futures.size(); i++) {
        assertThat(futures.get(i).get().dimensions()).isEqualTo(sequential.get(i % answers.size()));
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
