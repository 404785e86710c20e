package dev.asa.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.evaluators.judge.FakeLlmServer;
import dev.asa.evaluators.judge.FakeLlmServer.Behaviour;
import dev.asa.json.Json;
import dev.asa.scoring.VerificationResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code asa verify FILE}: offline by default, with a judge on request, a table or the JSON result.
 */
class StandaloneVerifyCommandTest {
  @TempDir Path dir;

  record Result(int status, String out, String err) {}

  private static Result run(Map<String, String> env, String... args) {
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

  private static final String REPORT =
      """
      # Recovering lithium from spent batteries

      Spent lithium-ion batteries are shredded into black mass. Hydrometallurgical recycling leaches the
      black mass in acid and recovers lithium, cobalt and nickel as salts, with lithium yields above 90%
      in recent plants (Harper et al., 2019). Pyrometallurgy smelts the cells; it recovers cobalt and
      nickel well but loses most lithium to slag unless the slag is treated again.

      ## Direct recycling

      Direct recycling keeps the cathode crystal and relithiates it, which saves energy but needs sorted
      feedstock of one chemistry [1].

      ## References

      1. https://doi.org/10.1038/s41586-019-1682-5
      """;

  @Test
  void offlineByDefaultPrintsATableAndJudgesOnlyWhatItCan() throws Exception {
    Path file = Files.writeString(dir.resolve("report.md"), REPORT);
    Result r =
        run(
            Map.of(),
            "verify",
            file.toString(),
            "--request",
            "How is lithium recovered from spent batteries?",
            "--type",
            "text/research");
    assertThat(r.out())
        .contains("DIMENSION")
        .contains("relevance")
        .contains("accuracy")
        .contains("embedding");
    assertThat(r.out()).contains("cannot judge accuracy");
    assertThat(r.status()).isIn(0, 1);
  }

  @Test
  void aCodeFileIsJudgedByTheCodeEvaluatorOffline() throws Exception {
    Path file =
        Files.writeString(
            dir.resolve("lookup.py"),
            "def find(db, name):\n    return db.execute(\"SELECT * FROM t WHERE n = '\" + name + \"'\")\n");
    Result r =
        run(
            Map.of(),
            "verify",
            file.toString(),
            "--request",
            "Look a user up",
            "--type",
            "code",
            "--json");
    JsonNode result = Json.parse(r.out());
    assertThat(result.toString())
        .contains("main.py:2 SQL built by concatenation")
        .contains("code/static-analysis");
  }

  @Test
  void jsonOutputIsASealedResultAndAnOffTopicFileFails() throws Exception {
    Path file =
        Files.writeString(
            dir.resolve("recipe.md"),
            "# Banana bread\n\nMash three ripe bananas, add flour, sugar and butter, bake for an hour at 175 degrees.\n");
    Result r =
        run(
            Map.of(),
            "verify",
            file.toString(),
            "--request",
            "How is lithium recovered from spent batteries?",
            "--json");
    JsonNode result = Json.parse(r.out());
    assertThat(VerificationResult.evaluationHashMatches(result)).isTrue();
    assertThat(result.path("determination").path("result").asText()).isEqualTo("FAIL");
    assertThat(r.status()).isEqualTo(1);
  }

  @Test
  void aJudgeScoresWhatEmbeddingsCannot() throws Exception {
    try (FakeLlmServer llm = FakeLlmServer.start()) {
      llm.byDefault(
          Behaviour.reply(
              "{\"dimensions\":["
                  + "{\"name\":\"accuracy\",\"score\":91,\"evidence\":\"claims match the sources\",\"confidence\":0.9},"
                  + "{\"name\":\"completeness\",\"score\":84,\"evidence\":\"covers both routes\",\"confidence\":0.8},"
                  + "{\"name\":\"relevance\",\"score\":95,\"evidence\":\"on topic\",\"confidence\":0.9},"
                  + "{\"name\":\"clarity\",\"score\":88,\"evidence\":\"clear\",\"confidence\":0.9}]}"));
      Path file = Files.writeString(dir.resolve("report.md"), REPORT);
      Result r =
          run(
              Map.of("OPENAI_API_KEY", "sk-cli"),
              "verify",
              file.toString(),
              "--request",
              "How is lithium recovered?",
              "--judge",
              "openai",
              "--judge-url",
              llm.openAiBaseUrl(),
              "--judge-model",
              "gpt-4o-mini",
              "--json");
      JsonNode result = Json.parse(r.out());
      assertThat(result.path("dimensions").get(0).path("score").decimalValue())
          .isEqualByComparingTo("91");
      assertThat(result.path("evaluator").path("model").asText()).isEqualTo("gpt-4o-mini");
      assertThat(r.status()).isZero();
      assertThat(llm.lastRequest().header("Authorization")).isEqualTo("Bearer sk-cli");
    }
  }

  @Test
  void badArgumentsAreUsageErrors() throws Exception {
    Path file = Files.writeString(dir.resolve("a.md"), "text");
    assertThat(run(Map.of(), "verify", file.toString(), "--request", "x", "--type", "poetry").err())
        .contains("--type must be one of");
    assertThat(
            run(
                    Map.of(),
                    "verify",
                    file.toString(),
                    "--request",
                    "x",
                    "--judge",
                    "cohere",
                    "--judge-model",
                    "m")
                .err())
        .contains("--judge must be openai or anthropic");
    assertThat(
            run(Map.of(), "verify", file.toString(), "--request", "x", "--judge-model", "m").err())
        .contains("--judge-model needs --judge");
    assertThat(
            run(Map.of(), "verify", dir.resolve("missing.md").toString(), "--request", "x")
                .status())
        .isNotZero();
  }
}
