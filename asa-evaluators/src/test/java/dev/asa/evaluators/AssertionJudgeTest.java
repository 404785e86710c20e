package dev.asa.evaluators;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.asa.evaluators.judge.FakeLlmServer;
import dev.asa.evaluators.judge.FakeLlmServer.Behaviour;
import dev.asa.evaluators.judge.JudgeConfig;
import dev.asa.evaluators.judge.LlmJudge;
import dev.asa.shadow.DeliveredWork;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class AssertionJudgeTest {

  private static String verdict(int score, String evidence) {
    return "{\"dimensions\":[{\"name\":\"sealed_assertion\",\"score\":"
        + score
        + ",\"evidence\":\""
        + evidence
        + "\",\"confidence\":0.9}]}";
  }

  @Test
  void theAssertionIsTheRubricAndTheScoreTheVerdict() throws Exception {
    try (FakeLlmServer llm = FakeLlmServer.start()) {
      llm.byDefault(
          Behaviour.replyWith(r ->
              r.lastUserText().contains("cobalt are recovered")
                  ? verdict(100, "names cobalt in the second paragraph")
                  : verdict(0, "never mentions cobalt")));
      AssertionJudge judge =
          new AssertionJudge(() ->
              LlmJudge.create(
                  JudgeConfig.openAi(llm.openAiBaseUrl(), "k", "gpt-4o-mini")
                      .withRetries(1, Duration.ofMillis(1))));
      var yes =
          judge.judge(
              "The report names cobalt as a recovered metal",
              DeliveredWork.of("Lithium and cobalt are recovered.", "text"));
      assertThat(yes.passed()).isTrue();
      assertThat(yes.evidence()).isEqualTo("names cobalt in the second paragraph");
      assertThat(llm.lastRequest().system())
          .contains("The report names cobalt as a recovered metal");
      var no =
          judge.judge(
              "The report names cobalt as a recovered metal",
              DeliveredWork.of("Only lithium.", "text"));
      assertThat(no.passed()).isFalse();
    }
  }

  @Test
  void anUnusableJudgeIsAnErrorNotAVerdict() {
    try (FakeLlmServer llm = FakeLlmServer.start()) {
      llm.byDefault(Behaviour.malformed());
      AssertionJudge judge =
          new AssertionJudge(() ->
              LlmJudge.create(
                  JudgeConfig.openAi(llm.openAiBaseUrl(), "k", "gpt-4o-mini")
                      .withRetries(1, Duration.ofMillis(1))));
      assertThatThrownBy(() -> judge.judge("anything", DeliveredWork.of("text", "text")))
          .isInstanceOf(EvaluationException.class);
    }
  }
}
