package dev.asa.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;
import dev.asa.client.AsaClient;
import dev.asa.json.Json;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.testing.Fixtures;
import dev.asa.testing.MutableClock;
import java.net.URI;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /agreements/{id}/status} names the deadlines that bind the agreement now, from the
 * server's own timers: what is due from whom and when, and never a timer whose step was already
 * taken (those wait in the table to fire as no-ops).
 */
class DeadlinesEndToEndTest {
  @TempDir Path dataDir;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-22T10:00:00Z"));
  private AsaServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private static List<String> timers(JsonNode status) {
    List<String> out = new ArrayList<>();
    status
        .path("deadlines")
        .path("timers")
        .forEach(t -> out.add(t.path("kind").asText() + "@" + t.path("due_at").asText()));
    return out;
  }

  @Test
  void eachStepShowsOnlyTheDeadlinesThatStillBind() throws Exception {
    server =
        AsaServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withDataDir(dataDir)
                .withClock(clock)
                .withTimerPolling(false));
    AsaClient anonymous = AsaClient.connect(URI.create(server.url("127.0.0.1")));
    AsaClient alice = anonymous.withKey(Fixtures.key("alice"), clock);
    AsaClient bob = anonymous.withKey(Fixtures.key("bob"), clock);
    ObjectNode doc = Fixtures.general();
    doc.putObject("verification").put("challenge_window_seconds", 60);
    String id = alice.createAgreement(doc).path("agreement_id").asText();
    assertThat(timers(alice.status(id))).isEmpty();

    alice.sign(id, Role.CLIENT, Fixtures.key("alice"));
    bob.sign(id, Role.PROVIDER, Fixtures.key("bob"));
    assertThat(timers(alice.status(id)))
        .as("active and unfunded: the client's funding clock (86400 s in the template)")
        .containsExactly("client_funding_timeout@2026-11-23T10:00:00Z");

    clock.advance(java.time.Duration.ofMinutes(10));
    alice.fund(id);
    assertThat(timers(bob.status(id)))
        .as("funded: the provider's delivery clock, and no longer the client's")
        .containsExactly("provider_delivery_timeout@2026-11-23T10:10:00Z");

    bob.deliver(id, "# Federated learning\n\nDifferential privacy.\n", "markdown");
    assertThat(timers(bob.status(id)))
        .as("delivered: the evaluator's clock (3600 s)")
        .containsExactly("evaluator_timeout@2026-11-22T11:10:00Z");

    ObjectNode result = Json.object().put("confidence", 0.8);
    for (String name : new String[] {"accuracy", "completeness", "relevance"}) {
      result
          .withArray("dimensions")
          .addObject()
          .put("name", name)
          .put("score", 90)
          .put("evidence", "checked");
    }
    anonymous.withKey(Fixtures.key("eval-1"), clock).verify(id, result);
    assertThat(timers(alice.status(id)))
        .as("verified: the end of the challenge window")
        .containsExactly("challenge_window@2026-11-22T10:11:00Z");

    clock.advance(java.time.Duration.ofMinutes(2));
    alice.close(id);
    assertThat(timers(alice.status(id))).as("closed: nothing is due").isEmpty();
    assertThat(timerRows(id))
        .as("an ended agreement keeps no timer rows: none fired, all cleared at the end")
        .isZero();
  }

  /** The timers table's rows of one agreement, fired or not, read from the database itself. */
  private long timerRows(String agreementId) throws java.sql.SQLException {
    try (var connection =
            java.sql.DriverManager.getConnection("jdbc:sqlite:" + dataDir.resolve("asa.db"));
        var statement =
            connection.prepareStatement("SELECT count(*) FROM timers WHERE agreement_id = ?")) {
      statement.setString(1, agreementId);
      try (var rs = statement.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }
}
