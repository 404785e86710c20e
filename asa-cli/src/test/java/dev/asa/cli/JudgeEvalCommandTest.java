package dev.asa.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.evaluators.judge.FakeLlmServer;
import dev.asa.evaluators.judge.FakeLlmServer.Behaviour;
import dev.asa.evaluators.judgeeval.Spearman;
import dev.asa.json.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code asa judge-eval} on slices of the development corpus (asa-evaluators' test resources: the
 * project's own pairs, {@code judge-eval/dev-pairs.jsonl}, and LLMBar's in {@code
 * judge-eval/dev-corpus.jsonl}): the report's structure, figures consistent with the records' own
 * scores, and the length baseline against a count made by hand. The whole corpus runs as a
 * benchmark ({@code ./asa bench-judge}), not here.
 */
class JudgeEvalCommandTest {
  @TempDir Path dir;

  record Result(int status, String out, String err) {}

  static Result run(Map<String, String> env, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status =
        new Main(env)
            .run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Result(
        status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  /**
   * Lines 1-4 (text/research: r1 good, poor, off-topic, garbled) and 8-11 (code: c1) of the corpus.
   * Counted by hand from the answers' lengths: the longer answer is the preferred one in 3 of the 4
   * research pairs (not r1-off vs r1-poor) and 3 of the 4 code pairs (not c1-poor vs c1-off).
   */
  private static final int[] SLICE = {1, 2, 3, 4, 8, 9, 10, 11};

  private static final int LENGTH_HITS_BY_HAND = 6;

  private Path slice() throws IOException {
    return slice(dir);
  }

  /**
   * {@link #SLICE} of the project's labelled pairs, written to {@code slice.jsonl} in {@code dir}.
   */
  static Path slice(Path dir) throws IOException {
    List<String> lines;
    try (InputStream in =
        JudgeEvalCommandTest.class.getResourceAsStream("/judge-eval/dev-pairs.jsonl")) {
      lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    }
    List<String> picked = new ArrayList<>();
    for (int line : SLICE) {
      picked.add(lines.get(line - 1));
    }
    return Files.write(dir.resolve("slice.jsonl"), picked, StandardCharsets.UTF_8);
  }

  @Test
  void pairwiseJsonFiguresAgreeWithTheRecordsAndTheHandCount() throws Exception {
    Result r = run(Map.of(), "judge-eval", slice().toString(), "--baseline", "length", "--json");
    assertThat(r.status()).as(r.err()).isZero();
    JsonNode report = Json.parse(r.out());
    assertThat(report.path("kind").asText()).isEqualTo("pairwise");
    assertThat(report.path("depth").asText()).isEqualTo("semantic");
    assertThat(report.path("evaluators").get(0).asText()).startsWith("embedding/");
    assertThat(report.path("n").asInt()).isEqualTo(SLICE.length);
    assertThat(report.path("bootstrap").path("resamples").asInt()).isEqualTo(1000);
    assertThat(report.path("bootstrap").path("seed").asLong()).isEqualTo(15);

    JsonNode records = report.path("records");
    assertThat(records).hasSize(SLICE.length);
    int hits = 0;
    int ties = 0;
    int lengthHits = 0;
    for (JsonNode rec : records) {
      double a = rec.path("score_a").asDouble();
      double b = rec.path("score_b").asDouble();
      String pick = a > b ? "a" : b > a ? "b" : "tie";
      assertThat(rec.path("pick").asText()).isEqualTo(pick);
      assertThat(rec.path("hit").asBoolean()).isEqualTo(pick.equals(rec.path("human").asText()));
      hits += rec.path("hit").asBoolean() ? 1 : 0;
      ties += pick.equals("tie") ? 1 : 0;
      lengthHits += rec.path("length_hit").asBoolean() ? 1 : 0;
      assertThat(a).isBetween(0.0, 100.0);
    }
    JsonNode overall = report.path("overall");
    assertThat(overall.path("n").asInt()).isEqualTo(SLICE.length);
    assertThat(overall.path("judge").path("hits").asInt()).isEqualTo(hits);
    assertThat(overall.path("judge").path("ties").asInt()).isEqualTo(ties);
    assertThat(overall.path("judge").path("agreement").asDouble())
        .isCloseTo((double) hits / SLICE.length, within(1e-4));
    assertThat(lengthHits).isEqualTo(LENGTH_HITS_BY_HAND);
    assertThat(overall.path("length_baseline").path("hits").asInt()).isEqualTo(LENGTH_HITS_BY_HAND);
    assertThat(overall.path("length_baseline").path("agreement").asDouble()).isEqualTo(0.75);
    assertThat(overall.path("difference").path("value").asDouble())
        .isCloseTo((double) hits / SLICE.length - 0.75, within(1e-4));
    for (String figure : List.of("judge", "length_baseline")) {
      JsonNode ci = overall.path(figure).path("ci");
      double value = overall.path(figure).path("agreement").asDouble();
      assertThat(ci.get(0).asDouble()).isBetween(0.0, value);
      assertThat(ci.get(1).asDouble()).isBetween(value, 1.0);
    }

    JsonNode categories = report.path("categories");
    assertThat(categories)
        .extracting(c -> c.path("category").asText())
        .containsExactly("code", "text/research");
    assertThat(categories).extracting(c -> c.path("n").asInt()).containsExactly(4, 4);
    assertThat(categories)
        .extracting(c -> c.path("length_baseline").path("hits").asInt())
        .containsExactly(3, 3);
    int categoryHits = 0;
    for (JsonNode c : categories) {
      categoryHits += c.path("judge").path("hits").asInt();
    }
    assertThat(categoryHits).isEqualTo(hits);

    // Each dimension alone, recounted from the records' own dimension scores.
    JsonNode dimensions = report.path("dimensions");
    assertThat(dimensions)
        .extracting(d -> d.path("dimension").asText())
        .contains("relevance", "completeness");
    for (JsonNode d : dimensions) {
      String name = d.path("dimension").asText();
      int n = 0;
      int dimensionHits = 0;
      for (JsonNode rec : records) {
        JsonNode a = rec.path("dimensions_a").path(name);
        JsonNode b = rec.path("dimensions_b").path(name);
        if (a.isNumber() && b.isNumber()) {
          n++;
          String pick = a.asDouble() > b.asDouble() ? "a" : b.asDouble() > a.asDouble() ? "b" : "";
          dimensionHits += pick.equals(rec.path("human").asText()) ? 1 : 0;
        }
      }
      assertThat(d.path("n").asInt()).as(name).isEqualTo(n);
      assertThat(d.path("judge").path("hits").asInt()).as(name).isEqualTo(dimensionHits);
    }

    // Progress goes to stderr as whole lines (stderr is not a terminal here), ending at 16/16.
    assertThat(r.err()).doesNotContain("\r").contains("judge-eval: 16/16 answers scored (100%)");
  }

  /** The whole development corpus's records per category, as its PROVENANCE.md states them. */
  private static final Map<String, Integer> CORPUS =
      Map.of(
          "llmbar-natural", 100,
          "llmbar-neighbor", 134,
          "llmbar-gptinst", 92,
          "llmbar-gptout", 47,
          "llmbar-manual", 46,
          "pandalm", 888,
          "asa-own", 38);

  private static List<String> corpusLines() throws IOException {
    try (InputStream in =
        JudgeEvalCommandTest.class.getResourceAsStream("/judge-eval/dev-corpus.jsonl")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    }
  }

  @Test
  void theDevelopmentCorpusHoldsWhatItsProvenanceSays() throws Exception {
    Map<String, Integer> counts = new java.util.TreeMap<>();
    for (String line : corpusLines()) {
      JsonNode rec = Json.parse(line);
      counts.merge(rec.path("category").asText(), 1, Integer::sum);
      assertThat(rec.path("human").asText()).isIn("a", "b");
    }
    assertThat(counts).isEqualTo(new java.util.TreeMap<>(CORPUS));
  }

  /**
   * The first two pairs of each LLMBar set and of PandaLM: the report has one row per set, and the
   * length baseline's hits match a count made here from the records themselves.
   */
  @Test
  void aSliceOfEachSetIsScoredPerSet() throws Exception {
    List<String> picked = new ArrayList<>();
    Map<String, Integer> taken = new java.util.HashMap<>();
    int longerHits = 0;
    for (String line : corpusLines()) {
      JsonNode rec = Json.parse(line);
      String category = rec.path("category").asText();
      if (!category.equals("asa-own") && taken.merge(category, 1, Integer::sum) <= 2) {
        picked.add(line);
        int a =
            rec.path("answer_a")
                .asText()
                .strip()
                .codePointCount(0, rec.path("answer_a").asText().strip().length());
        int b =
            rec.path("answer_b")
                .asText()
                .strip()
                .codePointCount(0, rec.path("answer_b").asText().strip().length());
        String longer = a > b ? "a" : b > a ? "b" : "tie";
        longerHits += longer.equals(rec.path("human").asText()) ? 1 : 0;
      }
    }
    Path file = Files.write(dir.resolve("set-slice.jsonl"), picked, StandardCharsets.UTF_8);
    Result r = run(Map.of(), "judge-eval", file.toString(), "--baseline", "length", "--json");
    assertThat(r.status()).as(r.err()).isZero();
    JsonNode report = Json.parse(r.out());
    assertThat(report.path("n").asInt()).isEqualTo(12);
    assertThat(report.path("categories"))
        .extracting(c -> c.path("category").asText())
        .containsExactly(
            "llmbar-gptinst",
            "llmbar-gptout",
            "llmbar-manual",
            "llmbar-natural",
            "llmbar-neighbor",
            "pandalm");
    assertThat(report.path("categories")).extracting(c -> c.path("n").asInt()).containsOnly(2);
    assertThat(report.path("overall").path("length_baseline").path("hits").asInt())
        .isEqualTo(longerHits);
  }

  @Test
  void theTextReportPrintsEachFigureWithItsInterval() throws Exception {
    Result r = run(Map.of(), "judge-eval", slice().toString(), "--baseline", "length");
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.out())
        .contains("8 pairwise records from")
        .contains("judge: embedding/")
        .contains("a tie counts as a miss")
        .contains("95% percentile bootstrap, 1000 resamples, seed 15")
        .contains("LONGER WINS")
        .contains("JUDGE - LONGER");
    String all = r.out().lines().filter(l -> l.startsWith("all ")).findFirst().orElseThrow();
    assertThat(all).contains("75.0%"); // the length baseline: 6 of 8
    assertThat(r.out().lines().filter(l -> l.startsWith("code ")).findFirst().orElseThrow())
        .matches("code\\s+4\\s+\\d+\\.\\d%\\s+\\[.*");
    assertThat(r.out()).contains("each dimension alone as the judge");
    assertThat(r.out().lines().filter(l -> l.startsWith("relevance ")).findFirst().orElseThrow())
        .matches("relevance\\s+8\\s+\\d+\\.\\d%\\s+\\[.*");
    Result plain = run(Map.of(), "judge-eval", slice().toString());
    assertThat(plain.out()).doesNotContain("LONGER WINS").contains("JUDGE");
  }

  @Test
  void pointwiseFilesGetRankCorrelations() throws Exception {
    // A fixture, not a corpus: the r1 answers with scores from the corpus's own labels.
    List<String> lines = new ArrayList<>();
    for (JsonNode rec : records(slice())) {
      if (rec.path("id").asText().equals("r1-good vs r1-poor")) {
        lines.add(point(rec, rec.path("answer_a").asText(), 3));
        lines.add(point(rec, rec.path("answer_b").asText(), 2));
      } else if (rec.path("id").asText().equals("r1-garbled vs r1-good")) {
        lines.add(point(rec, rec.path("answer_a").asText(), 0));
      } else if (rec.path("id").asText().equals("r1-off vs r1-poor")) {
        lines.add(point(rec, rec.path("answer_a").asText(), 1));
      }
    }
    Path file = Files.write(dir.resolve("points.jsonl"), lines, StandardCharsets.UTF_8);
    Result r = run(Map.of(), "judge-eval", file.toString(), "--baseline", "length", "--json");
    assertThat(r.status()).as(r.err()).isZero();
    JsonNode report = Json.parse(r.out());
    assertThat(report.path("kind").asText()).isEqualTo("pointwise");
    JsonNode records = report.path("records");
    double[] human = new double[records.size()];
    double[] length = new double[records.size()];
    for (int i = 0; i < human.length; i++) {
      human[i] = records.get(i).path("human_score").asDouble();
      length[i] = records.get(i).path("length").asDouble();
    }
    JsonNode baseline = report.path("overall").path("length_baseline");
    assertThat(baseline.path("spearman").path("value").asDouble())
        .isCloseTo(Spearman.of(length, human), within(1e-4));
    // Lengths 3093, 305, 1131, 155 against 3, 2, 1, 0: ranks 4, 2, 3, 1 vs 4, 3, 2, 1.
    assertThat(baseline.path("spearman").path("value").asDouble()).isCloseTo(0.8, within(1e-4));
    assertThat(baseline.path("kendall_tau_b").path("value").asDouble())
        .isCloseTo(4.0 / 6, within(1e-4));
    double judge = report.path("overall").path("judge").path("spearman").path("value").asDouble();
    assertThat(judge).isBetween(-1.0, 1.0);

    Result text = run(Map.of(), "judge-eval", file.toString());
    assertThat(text.out())
        .contains("4 pointwise records")
        .contains("KENDALL TAU-B")
        .contains("each dimension alone");
    assertThat(report.path("dimensions").get(0).path("n").asInt()).isEqualTo(4);
    assertThat(records.get(0).path("dimensions").path("relevance").isNumber()).isTrue();
  }

  @Test
  void aBadLineStopsTheRunNamingItsLineAndMember() throws Exception {
    Path file =
        Files.writeString(
            dir.resolve("bad.jsonl"),
            """
            {"request": "q", "answer_a": "x", "answer_b": "y", "human": "a"}
            {"request": "q", "answer_a": "x", "human": "c"}
            {"request": "q", "answer_a": "x", "answer_b": "y", "human": "b"
            """);
    Result r = run(Map.of(), "judge-eval", file.toString());
    assertThat(r.status()).isEqualTo(5);
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .contains("cannot be used (3 problems); nothing was scored")
        .contains("line 2, answer_b: is missing")
        .contains("line 2, human: must be \"a\" or \"b\"")
        .contains("line 3: is not valid JSON")
        .doesNotContain("Exception")
        .doesNotContain("\tat ");
  }

  @Test
  void aMixedFileAndAMissingFileAreRefused() throws Exception {
    Path mixed =
        Files.writeString(
            dir.resolve("mixed.jsonl"),
            """
            {"request": "q", "answer_a": "x", "answer_b": "y", "human": "a"}
            {"request": "q", "answer": "x", "human_score": 3}
            """);
    Result r = run(Map.of(), "judge-eval", mixed.toString());
    assertThat(r.status()).isEqualTo(5);
    assertThat(r.err()).contains("mixes pairwise records (the first at line 1)");
    Result missing = run(Map.of(), "judge-eval", dir.resolve("nope.jsonl").toString());
    assertThat(missing.status()).isEqualTo(5);
    assertThat(missing.err()).contains("no such file");
  }

  @Test
  void wrongOptionsAreUsageErrors() throws Exception {
    String file = slice().toString();
    Result baseline = run(Map.of(), "judge-eval", file, "--baseline", "random");
    assertThat(baseline.status()).isEqualTo(2);
    assertThat(baseline.err()).contains("--baseline must be length");
    Result judge = run(Map.of(), "judge-eval", file, "--evaluators", "agent_as_judge");
    assertThat(judge.status()).isEqualTo(2);
    assertThat(judge.err()).contains("no 'agent_as_judge' evaluator").contains("needs --judge");
    assertThat(run(Map.of(), "judge-eval", file, "--evaluators", "9").err())
        .contains("--evaluators must be a whole number from 1 to 7");
    assertThat(run(Map.of(), "judge-eval", file, "--seed", "x").status()).isEqualTo(2);
    assertThat(run(Map.of(), "judge-eval").status()).isEqualTo(2);
  }

  @Test
  void aConfiguredJudgeIsTheOneEvaluated() throws Exception {
    try (FakeLlmServer llm = FakeLlmServer.start()) {
      // Scores the answers that talk about differential privacy high, every other low.
      llm.byDefault(
          Behaviour.replyWith(req -> {
            int s = req.lastUserText().contains("ifferential privacy") ? 90 : 30;
            return "{\"dimensions\":["
                + dimension("accuracy", s)
                + ","
                + dimension("completeness", s)
                + ","
                + dimension("relevance", s)
                + ","
                + dimension("clarity", s)
                + "]}";
          }));
      List<String> research = new ArrayList<>();
      for (JsonNode rec : records(slice())) {
        if (rec.path("category").asText().equals("text/research")) {
          research.add(Json.write(rec));
        }
      }
      Path file = Files.write(dir.resolve("research.jsonl"), research, StandardCharsets.UTF_8);
      Result r =
          run(
              Map.of("OPENAI_API_KEY", "sk-test"),
              "judge-eval",
              file.toString(),
              "--judge",
              "openai",
              "--judge-url",
              llm.openAiBaseUrl(),
              "--judge-model",
              "gpt-4o-mini",
              "--judge-free",
              "--json");
      assertThat(r.status()).as(r.err()).isZero();
      JsonNode report = Json.parse(r.out());
      assertThat(report.path("evaluators").get(0).asText()).contains("gpt-4o-mini");
      assertThat(report.path("n").asInt()).isEqualTo(4);
      assertThat(llm.lastRequest().header("Authorization")).isEqualTo("Bearer sk-test");
    }
  }

  @Test
  void anAnswerTheJudgeCannotEvaluateStopsTheRunWithItsLine() throws Exception {
    try (FakeLlmServer llm = FakeLlmServer.start()) {
      llm.byDefault(Behaviour.malformed());
      Path file =
          Files.writeString(
              dir.resolve("one.jsonl"),
              "{\"request\": \"Explain TLS\", \"answer_a\": \"It encrypts.\", \"answer_b\": \"No idea.\", \"human\": \"a\"}\n");
      Result r =
          run(
              Map.of(),
              "judge-eval",
              file.toString(),
              "--judge",
              "openai",
              "--judge-url",
              llm.openAiBaseUrl(),
              "--judge-model",
              "gpt-4o-mini",
              "--judge-free");
      assertThat(r.status()).isEqualTo(4);
      assertThat(r.err()).contains("no figure is given").contains("line 1, answer_");
      assertThat(r.out()).isEmpty();
    }
  }

  private static String dimension(String name, int score) {
    return "{\"name\":\""
        + name
        + "\",\"score\":"
        + score
        + ",\"evidence\":\"fixture\",\"confidence\":0.9}";
  }

  private static List<JsonNode> records(Path file) throws IOException {
    List<JsonNode> records = new ArrayList<>();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      records.add(Json.parse(line));
    }
    return records;
  }

  private static String point(JsonNode rec, String answer, int score) {
    var o = Json.object();
    o.put("request", rec.path("request").asText());
    o.put("answer", answer);
    o.put("human_score", score);
    return Json.write(o);
  }
}
