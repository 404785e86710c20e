package dev.asa.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.client.AgreementView;
import dev.asa.json.Json;
import org.junit.jupiter.api.Test;

/**
 * {@code asa agreements get} names the evaluator whether the document names it or the pool does.
 */
class GetCommandTest {

  private static ObjectNode envelope() {
    ObjectNode e =
        Json.object()
            .put("agreement_id", "asa-1")
            .put("state", "ACTIVE")
            .put("version", 3)
            .put("agreement_hash", "sha256:00");
    ObjectNode parties = e.putObject("agreement").putObject("parties");
    parties
        .putObject("client")
        .putObject("identity")
        .put("scheme", "api_key")
        .put("value", "alice");
    parties
        .putObject("provider")
        .putObject("identity")
        .put("scheme", "api_key")
        .put("value", "bob");
    return e;
  }

  @Test
  void aNamedEvaluatorIsShownWithItsType() {
    ObjectNode e = envelope();
    ObjectNode ev = ((ObjectNode) e.path("agreement").path("parties")).putObject("evaluator");
    ev.putObject("identity").put("scheme", "api_key").put("value", "eval-1");
    ev.put("type", "agent_as_judge");
    assertThat(GetCommand.summary(AgreementView.from(e)))
        .contains("api_key eval-1 (agent_as_judge)");
  }

  @Test
  void aPoolEvaluatorIsShownOnceAssignedAndAnnouncedBefore() {
    ObjectNode e = envelope();
    assertThat(GetCommand.summary(AgreementView.from(e))).contains("from the pool at activation");
    ObjectNode assigned =
        ((ObjectNode) e.path("agreement")).putObject("metadata").putObject("assigned_evaluators");
    assigned.put("mode", "random_from_pool");
    assigned
        .putArray("evaluators")
        .addObject()
        .putObject("identity")
        .put("scheme", "api_key")
        .put("value", "judge-3");
    assertThat(GetCommand.summary(AgreementView.from(e)))
        .contains("api_key judge-3 (pool, random_from_pool)");
  }
}
