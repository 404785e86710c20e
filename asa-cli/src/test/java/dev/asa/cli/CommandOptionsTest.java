package dev.asa.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.agreement.Role;
import dev.asa.json.Json;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** How the options of verify and negotiate become request bodies. */
class CommandOptionsTest {

  private static VerifyCommand verify(String... tokens) {
    return Parsed.parse(new VerifyCommand(), tokens);
  }

  private static NegotiateCommand negotiate(String... tokens) {
    return Parsed.parse(new NegotiateCommand(), tokens);
  }

  private static EvaluatorTaskCommands.Submit submit(String... tokens) {
    return Parsed.parse(new EvaluatorTaskCommands.Submit(), tokens);
  }

  @Test
  void scoresCarryNameNumberAndEvidenceWhichMayHoldColons() throws Exception {
    JsonNode result =
        verify(
                "asa-1",
                "--score",
                "accuracy=88.5:3 of 3 claims check out: see notes",
                "--score",
                "timeliness=true:on time",
                "--check",
                "all_tests_pass=false",
                "--confidence",
                "0.9",
                "--model",
                "judge-1")
            .evaluatorResult();

    assertThat(Json.write(result))
        .isEqualTo(
            "{\"dimensions\":["
                + "{\"name\":\"accuracy\",\"score\":88.5,\"evidence\":\"3 of 3 claims check out: see notes\"},"
                + "{\"name\":\"timeliness\",\"score\":true,\"evidence\":\"on time\"}],"
                + "\"checks\":{\"all_tests_pass\":false},\"confidence\":0.9,\"model\":\"judge-1\"}");
  }

  @Test
  void aTaskAnswerCarriesEachScoreWithItsEvidenceGivenEitherWay() throws Exception {
    EvaluatorTaskCommands.Submit a =
        submit(
            "tsk-1",
            "--score",
            "accuracy=88.5:3 of 3 claims check out: see notes",
            "--score",
            "timeliness=true",
            "--evidence",
            "timeliness=on time",
            "--check",
            "all_tests_pass=false",
            "--model",
            "judge-1",
            "--confidence",
            "0.9");
    JsonNode result =
        a.evaluatorResult(
            Session.of(InputStream.nullInputStream(), System.out, System.err, java.util.Map.of()));

    assertThat(Json.write(result))
        .isEqualTo(
            "{\"dimensions\":["
                + "{\"name\":\"accuracy\",\"score\":88.5,\"evidence\":\"3 of 3 claims check out: see notes\"},"
                + "{\"name\":\"timeliness\",\"score\":true,\"evidence\":\"on time\"}],"
                + "\"checks\":{\"all_tests_pass\":false},\"model\":\"judge-1\",\"confidence\":0.9}");
  }

  @Test
  void aTaskAnswerFromStandardInputMayBeTheWholeRequestBody() throws Exception {
    EvaluatorTaskCommands.Submit a = submit("tsk-1", "--scores", "-", "--model", "judge-1");
    String body =
        "{\"evaluator_result\": {\"dimensions\": [{\"name\": \"accuracy\", \"score\": 80,"
            + " \"evidence\": \"checked\"}]}}";
    JsonNode result =
        a.evaluatorResult(
            Session.of(
                new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)),
                System.out,
                System.err,
                java.util.Map.of()));
    assertThat(Json.write(result))
        .isEqualTo(
            "{\"dimensions\":[{\"name\":\"accuracy\",\"score\":80,\"evidence\":\"checked\"}],"
                + "\"model\":\"judge-1\"}");
  }

  @Test
  void withoutScoresThereIsNoEvaluatorResult() throws Exception {
    assertThat(verify("asa-1").evaluatorResult()).isNull();
  }

  @Test
  void malformedScoresAndChecksAreNamed() {
    assertThatThrownBy(() -> VerifyCommand.score("accuracy=high:good"))
        .isInstanceOf(UsageException.class)
        .hasMessage("--score accuracy must be a number, not 'high'");
    assertThatThrownBy(() -> VerifyCommand.score("accuracy=88:"))
        .isInstanceOf(UsageException.class)
        .hasMessageStartingWith("--score needs NAME=SCORE:EVIDENCE");
    assertThatThrownBy(() -> verify("a", "--check", "x=maybe").evaluatorResult())
        .isInstanceOf(UsageException.class)
        .hasMessage("--check needs NAME=true or NAME=false, not 'x=maybe'");
    assertThatThrownBy(() -> verify("a", "--result", "r.json", "--model", "m").evaluatorResult())
        .isInstanceOf(UsageException.class)
        .hasMessage("--result and --model cannot be used together");
  }

  @Test
  void negotiationValuesAreJsonWhenTheyAreJsonAndTextOtherwise() throws Exception {
    JsonNode message =
        negotiate(
                "asa-1",
                "--as",
                "provider",
                "--rationale",
                "market_rate_alignment",
                "--set",
                "quality_criteria.composite_threshold=75",
                "--set",
                "escrow.payment.amount=\"12.00\"",
                "--set",
                "escrow.payment.graduated_release.mode=continuous")
            .message(Role.PROVIDER);

    assertThat(Json.write(message))
        .isEqualTo(
            "{\"party\":\"provider\",\"rationale_code\":\"market_rate_alignment\","
                + "\"action\":\"counter\",\"proposed_changes\":{"
                + "\"quality_criteria.composite_threshold\":75,"
                + "\"escrow.payment.amount\":\"12.00\","
                + "\"escrow.payment.graduated_release.mode\":\"continuous\"}}");
  }

  @Test
  void acceptAndRejectCarryNoChanges() throws Exception {
    assertThat(
            Json.write(
                negotiate("a", "--as", "client", "--rationale", "accept_as_proposed", "--accept")
                    .message(Role.CLIENT)))
        .isEqualTo(
            "{\"party\":\"client\",\"rationale_code\":\"accept_as_proposed\",\"action\":\"accept\"}");
    assertThatThrownBy(() ->
            negotiate("a", "--as", "client", "--rationale", "budget_limit", "--set", "x")
                .message(Role.CLIENT))
        .isInstanceOf(UsageException.class)
        .hasMessage("--set needs PATH=VALUE, not 'x'");
  }

  @Test
  void acceptAndRejectNeedNoRationaleAChangeDoes() throws Exception {
    assertThat(negotiate("a", "--as", "client", "--accept").message(Role.CLIENT).toString())
        .contains("\"rationale_code\":\"accept_as_proposed\"");
    assertThat(negotiate("a", "--as", "provider", "--reject").message(Role.PROVIDER).toString())
        .contains("\"rationale_code\":\"no_agreement_possible\"");
    assertThatThrownBy(() -> negotiate("a", "--as", "client", "--set", "x=1").message(Role.CLIENT))
        .isInstanceOf(UsageException.class)
        .hasMessage("--set needs --rationale CODE: say why the terms should change");
  }
}
