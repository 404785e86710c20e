package dev.asa.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;
import dev.asa.client.AsaApiException;
import dev.asa.client.AsaClient;
import dev.asa.crypto.Digest;
import dev.asa.json.Json;
import dev.asa.lifecycle.EventChain;
import dev.asa.scoring.VerificationResult;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.store.db.PackedText;
import dev.asa.testing.Fixtures;
import dev.asa.testing.MutableClock;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One agreement from a template to CLOSED through the real server on a loopback port, over HTTP,
 * through asa-client: every state and the event chain are checked on the way.
 */
public class LifecycleEndToEndTest {
  @TempDir Path dataDir;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-22T10:00:00Z"));
  private AsaServer server;

  /** One client per party, each signing its requests with that party's key. */
  private AsaClient client;

  private AsaClient provider;
  private AsaClient evaluator;

  @BeforeEach
  void start() {
    server =
        AsaServer.start(ServerConfig.defaults().withPort(0).withDataDir(dataDir).withClock(clock));
    AsaClient anonymous = AsaClient.connect(URI.create(server.url("127.0.0.1")));
    client = anonymous.withKey(Fixtures.key("alice"), clock);
    provider = anonymous.withKey(Fixtures.key("bob"), clock);
    evaluator = anonymous.withKey(Fixtures.key("eval-1"), clock);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  /**
   * The evaluator's scores for the general template's judged dimensions (shared by other suites).
   */
  public static ObjectNode judgedScores(int accuracy, int completeness, int relevance) {
    ObjectNode r = Json.object();
    r.put("confidence", 0.85);
    r.put("model", "judge-model-x");
    var dims = r.putArray("dimensions");
    dims.addObject()
        .put("name", "accuracy")
        .put("score", accuracy)
        .put("evidence", "3 claims spot-checked")
        .put("shadow_value", 2);
    dims.addObject()
        .put("name", "completeness")
        .put("score", completeness)
        .put("evidence", "covers the question")
        .put("shadow_value", 10);
    dims.addObject().put("name", "relevance").put("score", relevance).put("evidence", "on topic");
    return r;
  }

  @Test
  void fromTemplateToClosedWithEveryStateAndAnIntactEventChain() {
    ObjectNode created = client.createAgreement(Fixtures.general());
    String id = created.path("agreement_id").asText();
    assertThat(created.path("state").asText()).isEqualTo("PROPOSED");
    assertThat(created.path("agreement_hash").asText()).matches("sha256:[0-9a-f]{64}");
    assertThat(created.path("allowed_actions"))
        .extracting(JsonNode::asText)
        .contains("sign", "negotiate", "reject");
    assertThat(created.path("agreement").path("quality_criteria").path("dimensions").size())
        .isEqualTo(4);

    // The hash is reproducible from the document alone: JCS of the terms minus
    // status/signatures/metadata.
    ObjectNode terms = (ObjectNode) client.agreement(id).path("agreement").deepCopy();
    terms.remove(List.of("status", "signatures", "metadata"));
    assertThat(Digest.sha256(dev.asa.json.Jcs.canonicalize(terms)).toString())
        .isEqualTo(created.path("agreement_hash").asText());

    ObjectNode afterClient = client.sign(id, Role.CLIENT, Fixtures.key("alice"));
    assertThat(afterClient.path("state").asText()).isEqualTo("PROPOSED");
    ObjectNode active = provider.sign(id, Role.PROVIDER, Fixtures.key("bob"));
    assertThat(active.path("state").asText()).isEqualTo("ACTIVE");
    assertThat(active.path("agreement").path("signatures").path("client").path("scheme").asText())
        .isEqualTo("ed25519");
    // The named evaluator judges; the status says so, and that the built-in evaluator does not.
    JsonNode judgedBy = client.status(id).path("judged_by");
    assertThat(judgedBy.path("builtin").asBoolean(true)).isFalse();
    assertThat(judgedBy.path("because").asText()).contains("names its evaluator");
    // The money decides which of fund and deliver can succeed, and only that one is offered.
    assertThat(client.status(id).path("allowed_actions"))
        .extracting(JsonNode::asText)
        .contains("fund")
        .doesNotContain("deliver");
    client.fund(id);
    assertThat(client.status(id).path("allowed_actions"))
        .extracting(JsonNode::asText)
        .contains("deliver")
        .doesNotContain("fund");

    clock.advance(Duration.ofMinutes(10));
    String report =
        "# Federated learning and privacy\n\nDifferential privacy bounds what a model reveals.\n";
    ObjectNode delivered = provider.deliver(id, report, "markdown");
    assertThat(delivered.path("state").asText()).isEqualTo("DELIVERED");

    ObjectNode verified = evaluator.verify(id, judgedScores(88, 82, 94));
    assertThat(verified.path("state").asText()).isEqualTo("VERIFIED");
    JsonNode result = verified.path("verification");
    assertThat(result.path("determination").path("result").asText()).isEqualTo("PASS");
    // 0.30*88 + 0.25*82 + 0.30*94 + 0.15*100 = 90.1 -> tier >= 90 releases 100%
    assertThat(result.path("composite").path("score").decimalValue()).isEqualByComparingTo("90.1");
    assertThat(result.path("determination").path("payment_release_percent").decimalValue())
        .isEqualByComparingTo("100");
    assertThat(result.path("evidence_trail").path("deliverable_hash").asText())
        .isEqualTo(
            Digest.sha256(report.getBytes(java.nio.charset.StandardCharsets.UTF_8)).toString());
    assertThat(VerificationResult.evaluationHashMatches(result)).isTrue();
    assertThat(result.path("dimensions"))
        .anySatisfy(d -> {
          assertThat(d.path("name").asText()).isEqualTo("timeliness");
          assertThat(d.path("slo_met").asBoolean()).isTrue();
        });

    // The window is open: closing is refused, with the state and the allowed actions named.
    assertThatThrownBy(() -> client.close(id))
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(409);
              assertThat(e.problem().path("current_state").asText()).isEqualTo("VERIFIED");
              assertThat(e.detail()).contains("challenge window is still open");
            });
    clock.advance(Duration.ofSeconds(7200));
    ObjectNode closed = client.close(id);
    assertThat(closed.path("state").asText()).isEqualTo("CLOSED");

    JsonNode status = client.status(id);
    assertThat(status.path("payment").path("status").asText()).isEqualTo("settled");
    assertThat(status.path("payment").path("released_to_provider").asText()).isEqualTo("10.00");
    assertThat(status.path("payment").path("refunded_to_client").asText()).isEqualTo("0.00");

    JsonNode events = client.events(id);
    assertThat(events.path("chain_valid").asBoolean()).isTrue();
    List<String> types = new ArrayList<>();
    List<String> states = new ArrayList<>();
    events
        .path("events")
        .forEach(e -> {
          types.add(e.path("type").asText());
          states.add(e.path("payload").path("state").asText());
        });
    assertThat(types)
        .containsExactly(
            "created", "signed", "signed", "funded", "delivered", "verified", "closed");
    assertThat(states)
        .containsExactly(
            "PROPOSED", "PROPOSED", "ACTIVE", "ACTIVE", "DELIVERED", "VERIFIED", "CLOSED");
    assertThat(EventChain.firstBreak(events)).isEmpty();

    // A closed agreement never changes again.
    assertThatThrownBy(() -> client.challenge(id, Role.CLIENT, "quality_below_agreed_slo"))
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(409);
              assertThat(e.detail()).contains("CLOSED is final");
            });
    assertThat(client.events(id).path("events").size()).isEqualTo(7);
  }

  /**
   * An ended agreement's log is packed into one row that keeps only the last hash: an edit of an
   * earlier event in the database must still show as a broken chain, to the server and to anyone
   * checking the log it serves.
   */
  @Test
  void anEditOfAClosedAgreementsPackedLogInTheDatabaseBreaksItsChain() throws Exception {
    String id = activeAgreement();
    provider.deliver(id, "# Notes\n\nSome text.\n", "markdown");
    evaluator.verify(id, judgedScores(90, 90, 90));
    clock.advance(Duration.ofSeconds(7200));
    client.close(id);
    assertThat(client.events(id).path("chain_valid").asBoolean()).isTrue();

    try (java.sql.Connection db =
        java.sql.DriverManager.getConnection("jdbc:sqlite:" + dataDir.resolve("asa.db"))) {
      String select =
          "SELECT t.trail FROM agreement_trails t JOIN agreements a"
              + " ON a.row_seq = t.agreement_seq WHERE a.id = ?";
      byte[] trail;
      try (var read = db.prepareStatement(select)) {
        read.setString(1, id);
        try (var rs = read.executeQuery()) {
          assertThat(rs.next()).as("the closed agreement's log is packed").isTrue();
          trail = rs.getBytes(1);
        }
      }
      String text = PackedText.unpack(trail);
      // The funding said 10.00; the edit says 1.00 (the first amount of the log is the funding's).
      String edited = text.replaceFirst("\"amount\":\"10\\.00\"", "\"amount\":\"1.00\"");
      assertThat(edited).isNotEqualTo(text);
      try (var write =
          db.prepareStatement(
              "UPDATE agreement_trails SET trail = ? WHERE agreement_seq ="
                  + " (SELECT row_seq FROM agreements WHERE id = ?)")) {
        write.setBytes(1, PackedText.pack(edited, PackedText.Dictionary.TRAIL));
        write.setString(2, id);
        assertThat(write.executeUpdate()).isEqualTo(1);
      }
    }

    JsonNode events = client.events(id);
    assertThat(events.path("events").get(3).path("payload").path("amount").asText())
        .isEqualTo("1.00");
    assertThat(events.path("chain_valid").asBoolean()).isFalse();
    assertThat(EventChain.firstBreak(events)).isPresent();
  }

  @Test
  void aLowScoreReleasesByTierAndRefundsTheRest() {
    String id = activeAgreement();
    provider.deliver(id, "# Notes\n\nSome text.\n", "markdown");
    // 0.30*70 + 0.25*60 + 0.30*70 + 0.15*100 = 72: PASS (threshold 70), and the >= 60 tier releases
    // 50%
    ObjectNode verified = evaluator.verify(id, judgedScores(70, 60, 70));
    JsonNode det = verified.path("verification").path("determination");
    assertThat(det.path("payment_release_percent").decimalValue()).isEqualByComparingTo("50");
    clock.advance(Duration.ofHours(3));
    client.close(id);
    JsonNode payment = client.status(id).path("payment");
    assertThat(payment.path("released_to_provider").asText()).isEqualTo("5.00");
    assertThat(payment.path("refunded_to_client").asText()).isEqualTo("5.00");
  }

  @Test
  void aChallengeInsideTheWindowDisputesTheResult() {
    String id = activeAgreement();
    provider.deliver(id, "# Notes\n\nSome text.\n", "markdown");
    evaluator.verify(id, judgedScores(50, 50, 50));
    ObjectNode disputed = provider.challenge(id, Role.PROVIDER, "quality_below_agreed_slo");
    assertThat(disputed.path("state").asText()).isEqualTo("DISPUTED");
    assertThat(client.status(id).path("payment").path("status").asText()).isEqualTo("frozen");
  }

  @Test
  void aChallengeAfterTheWindowIsRefused() {
    String id = activeAgreement();
    provider.deliver(id, "# Notes\n", "markdown");
    evaluator.verify(id, judgedScores(90, 90, 90));
    clock.advance(Duration.ofSeconds(7200));
    assertThatThrownBy(() -> client.challenge(id, Role.CLIENT, "quality_below_agreed_slo"))
        .isInstanceOfSatisfying(
            AsaApiException.class, e -> assertThat(e.detail()).contains("window has closed"));
  }

  @Test
  void pessimisticStrategyEnforcesAtOnce() {
    ObjectNode doc = Fixtures.general();
    doc.putObject("verification").put("strategy", "pessimistic").put("challenge_window_seconds", 0);
    String id = client.createAgreement(doc).path("agreement_id").asText();
    client.sign(id, Role.CLIENT, Fixtures.key("alice"));
    provider.sign(id, Role.PROVIDER, Fixtures.key("bob"));
    client.fund(id);
    provider.deliver(id, "# Done\n", "markdown");
    ObjectNode result = evaluator.verify(id, judgedScores(80, 80, 80));
    assertThat(result.path("state").asText()).isEqualTo("CLOSED");
  }

  @Test
  void verificationWithoutTheJudgedScoresNamesWhatIsMissingAndChangesNothing() {
    // The built-in evaluator, named by the terms, measures what it can and names what it cannot.
    String id = activeAgreement(Fixtures.judgedByBuiltIn(Fixtures.general()));
    provider.deliver(id, "# Done\n", "markdown");
    assertThatThrownBy(() -> client.verify(id))
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(422);
              assertThat(e.detail()).contains("accuracy").contains("relevance");
            });
    assertThat(client.agreement(id).path("state").asText()).isEqualTo("DELIVERED");
  }

  @Test
  void theDeliverableContentIsErasedAfterVerificationOnlyItsHashStays() throws Exception {
    String id = activeAgreement();
    String secret = "# Confidential findings\n\nThe launch code is 0000.\n";
    provider.deliver(id, secret, "markdown");
    evaluator.verify(id, judgedScores(90, 90, 90));
    try (var c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + dataDir.resolve("asa.db"));
        var rs = c.createStatement().executeQuery("SELECT * FROM deliverables")) {
      int rows = 0;
      while (rs.next()) {
        rows++;
        for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
          assertThat(String.valueOf(rs.getObject(i))).doesNotContain("launch code");
        }
      }
      assertThat(rows).isEqualTo(1);
    }
  }

  @Test
  void theMarketMedianComesFromFiveOrMoreClosedAgreementsOfTheType() {
    assertThat(client.market("general").path("medians")).isEmpty();
    assertThat(client.market("general").path("note").asText()).contains("fewer than 5");
    String[] amounts = {"8.00", "12.00", "9.00", "11.00", "10.00"};
    for (int i = 0; i < amounts.length; i++) {
      // Five distinct client-provider pairs: one pair's deals count once
      // (MarketMedianEndToEndTest).
      String seller = "bob-" + i;
      ObjectNode doc = Fixtures.general();
      ((ObjectNode) doc.path("parties"))
          .set("provider", Fixtures.party(seller, Fixtures.key(seller)));
      ((ObjectNode) doc.path("escrow").path("payment")).put("amount", amounts[i]);
      doc.putObject("verification").put("strategy", "pessimistic");
      AsaClient provider = client.withKey(Fixtures.key(seller), clock);
      String id = client.createAgreement(doc).path("agreement_id").asText();
      client.sign(id, Role.CLIENT, Fixtures.key("alice"));
      provider.sign(id, Role.PROVIDER, Fixtures.key(seller));
      client.fund(id);
      provider.deliver(id, "# Done\n", "markdown");
      assertThat(evaluator.verify(id, judgedScores(90, 90, 90)).path("state").asText())
          .isEqualTo("CLOSED");
    }
    JsonNode median = client.market("general").path("medians").get(0);
    assertThat(median.path("median_price").asText()).isEqualTo("10");
    assertThat(median.path("currency").asText()).isEqualTo("USD");
    assertThat(median.path("sample").asInt()).isEqualTo(5);
  }

  @Test
  void concurrentVerificationsOfOneDeliverableLeaveOneResultAndOthersGet409() throws Exception {
    for (int attempt = 0; attempt < 5; attempt++) {
      String id = activeAgreement();
      provider.deliver(id, "# Done\n", "markdown");
      java.util.concurrent.ExecutorService pool =
          java.util.concurrent.Executors.newFixedThreadPool(6);
      java.util.List<java.util.concurrent.Future<Integer>> answers = new java.util.ArrayList<>();
      for (int i = 0; i < 6; i++) {
        answers.add(
            pool.submit(() -> {
              try {
                evaluator.verify(id, judgedScores(90, 90, 90));
                return 200;
              } catch (AsaApiException e) {
                return e.status();
              }
            }));
      }
      java.util.List<Integer> statuses = new java.util.ArrayList<>();
      for (var f : answers) statuses.add(f.get());
      pool.shutdown();
      assertThat(statuses).containsOnly(200, 409);
      assertThat(statuses.stream().filter(s -> s == 200).count()).isEqualTo(1);
      // The money moves at most once: what left the escrow (release, refund; none yet while the
      // challenge window is open) is never more than it held.
      java.math.BigDecimal held = java.math.BigDecimal.ZERO;
      java.math.BigDecimal paidOut = java.math.BigDecimal.ZERO;
      for (com.fasterxml.jackson.databind.JsonNode t : client.escrow(id).path("transfers")) {
        java.math.BigDecimal amount = new java.math.BigDecimal(t.path("amount").asText());
        switch (t.path("kind").asText()) {
          case "hold" -> held = held.add(amount);
          case "release", "refund" -> paidOut = paidOut.add(amount);
          default -> {}
        }
      }
      assertThat(held).isEqualByComparingTo("10.00");
      assertThat(paidOut)
          .as("paid out of the escrow, attempt " + attempt)
          .isLessThanOrEqualTo(held);
    }
  }

  private String activeAgreement() {
    return activeAgreement(Fixtures.general());
  }

  private String activeAgreement(ObjectNode doc) {
    String id = client.createAgreement(doc).path("agreement_id").asText();
    client.sign(id, Role.CLIENT, Fixtures.key("alice"));
    provider.sign(id, Role.PROVIDER, Fixtures.key("bob"));
    client.fund(id);
    return id;
  }
}
