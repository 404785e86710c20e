package dev.asa.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.client.VerifyOutcome;
import dev.asa.json.Json;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

class VerificationReportTest {

  private static JsonNode fixture() throws Exception {
    try (InputStream in =
        VerificationReportTest.class.getResourceAsStream("verify-response.json")) {
      return Json.parse(in.readAllBytes());
    }
  }

  @Test
  void listsEachDimensionWithScoreTargetAndWhetherItIsMet() throws Exception {
    String report = VerificationReport.format(VerifyOutcome.from(fixture()));

    assertThat(report)
        .startsWith("verified asa-2026-03-26-a1b2c3d4 (ver-2026-03-26-x1y2z3); state VERIFIED\n");
    assertThat(report)
        .contains(
            """
            DIMENSION     SCORE  SLO TARGET  MET  EVIDENCE
            accuracy      88     85          yes  Spot-checked 3 claims against source material. 2/3 fully supported, 1...
            completeness  62.5   80          no   Covers 5 of 8 major papers.
            timeliness    100    true        yes  Delivered 847 seconds before deadline.
            """);
  }

  @Test
  void showsShadowMetricsGatesCompositeAndDetermination() throws Exception {
    String report = VerificationReport.format(VerifyOutcome.from(fixture()));

    assertThat(report)
        .contains(
            """
            SHADOW METRIC       OF            VALUE  TARGET  MET
            hallucination_rate  accuracy      3.2    5       yes
            verbosity           completeness  -      25      -
            """);
    assertThat(report).contains("gate accuracy_gte_60  passed: accuracy 88 >= 60\n");
    assertThat(report)
        .contains("composite             84.25 (weighted_average, threshold 75): passed\n");
    assertThat(report)
        .contains("determination         PASS, release 85% of the payment, confidence 0.87\n");
    assertThat(report).contains("notes                 Composite 84.25 meets the threshold 75.");
  }

  @Test
  void aResultWithoutShadowsOrGatesLeavesThoseSectionsOut() throws Exception {
    JsonNode answer =
        Json.parse(
            """
            {"agreement_id":"a","state":"CLOSED","verification":{"verification_id":"v",
             "dimensions":[{"name":"timeliness","score":0,"slo_target":true,"slo_met":false,"evidence":"late"}],
             "composite":{"score":0,"method":"weighted_average","threshold":70,"passed":false},
             "determination":{"result":"FAIL","payment_release_percent":0,"confidence":null,"notes":""}}}\
            """);

    String report = VerificationReport.format(VerifyOutcome.from(answer));

    assertThat(report)
        .doesNotContain("SHADOW")
        .doesNotContain("gate ")
        .doesNotContain("confidence")
        .doesNotContain("notes");
    assertThat(report).contains("timeliness  0      true        no   late");
    assertThat(report).contains("composite      0 (weighted_average, threshold 70): FAILED");
    assertThat(report).contains("determination  FAIL, release 0% of the payment");
  }
}
