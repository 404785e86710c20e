package dev.asa.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;
import dev.asa.client.AsaClient;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.testing.Fixtures;
import java.net.URI;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Market median poisoning (issue 12) through real HTTP: agreements a pair closes with itself do not
 * make a market. Each distinct (client, provider) pair counts once, and five pairs are needed.
 */
class MarketMedianEndToEndTest {
  @TempDir Path dataDir;
  AsaServer server;
  AsaClient anonymous;

  @BeforeEach
  void start() {
    server =
        AsaServer.start(
            ServerConfig.defaults().withPort(0).withDataDir(dataDir).withRateLimit(10_000, 10_000));
    anonymous = AsaClient.connect(URI.create(server.url("127.0.0.1")));
  }

  @AfterEach
  void stop() {
    server.close();
  }

  /**
   * One agreement between {@code client} and {@code provider} (fixture keys of those names) to
   * CLOSED.
   */
  void closeOne(String client, String clientIdentity, String provider, String amount) {
    ObjectNode doc = Fixtures.general();
    ((ObjectNode) doc.path("parties"))
        .set("client", Fixtures.party(clientIdentity, Fixtures.key(client)));
    ((ObjectNode) doc.path("parties"))
        .set("provider", Fixtures.party(provider, Fixtures.key(provider)));
    ((ObjectNode) doc.path("escrow").path("payment")).put("amount", amount);
    doc.putObject("verification").put("strategy", "pessimistic");
    AsaClient c = anonymous.withKey(Fixtures.key(client));
    AsaClient p = anonymous.withKey(Fixtures.key(provider));
    String id = c.createAgreement(doc).path("agreement_id").asText();
    c.sign(id, Role.CLIENT, Fixtures.key(client));
    p.sign(id, Role.PROVIDER, Fixtures.key(provider));
    c.fund(id);
    p.deliver(id, "# Done\n", "markdown");
    JsonNode verified =
        anonymous
            .withKey(Fixtures.key("eval-1"))
            .verify(id, LifecycleEndToEndTest.judgedScores(90, 90, 90));
    assertThat(verified.path("state").asText()).isEqualTo("CLOSED");
  }

  @Test
  void fiveClosedAgreementsBetweenTheSamePairGiveNoMedian() {
    // Mallory and her sock puppet close five agreements at a price far above the market, writing
    // Mallory's identity a little differently each time.
    String[] spellings = {"mallory", "Mallory", "MALLORY", "mallory\u200B", "\uFF4Dallory"};
    for (String spelling : spellings) {
      closeOne("mallory", spelling, "sock", "999.00");
    }
    JsonNode market = anonymous.withKey(Fixtures.key("alice")).market("general");
    assertThat(market.path("medians")).isEmpty();
    assertThat(market.path("note").asText())
        .contains("fewer than 5 distinct client-provider pairs");
  }

  @Test
  void fiveDistinctPairsGiveAMedianAndASelfDealingPairIsOneOfThem() {
    String[] amounts = {"8.00", "12.00", "9.00", "11.00"};
    for (int i = 0; i < amounts.length; i++) {
      closeOne("client-" + i, "client-" + i, "provider-" + i, amounts[i]);
    }
    for (int i = 0; i < 5; i++) {
      closeOne("mallory", "mallory", "sock", "999.00");
    }
    JsonNode median =
        anonymous.withKey(Fixtures.key("alice")).market("general").path("medians").get(0);
    assertThat(median.path("sample").asInt()).isEqualTo(5);
    // 8, 9, 11, 12 and Mallory's one voice at 999: the median is 11, not 999.
    assertThat(median.path("median_price").asText()).isEqualTo("11");
    assertThat(median.path("currency").asText()).isEqualTo("USD");
  }
}
