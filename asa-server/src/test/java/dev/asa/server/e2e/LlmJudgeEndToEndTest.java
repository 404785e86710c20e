package dev.asa.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;
import dev.asa.client.AsaApiException;
import dev.asa.client.AsaClient;
import dev.asa.evaluators.judge.FakeLlmServer;
import dev.asa.evaluators.judge.FakeLlmServer.Behaviour;
import dev.asa.evaluators.judge.JudgeConfig;
import dev.asa.json.Json;
import dev.asa.scoring.VerificationResult;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.verification.engine.VerificationConfig;
import dev.asa.testing.Fixtures;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The 202 path with a real LLM judge (LangChain4j) against a local fake server that speaks the
 * OpenAI and Anthropic wire formats: standalone and agreement-bound, a 429 retried on the way, and
 * unusable judge output ending the job with a clear error instead of a guessed score.
 */
class LlmJudgeEndToEndTest {
  @TempDir Path dataDir;
  private FakeLlmServer llm;
  private AsaServer server;
  private AsaClient client;
  private AsaClient provider;

  /**
   * Judges every dimension it may be asked about: high when the work mentions lithium, low
   * otherwise.
   */
  static final Function<FakeLlmServer.Request, String> LITHIUM_JUDGE =
      request -> {
        int score = request.lastUserText().contains("lithium") ? 88 : 35;
        List<String> dims = new ArrayList<>();
        for (String name :
            List.of("accuracy", "completeness", "relevance", "sources", "writing", "clarity")) {
          dims.add(
              "{\"name\":\""
                  + name
                  + "\",\"score\":"
                  + score
                  + ",\"evidence\":\""
                  + name
                  + " judged on the text\",\"confidence\":0.8}");
        }
        return "{\"dimensions\":[" + String.join(",", dims) + "]}";
      };

  private void start(boolean anthropic) {
    llm = FakeLlmServer.start();
    JudgeConfig judge =
        (anthropic
                ? JudgeConfig.anthropic(llm.anthropicBaseUrl(), "sk-ant-test", "claude-sonnet-4-5")
                : JudgeConfig.openAi(llm.openAiBaseUrl(), "sk-test", "gpt-4o-mini"))
            .withRetries(3, Duration.ofMillis(20))
            .withTimeout(Duration.ofSeconds(5));
    server =
        AsaServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withDataDir(dataDir)
                .withVerification(VerificationConfig.standard(judge, 2)));
    AsaClient anonymous = AsaClient.connect(URI.create(server.url("127.0.0.1")));
    client = anonymous.withKey(Fixtures.key("alice"));
    provider = anonymous.withKey(Fixtures.key("bob"));
  }

  @AfterEach
  void stop() {
    server.close();
    llm.close();
  }

  @Test
  void standaloneResearchJudgedByAnOpenAiCompatibleModelThroughA429() {
    start(false);
    llm.enqueue(Behaviour.rateLimited(Duration.ofSeconds(0)))
        .byDefault(Behaviour.replyWith(LITHIUM_JUDGE));
    ObjectNode request = Json.object();
    request
        .putObject("deliverable")
        .put("content", "# Recycling\n\nHydrometallurgy recovers lithium at 95% yield [1].\n")
        .put("format", "markdown")
        .put("type", "text/research");
    request
        .putObject("original_request")
        .put("description", "Summarise how lithium is recovered from batteries");
    request.putObject("verification_config").put("depth", "semantic");

    ObjectNode accepted = client.requestVerification(request);
    assertThat(accepted.path("status").asText()).isIn("queued", "running");
    List<String> stages = new ArrayList<>();
    JsonNode result =
        client.awaitVerification(
            accepted.path("verification_id").asText(),
            Duration.ofSeconds(30),
            progress -> stages.add(progress.path("progress").path("stage").asText()));

    assertThat(result.path("evaluator").path("type").asText()).isEqualTo("agent_as_judge");
    assertThat(result.path("evaluator").path("model").asText()).isEqualTo("gpt-4o-mini");
    assertThat(result.path("dimensions").findValuesAsText("name"))
        .containsExactly("accuracy", "completeness", "relevance", "sources", "writing");
    assertThat(result.path("dimensions").get(0).path("score").decimalValue())
        .isEqualByComparingTo("88");
    assertThat(result.path("determination").path("result").asText()).isEqualTo("PASS");
    assertThat(result.path("evidence_trail").path("evaluation_cost_usd").decimalValue())
        .isPositive();
    assertThat(VerificationResult.evaluationHashMatches(result)).isTrue();
    assertThat(llm.requests()).hasSize(2); // the 429, then the answer
    assertThat(llm.lastRequest().header("Authorization")).isEqualTo("Bearer sk-test");
    assertThat(llm.lastRequest().model()).isEqualTo("gpt-4o-mini");
  }

  @Test
  void agreementVerifiedAtCompositeDepthByAnAnthropicJudge() {
    start(true);
    llm.byDefault(Behaviour.replyWith(LITHIUM_JUDGE));
    String id =
        client
            .createAgreement(Fixtures.judgedByBuiltIn(Fixtures.general()))
            .path("agreement_id")
            .asText();
    client.sign(id, Role.CLIENT, Fixtures.key("alice"));
    provider.sign(id, Role.PROVIDER, Fixtures.key("bob"));
    client.fund(id);
    provider.deliver(id, "# Findings\n\nMost lithium is recovered by leaching.\n", "markdown");

    ObjectNode accepted = client.verifyWith(id, Json.object().put("depth", "composite"));
    JsonNode result =
        client.awaitVerification(
            accepted.path("verification_id").asText(), Duration.ofSeconds(30), p -> {});
    assertThat(result.path("agreement_id").asText()).isEqualTo(id);
    assertThat(result.path("evaluator").path("type").asText()).isEqualTo("builtin_agent_as_judge");
    List<String> names = new ArrayList<>();
    result.path("dimensions").forEach(d -> names.add(d.path("name").asText()));
    assertThat(names).containsExactly("accuracy", "completeness", "relevance", "timeliness");
    assertThat(result.path("verification").path("depth").asText()).isEqualTo("composite");
    assertThat(client.agreement(id).path("agreement").path("status").asText())
        .isEqualToIgnoringCase("VERIFIED");
    assertThat(llm.lastRequest().isAnthropic()).isTrue();
    assertThat(llm.lastRequest().header("x-api-key")).isEqualTo("sk-ant-test");
  }

  @Test
  void sealedJudgedCriteriaAreDecidedByTheConfiguredJudge() {
    start(false);
    llm.byDefault(
        Behaviour.replyWith(r ->
            "{\"dimensions\":[{\"name\":\"sealed_assertion\",\"score\":"
                + (r.lastUserText().contains("cobalt and lithium are both recovered") ? 100 : 0)
                + ",\"evidence\":\"read the text\",\"confidence\":0.9}]}"));
    ObjectNode seal = Json.object();
    var criteria = seal.putArray("criteria");
    criteria
        .addObject()
        .put("id", "judged-1")
        .put("category", "completeness")
        .put("assertion", "Says which metals are recovered")
        .put("expected", "names cobalt")
        .putObject("check")
        .put("type", "judged")
        .put("assertion", "The text says cobalt is recovered");
    criteria
        .addObject()
        .put("id", "plain-1")
        .put("category", "happy_path")
        .put("assertion", "Mentions lithium")
        .put("expected", "the word lithium")
        .putObject("check")
        .put("type", "contains")
        .put("value", "lithium");
    String sealId = client.sealStandalone(seal).path("seal_id").asText();

    JsonNode good =
        client.validateSeal(sealId, "In recycling, cobalt and lithium are both recovered.", "text");
    assertThat(good.path("report").path("sealed_tests").path("passed").asInt()).isEqualTo(2);
    JsonNode poor = client.validateSeal(sealId, "In recycling, lithium is recovered.", "text");
    assertThat(poor.path("report").path("sealed_tests").path("failed").asInt()).isEqualTo(1);
    assertThat(poor.path("report").path("failures").get(0).path("test_name").asText())
        .isEqualTo("judged-1");
    assertThat(llm.requests()).hasSize(2);
  }

  @Test
  void unusableJudgeOutputFailsTheJobWithoutAScore() {
    start(false);
    llm.byDefault(Behaviour.malformed());
    ObjectNode request = Json.object();
    request
        .putObject("deliverable")
        .put("content", "Some text about lithium.")
        .put("format", "text");
    request.putObject("original_request").put("description", "Explain lithium recovery");
    String id = client.requestVerification(request).path("verification_id").asText();
    assertThatThrownBy(() -> client.awaitVerification(id, Duration.ofSeconds(30), p -> {}))
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(422);
              assertThat(e.detail()).contains("failed");
            });
    assertThat(llm.requests()).as("one attempt and one corrective attempt").hasSize(2);
  }
}
