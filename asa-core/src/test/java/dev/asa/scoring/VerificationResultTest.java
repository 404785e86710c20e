package dev.asa.scoring;

import static dev.asa.scoring.Fixtures.criteria;
import static dev.asa.scoring.Fixtures.n;
import static dev.asa.scoring.Fixtures.percentage;
import static dev.asa.scoring.Fixtures.scores;
import static dev.asa.scoring.Fixtures.slo;
import static dev.asa.scoring.Fixtures.whitepaperCriteria;
import static dev.asa.scoring.Fixtures.whitepaperScores;
import static dev.asa.scoring.Fixtures.withGates;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.CompositeMethod;
import dev.asa.agreement.Identity;
import dev.asa.agreement.QualityGate;
import dev.asa.agreement.SloOperator;
import dev.asa.crypto.Digest;
import dev.asa.json.Json;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class VerificationResultTest {

  private static final Digest DELIVERABLE =
      Digest.sha256("# Federated learning\n...".getBytes(StandardCharsets.UTF_8));
  private static final VerificationResult.Evaluator JUDGE =
      new VerificationResult.Evaluator(
          new Identity("api_key", "eval-key-789", null), "agent_as_judge", "claude-sonnet-4-6");

  private static VerificationResult whitepaperResult() {
    Scorecard card = Scorer.score(whitepaperCriteria(), whitepaperScores(), Map.of());
    return VerificationResult.of(
        "ver-2026-03-26-x1y2z3",
        "asa-2026-03-26-a1b2c3d4",
        Instant.parse("2026-03-26T15:45:00Z"),
        JUDGE,
        card,
        DELIVERABLE,
        45230,
        n("0.12"));
  }

  @Test
  void jsonHasTheShapeOfSection5Point2() throws Exception {
    JsonNode json = whitepaperResult().toJson();

    assertThat(fieldNames(json))
        .containsExactly(
            "verification_id",
            "agreement_id",
            "timestamp",
            "evaluator",
            "dimensions",
            "composite",
            "determination",
            "evidence_trail");
    assertThat(json.path("timestamp").asText()).isEqualTo("2026-03-26T15:45:00Z");
    assertThat(Json.write(json.path("evaluator")))
        .isEqualTo(
            "{\"identity\":{\"scheme\":\"api_key\",\"value\":\"eval-key-789\"},"
                + "\"type\":\"agent_as_judge\",\"model\":\"claude-sonnet-4-6\"}");

    JsonNode accuracy = json.path("dimensions").get(0);
    assertThat(fieldNames(accuracy))
        .containsExactly("name", "score", "slo_target", "slo_met", "evidence", "shadow_metric");
    assertThat(Json.write(accuracy.path("shadow_metric")))
        .isEqualTo(
            "{\"name\":\"hallucination_rate\",\"value\":3.2,\"slo_target\":5,\"slo_met\":true,"
                + "\"evidence\":\"1 unsupported claim in 31\"}");
    assertThat(json.path("dimensions").get(1).has("shadow_metric")).isFalse();

    JsonNode timeliness = json.path("dimensions").get(5);
    assertThat(Json.write(timeliness))
        .isEqualTo(
            "{\"name\":\"timeliness\",\"score\":100,\"slo_target\":true,\"slo_met\":true,"
                + "\"evidence\":\"Delivered 847 seconds before the deadline.\"}");

    assertThat(Json.write(json.path("composite")))
        .isEqualTo(
            "{\"score\":87,\"method\":\"weighted_average\",\"threshold\":75,\"passed\":true}");
    assertThat(Json.write(json.path("determination")))
        .isEqualTo(
            "{\"result\":\"PASS\",\"payment_release_percent\":100,\"confidence\":1,"
                + "\"notes\":\"All SLOs met. Composite score 87 exceeds threshold of 75.\"}");

    JsonNode trail = json.path("evidence_trail");
    assertThat(fieldNames(trail))
        .containsExactly(
            "deliverable_hash", "evaluation_hash", "evaluation_duration_ms", "evaluation_cost_usd");
    assertThat(trail.path("deliverable_hash").asText()).isEqualTo(DELIVERABLE.toString());
    assertThat(trail.path("evaluation_hash").asText()).matches("sha256:[0-9a-f]{64}");
    assertThat(Json.write(trail.path("evaluation_cost_usd"))).isEqualTo("0.12");
    assertThat(trail.path("evaluation_duration_ms").asLong()).isEqualTo(45230);
  }

  @Test
  void scoresAreWrittenPlainWithoutTrailingZeros() {
    // 0.5*86.2 + 0.5*86 = 86.100: written 86.1, not 86.100 or 8.61E+1.
    Scorecard card =
        Scorer.score(
            criteria(
                CompositeMethod.WEIGHTED_AVERAGE,
                "75.0",
                percentage("a", "0.5", slo(SloOperator.GTE, "80.00")),
                percentage("b", "0.5", slo(SloOperator.GTE, "80"))),
            scores("a", "86.20", "b", "86"),
            Map.of());
    JsonNode json = standalone(card).toJson();
    String text = Json.write(json);
    assertThat(Json.write(json.path("composite")))
        .isEqualTo(
            "{\"score\":86.1,\"method\":\"weighted_average\",\"threshold\":75,\"passed\":true}");
    assertThat(Json.write(json.path("dimensions").get(0).path("score"))).isEqualTo("86.2");
    assertThat(Json.write(json.path("dimensions").get(0).path("slo_target"))).isEqualTo("80");
    assertThat(text).doesNotContain("E+").doesNotContain("86.100");
  }

  @Test
  void optionalMembersAreOmittedOrNull() {
    Scorecard card =
        Scorer.score(
            criteria(
                CompositeMethod.MINIMUM, "50", percentage("a", "1", slo(SloOperator.GTE, "50"))),
            scores("a", 60),
            Map.of());
    JsonNode json = standalone(card).toJson();
    assertThat(json.has("agreement_id")).isFalse();
    assertThat(json.path("evaluator").has("model")).isFalse();
    assertThat(json.path("determination").path("confidence").isNull()).isTrue();
    assertThat(json.path("evidence_trail").path("evaluation_cost_usd").isNull()).isTrue();
    assertThat(json.has("quality_gates")).isFalse();
  }

  @Test
  void gatesAreReportedWithTheirLogic() {
    Scorecard card =
        Scorer.score(
            withGates(
                whitepaperCriteria(),
                QualityGate.Logic.ALL_MUST_PASS,
                "accuracy_gte_80",
                "all_tests_pass"),
            whitepaperScores(),
            Map.of());
    JsonNode json = standalone(card).toJson();
    assertThat(Json.write(json.path("quality_gates")))
        .isEqualTo(
            "[{\"condition\":\"accuracy_gte_80\",\"passed\":true,\"evidence\":\"accuracy 88 >= 80\"},"
                + "{\"condition\":\"all_tests_pass\",\"passed\":false,"
                + "\"evidence\":\"not evaluated: no evaluator reported all_tests_pass\"}]");
    assertThat(json.path("gate_logic").asText()).isEqualTo("all_must_pass");
    assertThat(json.path("determination").path("result").asText()).isEqualTo("FAIL");
    assertThat(json.path("determination").path("payment_release_percent").asInt()).isZero();
  }

  @Test
  void evaluationHashSealsTheResult() throws Exception {
    VerificationResult result = whitepaperResult();
    assertThat(result.evaluationHashMatches()).isTrue();

    // Independently: the hash is SHA-256 over the JCS form of the JSON without evaluation_hash.
    ObjectNode json = (ObjectNode) result.toJson();
    ((ObjectNode) json.path("evidence_trail")).remove("evaluation_hash");
    assertThat(result.evidenceTrail().evaluationHash()).isEqualTo(Digest.ofCanonicalJson(json));

    // It survives a trip through text, with other whitespace and member order.
    JsonNode reparsed = Json.parse(Json.writePretty(result.toJson()));
    assertThat(VerificationResult.evaluationHashMatches(reparsed)).isTrue();
  }

  @Test
  void tamperingBreaksTheSeal() {
    JsonNode original = whitepaperResult().toJson();

    ObjectNode score = original.deepCopy();
    ((ObjectNode) score.path("dimensions").get(0)).put("score", 89);
    assertThat(VerificationResult.evaluationHashMatches(score)).isFalse();

    ObjectNode release = original.deepCopy();
    ((ObjectNode) release.path("determination")).put("payment_release_percent", 85);
    assertThat(VerificationResult.evaluationHashMatches(release)).isFalse();

    ObjectNode added = original.deepCopy();
    added.put("extra", "member");
    assertThat(VerificationResult.evaluationHashMatches(added)).isFalse();
  }

  @Test
  void aMissingOrMalformedHashNeverMatches() {
    ObjectNode missing = whitepaperResult().toJson().deepCopy();
    ((ObjectNode) missing.path("evidence_trail")).remove("evaluation_hash");
    assertThat(VerificationResult.evaluationHashMatches(missing)).isFalse();

    ObjectNode malformed = whitepaperResult().toJson().deepCopy();
    ((ObjectNode) malformed.path("evidence_trail")).put("evaluation_hash", "sha256:789xyz...");
    assertThat(VerificationResult.evaluationHashMatches(malformed)).isFalse();

    assertThat(VerificationResult.evaluationHashMatches(Json.object())).isFalse();
    assertThat(VerificationResult.evaluationHashMatches(null)).isFalse();
  }

  private static VerificationResult standalone(Scorecard card) {
    return VerificationResult.of(
        "ver-1",
        null,
        Instant.parse("2026-03-26T15:45:00Z"),
        new VerificationResult.Evaluator(
            new Identity("api_key", "structural-1", null), "structural", null),
        card,
        DELIVERABLE,
        3,
        null);
  }

  private static List<String> fieldNames(JsonNode node) {
    return node.properties().stream().map(Map.Entry::getKey).toList();
  }
}
