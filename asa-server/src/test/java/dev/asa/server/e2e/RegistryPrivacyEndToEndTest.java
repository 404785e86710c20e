package dev.asa.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.client.AsaClient;
import dev.asa.integrity.Calibration;
import dev.asa.integrity.Deviation;
import dev.asa.integrity.PoolMember;
import dev.asa.integrity.RecordPublication;
import dev.asa.integrity.TrackRecord;
import dev.asa.json.Json;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.store.Store;
import dev.asa.server.store.Stores;
import dev.asa.testing.Fixtures;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 53, item 4, through the real server: the registry does not tell a stranger, nor a party,
 * who does business with whom. An evaluator that judged bob's delivery and declared a conflict of
 * interest with carol is read by a stranger (mallory), by a party (alice) and by itself and the
 * operator: only the last two see anything that names a party or times its work.
 */
class RegistryPrivacyEndToEndTest {
  @TempDir Path dataDir;
  private AsaServer server;
  private AsaClient anonymous;

  @BeforeEach
  void start() {
    server =
        AsaServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withDataDir(dataDir)
                .withOperatorKey(Fixtures.key("operator").publicKey())
                .withRateLimit(10_000, 10_000)
                .withTimerPolling(false));
    anonymous = AsaClient.connect(URI.create(server.url("127.0.0.1")));
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private AsaClient as(String who) {
    return anonymous.withKey(Fixtures.key(who));
  }

  private static String keyOf(String who) {
    return Fixtures.key(who).publicKey().toBase64Url();
  }

  /**
   * The judge, qualified, having judged one of bob's deliveries; carol is its declared conflict.
   */
  private void judgeWithAPast() {
    ObjectNode body =
        AsaClient.evaluatorRegistration("api_key", "judge", "Judge", List.of("research"));
    body.put("organization", "Impartial Ltd");
    body.putArray("conflicts_of_interest").add(keyOf("carol"));
    as("judge").registerEvaluator(body);
    try (Store other = Stores.open(null, dataDir)) {
      other
          .evaluators()
          .update(
              keyOf("judge"),
              m ->
                  new PoolMember(
                      m.profile(),
                      new TrackRecord(
                          60,
                          20,
                          19,
                          new Calibration(
                              Map.of(
                                  "bobs_widget_accuracy",
                                  new Deviation(20, new BigDecimal("80"), BigDecimal.ZERO)),
                              Map.of()),
                          Map.of()),
                      m.standing()),
              Instant.now());
      // Nine of bob's deliveries: with the update, ten changes, and the record is published.
      for (int i = 0; i < RecordPublication.BATCH - 1; i++) {
        other.evaluators().recordAssessment(List.of(keyOf("judge")), keyOf("bob"), Instant.now());
      }
    }
  }

  @Test
  void aStrangerOrAPartyReadsAggregatesOnlyAndNoPartyKeyNoHistoryNoUpdatedAt() {
    judgeWithAPast();
    for (String reader : List.of("mallory", "alice")) {
      JsonNode one = as(reader).evaluator(keyOf("judge"));
      JsonNode listed = as(reader).evaluators(null, null, 0).path("evaluators").get(0);
      for (JsonNode view : List.of(one, listed)) {
        String text = Json.write(view);
        assertThat(text)
            .as("%s reads: %s", reader, text)
            .doesNotContain(keyOf("bob"))
            .doesNotContain(keyOf("carol"))
            .doesNotContain("bobs_widget")
            .doesNotContain("consecutive_by_provider")
            .doesNotContain("conflicts_of_interest")
            .doesNotContain("updated_at")
            .doesNotContain("history");
        // What anyone may weigh an evaluator by is all there.
        assertThat(view.path("display_name").asText()).isEqualTo("Judge");
        assertThat(view.path("organization").asText()).isEqualTo("Impartial Ltd");
        assertThat(view.at("/standing/status").asText()).isEqualTo("active");
        assertThat(view.path("qualified").asBoolean()).isTrue();
        assertThat(view.at("/track_record/evaluations").asInt()).isEqualTo(69);
        assertThat(view.at("/track_record/canary_pass_rate").decimalValue())
            .isEqualByComparingTo("0.95");
        assertThat(view.at("/track_record/calibration_deviation").decimalValue())
            .isEqualByComparingTo("4");
      }
    }
  }

  @Test
  void theEvaluatorItselfAndTheOperatorStillSeeWhomItJudgedAndWhen() {
    judgeWithAPast();
    for (String reader : List.of("judge", "operator")) {
      JsonNode one = as(reader).evaluator(keyOf("judge"));
      // The streaks are the live record's: the operator's only (one that moved with each answer
      // would tell the evaluator which of its tasks was real work).
      assertThat(one.at("/track_record/consecutive_by_provider/" + keyOf("bob")).asInt())
          .as("%s reads: %s", reader, one)
          .isEqualTo(reader.equals("operator") ? RecordPublication.BATCH - 1 : 0);
      assertThat(one.at("/track_record/calibration/dimensions").has("bobs_widget_accuracy"))
          .isTrue();
      assertThat(one.path("conflicts_of_interest").get(0).asText()).isEqualTo(keyOf("carol"));
      assertThat(one.has("updated_at")).isTrue();
      assertThat(one.path("history")).hasSize(1);
      JsonNode listed = as(reader).evaluators(null, null, 0).path("evaluators").get(0);
      assertThat(listed.at("/track_record/consecutive_by_provider/" + keyOf("bob")).asInt())
          .isEqualTo(reader.equals("operator") ? RecordPublication.BATCH - 1 : 0);
      assertThat(listed.has("updated_at")).isTrue();
    }
  }

  @Test
  void inTheListEachEvaluatorSeesOnlyItsOwnEntryInFull() {
    judgeWithAPast();
    as("other-judge")
        .registerEvaluator(
            AsaClient.evaluatorRegistration(
                "api_key", "other-judge", "Other", List.of("research")));
    for (JsonNode e : as("other-judge").evaluators(null, null, 0).path("evaluators")) {
      boolean own = e.path("key").asText().equals(keyOf("other-judge"));
      assertThat(e.has("updated_at")).as(e.toString()).isEqualTo(own);
      assertThat(e.path("track_record").has("consecutive_by_provider")).isEqualTo(own);
    }
  }
}
