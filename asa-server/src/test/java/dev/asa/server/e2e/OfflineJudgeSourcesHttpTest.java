package dev.asa.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.client.AsaClient;
import dev.asa.json.Json;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.verification.engine.VerificationConfig;
import dev.asa.testing.Fixtures;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The offline judge paid for text that is not better work (issue 52, item 5), attacked through
 * {@code POST /verifications} at semantic depth on a server with the evaluators it runs without a
 * judge: citations that lead nowhere, and a "Summarise" request that hands over no text.
 */
class OfflineJudgeSourcesHttpTest {

  private static final String REQUEST =
      "Write a short research note on whether a four-day working week raises productivity.";

  private static final String NOTE =
      "Trials of a four-day week in Iceland (2015-2019) and the United Kingdom (2022) kept output"
          + " level while cutting hours by about a fifth. Most of the 61 British firms kept the"
          + " scheme after the trial, citing lower sick leave and easier hiring. The gains were"
          + " smallest where work is tied to opening hours, such as retail and care.";

  @TempDir Path dataDir;
  private AsaServer server;
  private AsaClient client;

  @BeforeEach
  void start() {
    server =
        AsaServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withDataDir(dataDir)
                .withVerification(VerificationConfig.standard(null, 1)));
    client = AsaClient.connect(URI.create(server.url("127.0.0.1"))).withKey(Fixtures.key("alice"));
  }

  @AfterEach
  void stop() {
    server.close();
  }

  /**
   * Eight bare markers after one sentence, with no list they resolve to, took sources from 0 to 100
   * and the composite from 77.6 to 97.2. They now count for nothing, and the evidence says so.
   */
  @Test
  void bareCitationMarkersNeverPayThroughHttp() {
    BigDecimal plain = composite(NOTE);
    JsonNode marked = verify(REQUEST, NOTE + " [1][2][3][4][5][6][7][8]");
    assertThat(scoreOf(marked)).isLessThanOrEqualTo(plain);
    assertThat(dimension(marked, "sources").path("evidence").asText())
        .startsWith("0 sources cited (0 URLs, 0 DOIs, 0 numbered references [n]")
        .contains("not counted (resolving to no entry of a reference list");
  }

  /**
   * A made-up reference list nothing cites, one citation given ten times, and ten templated links
   * ({@code https://example.com/paperN}, and the same on a real-looking domain) raised the
   * composite by 11 to 18 points. Each now buys no more than the one source it is.
   */
  @Test
  void madeUpRepeatedOrTemplatedReferencesNeverPayThroughHttp() {
    BigDecimal plain = composite(NOTE);
    StringBuilder madeUp = new StringBuilder("\n\n## References\n");
    String[] authors = {"Smith", "Jones", "Brown", "Taylor", "Wilson", "Evans"};
    for (int i = 0; i < authors.length; i++) {
      madeUp
          .append(i + 1)
          .append(". ")
          .append(authors[i])
          .append(", A. (20")
          .append(10 + i)
          .append("). On working time and output. Journal of Labour Studies.\n");
    }
    assertThat(composite(NOTE + madeUp)).as("a list nothing cites").isLessThanOrEqualTo(plain);

    String one =
        "Haraldsson, G. and Kellam, J. (2021). Going Public. https://autonomy.work/iceland";
    JsonNode ofOne = verify(REQUEST, NOTE + " [1]\n\n## References\n1. " + one + "\n");
    assertThat(dimension(ofOne, "sources").path("score").decimalValue())
        .as("one real source, cited and linked, counts")
        .isPositive();
    BigDecimal cited = scoreOf(ofOne);
    StringBuilder tenCopies = new StringBuilder(NOTE + " [1][2][3][4][5][6][7][8][9][10]\n\n");
    tenCopies.append("## References\n");
    for (int i = 1; i <= 10; i++) {
      tenCopies.append(i).append(". ").append(one).append('\n');
    }
    assertThat(composite(tenCopies.toString())).as("ten copies").isLessThanOrEqualTo(cited);

    for (String site : new String[] {"https://example.com/paper", "https://papers.org/paper"}) {
      StringBuilder templated = new StringBuilder(NOTE + "\n\n## Sources\n");
      for (int i = 1; i <= 10; i++) {
        templated.append("- ").append(site).append(i).append('\n');
      }
      BigDecimal oneLine = composite(NOTE + "\n\n## Sources\n- " + site + "1\n");
      assertThat(composite(templated.toString())).as(site).isLessThanOrEqualTo(oneLine);
    }
  }

  /**
   * "Summarise the arguments for and against a four-day week" hands over no text, yet it was read
   * as reworking one, so a vague answer of no content scored 99.9. It is now read as the question
   * it is: the vague answer scores far below one that gives the arguments.
   */
  @Test
  void aVagueAnswerToSummariseWithNoTextGivenIsNoPassThroughHttp() {
    String request = "Summarise the arguments for and against a four-day week.";
    String vague =
        "There are many arguments for and against a four-day week. Some people think it is good"
            + " and others think it is bad. It depends on many things. Overall it is a complex"
            + " issue with pros and cons on both sides.";
    String summary =
        "For: trials in Iceland and Britain kept output level with a fifth fewer hours, staff"
            + " took less sick leave and reported less burnout, and employers found hiring easier."
            + " Against: work tied to opening hours, such as shops, hospitals and schools, needs"
            + " extra staff to cover the fifth day, compressed ten-hour days can tire people, and"
            + " the gains measured in office trials may not carry over to factories.";
    BigDecimal ofVague = scoreOf(verify("general", request, vague));
    BigDecimal ofSummary = scoreOf(verify("general", request, summary));
    System.out.printf("four-day week: vague %s, summary %s%n", ofVague, ofSummary);
    assertThat(ofVague).isLessThan(new BigDecimal("80"));
    assertThat(ofSummary).isGreaterThan(ofVague);
  }

  private BigDecimal composite(String content) {
    return composite(REQUEST, content);
  }

  private BigDecimal composite(String description, String content) {
    return scoreOf(verify(description, content));
  }

  private static BigDecimal scoreOf(JsonNode result) {
    JsonNode score = result.path("composite").path("score");
    assertThat(score.isNumber()).as("a composite score in %s", result).isTrue();
    return score.decimalValue();
  }

  private static JsonNode dimension(JsonNode result, String name) {
    for (JsonNode d : result.path("dimensions")) {
      if (d.path("name").asText().equals(name)) {
        return d;
      }
    }
    throw new AssertionError("no dimension " + name + " in " + result);
  }

  /** A standalone verification of a research text at semantic depth. */
  private JsonNode verify(String description, String content) {
    return verify("text/research", description, content);
  }

  private JsonNode verify(String type, String description, String content) {
    ObjectNode request = Json.object();
    request.putObject("deliverable").put("content", content).put("type", type);
    request.putObject("original_request").put("description", description);
    request.putObject("verification_config").put("depth", "semantic");
    String id = client.requestVerification(request).path("verification_id").asText();
    JsonNode result = client.awaitVerification(id, Duration.ofSeconds(60), progress -> {});
    assertThat(result.path("evaluator").path("type").asText()).isEqualTo("embedding");
    return result;
  }
}
