package dev.asa.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.asa.agreement.Role;
import dev.asa.json.Json;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How the options of verify and negotiate become request bodies. */
class CommandOptionsTest {

  private static Arguments args(Command command, String... tokens) throws UsageException {
    return Arguments.parse(command.usage(), List.of(tokens));
  }

  @Test
  void scoresCarryNameNumberAndEvidenceWhichMayHoldColons() throws Exception {
    JsonNode result =
        VerifyCommand.evaluatorResult(
            args(
                new VerifyCommand(),
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
                "judge-1"));

    assertThat(Json.write(result))
        .isEqualTo(
            "{\"dimensions\":["
                + "{\"name\":\"accuracy\",\"score\":88.5,\"evidence\":\"3 of 3 claims check out: see notes\"},"
                + "{\"name\":\"timeliness\",\"score\":true,\"evidence\":\"on time\"}],"
                + "\"checks\":{\"all_tests_pass\":false},\"confidence\":0.9,\"model\":\"judge-1\"}");
  }

  @Test
  void aTaskAnswerCarriesEachScoreWithItsEvidenceGivenEitherWay() throws Exception {
    Arguments a =
        args(
            new EvaluatorTaskCommands.Submit(),
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
        EvaluatorTaskCommands.Submit.evaluatorResult(
            a,
            new Session(
                InputStream.nullInputStream(), System.out, System.err, java.util.Map.of(), a));

    assertThat(Json.write(result))
        .isEqualTo(
            "{\"dimensions\":["
                + "{\"name\":\"accuracy\",\"score\":88.5,\"evidence\":\"3 of 3 claims check out: see notes\"},"
                + "{\"name\":\"timeliness\",\"score\":true,\"evidence\":\"on time\"}],"
                + "\"checks\":{\"all_tests_pass\":false},\"model\":\"judge-1\",\"confidence\":0.9}");
  }

  @Test
  void aTaskAnswerFromStandardInputMayBeTheWholeRequestBody() throws Exception {
    Arguments a =
        args(new EvaluatorTaskCommands.Submit(), "tsk-1", "--scores", "-", "--model", "judge-1");
    String body =
        "{\"evaluator_result\": {\"dimensions\": [{\"name\": \"accuracy\", \"score\": 80,"
            + " \"evidence\": \"checked\"}]}}";
    JsonNode result =
        EvaluatorTaskCommands.Submit.evaluatorResult(
            a,
            new Session(
                new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)),
                System.out,
                System.err,
                java.util.Map.of(),
                a));
    assertThat(Json.write(result))
        .isEqualTo(
            "{\"dimensions\":[{\"name\":\"accuracy\",\"score\":80,\"evidence\":\"checked\"}],"
                + "\"model\":\"judge-1\"}");
  }

  @Test
  void withoutScoresThereIsNoEvaluatorResult() throws Exception {
    assertThat(VerifyCommand.evaluatorResult(args(new VerifyCommand(), "asa-1"))).isNull();
  }

  @Test
  void malformedScoresAndChecksAreNamed() {
    assertThatThrownBy(() -> VerifyCommand.score("accuracy=high:good"))
        .isInstanceOf(UsageException.class)
        .hasMessage("--score accuracy must be a number, not 'high'");
    assertThatThrownBy(() -> VerifyCommand.score("accuracy=88:"))
        .isInstanceOf(UsageException.class)
        .hasMessageStartingWith("--score needs NAME=SCORE:EVIDENCE");
    assertThatThrownBy(() ->
            VerifyCommand.evaluatorResult(args(new VerifyCommand(), "a", "--check", "x=maybe")))
        .isInstanceOf(UsageException.class)
        .hasMessage("--check needs NAME=true or NAME=false, not 'x=maybe'");
    assertThatThrownBy(() ->
            VerifyCommand.evaluatorResult(
                args(new VerifyCommand(), "a", "--result", "r.json", "--model", "m")))
        .isInstanceOf(UsageException.class)
        .hasMessage("--result and --model cannot be used together");
  }

  @Test
  void negotiationValuesAreJsonWhenTheyAreJsonAndTextOtherwise() throws Exception {
    JsonNode message =
        NegotiateCommand.message(
            Role.PROVIDER,
            args(
                new NegotiateCommand(),
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
                "escrow.payment.graduated_release.mode=continuous"));

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
                NegotiateCommand.message(
                    Role.CLIENT,
                    args(
                        new NegotiateCommand(),
                        "a",
                        "--as",
                        "client",
                        "--rationale",
                        "accept_as_proposed",
                        "--accept"))))
        .isEqualTo(
            "{\"party\":\"client\",\"rationale_code\":\"accept_as_proposed\",\"action\":\"accept\"}");
    assertThatThrownBy(() ->
            NegotiateCommand.message(
                Role.CLIENT,
                args(
                    new NegotiateCommand(),
                    "a",
                    "--as",
                    "client",
                    "--rationale",
                    "budget_limit",
                    "--set",
                    "x")))
        .isInstanceOf(UsageException.class)
        .hasMessage("--set needs PATH=VALUE, not 'x'");
  }
}
