package dev.asa.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.management.OperatingSystemMXBean;
import dev.asa.client.AsaApiException;
import dev.asa.client.AsaClient;
import dev.asa.json.Json;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.verification.engine.VerificationConfig;
import dev.asa.testing.Fixtures;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Caller input shaped to make the server's analyses burn CPU (issue 52, item 4), sent through HTTP:
 * the work is answered in time, and once it is answered nothing of it keeps computing.
 *
 * <p>CPU is the server process's own (the test runs it in this JVM), read over a quiet window after
 * the answer: a worker left computing past its answer shows there as a core's worth.
 */
class HostileInputCpuHttpTest {

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
   * 420 KB of Python whose one built string says "select" 60,000 times and never "from": the SQL
   * smell's pattern ran to the end of the text from each "select", and the job, reported stopped at
   * its 5 s deadline, went on computing for minutes. Now it is answered within the deadline, and
   * the process is quiet after the answer.
   */
  @Test
  void builtStringsOfSelectAreAnsweredAndLeaveNoCpuBurningThroughHttp() throws Exception {
    String code = "q = \"" + "select ".repeat(60_000) + "\" + table\n";
    ObjectNode request = Json.object();
    request
        .putObject("deliverable")
        .put("content", code)
        .put("format", "python")
        .put("type", "code");
    request.putObject("original_request").put("description", "Write a query builder");
    request
        .putObject("verification_config")
        .put("depth", "semantic")
        .put("evaluator_timeout_seconds", 5);

    long started = System.nanoTime();
    String id = client.requestVerification(request).path("verification_id").asText();
    JsonNode answer = client.awaitVerification(id, Duration.ofSeconds(60), progress -> {});
    double seconds = (System.nanoTime() - started) / 1e9;
    double cpuAfter = cpuSecondsOver(Duration.ofSeconds(4));
    System.out.printf(
        "select-strings: answered in %.1f s (%s), server CPU in the 4 s after: %.2f s%n",
        seconds, answer.path("status").asText("completed"), cpuAfter);

    assertThat(answer.path("composite").path("score").isNumber())
        .as("a verdict within the 5 s deadline, not a job stopped at it: %s", answer)
        .isTrue();
    assertThat(cpuAfter).as("CPU the server burns after answering").isLessThan(1.0);
  }

  /**
   * A deliverable schema whose {@code pattern} backtracks in polynomial time ({@code ^(.*a){8}$},
   * 40 characters took 10 s on JDK 25, each more character multiplies it): a structural
   * verification applies it in the request's own thread, which held for minutes. Matched with RE2
   * it answers at once; a pattern RE2 cannot run is refused with 422 naming it.
   */
  @Test
  void aBacktrackingSchemaPatternIsAnsweredAtOnceThroughHttp() throws Exception {
    ObjectNode request = structural("{\"s\": \"" + "a".repeat(60) + "b\"}", "^(.*a){8}$");
    long started = System.nanoTime();
    JsonNode result =
        CompletableFuture.supplyAsync(() -> (JsonNode) client.requestVerification(request))
            .get(20, TimeUnit.SECONDS);
    double seconds = (System.nanoTime() - started) / 1e9;
    double cpuAfter = cpuSecondsOver(Duration.ofSeconds(2));
    System.out.printf(
        "schema pattern: answered in %.2f s, server CPU in the 2 s after: %.2f s%n",
        seconds, cpuAfter);
    assertThat(result.path("determination").path("result").asText()).isEqualTo("FAIL");
    assertThat(result.path("dimensions").findValuesAsText("evidence"))
        .anyMatch(e -> e.contains("failed: schema_valid"));
    assertThat(cpuAfter).isLessThan(1.0);
    // The pattern is applied, not skipped: a string it matches passes.
    JsonNode matching =
        client.requestVerification(structural("{\"s\": \"" + "a".repeat(60) + "\"}", "^(.*a){8}$"));
    assertThat(matching.path("determination").path("result").asText()).isEqualTo("PASS");

    assertThatThrownBy(() -> client.requestVerification(structural("{\"s\": \"aa\"}", "(a)\\1")))
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(422);
              assertThat(e.body())
                  .contains("/quality_criteria/deliverable_schema/properties/s/pattern")
                  .contains("linear time");
            });
  }

  /** A structural verification of a JSON deliverable against a schema with one string pattern. */
  private static ObjectNode structural(String json, String pattern) {
    ObjectNode request = Json.object();
    request.putObject("deliverable").put("content", json).put("format", "json").put("type", "data");
    request.putObject("original_request").put("description", "Return the record");
    ObjectNode criteria = request.putObject("quality_criteria");
    criteria
        .putArray("dimensions")
        .addObject()
        .put("name", "format_compliance")
        .put("weight", 1)
        .put("metric", "percentage")
        .putObject("slo")
        .put("operator", "gte")
        .put("value", 100);
    criteria.put("composite_method", "weighted_average").put("composite_threshold", 70);
    ObjectNode schema = criteria.putObject("deliverable_schema");
    schema.put("type", "object");
    schema.putObject("properties").putObject("s").put("type", "string").put("pattern", pattern);
    request.putObject("verification_config").put("depth", "structural");
    return request;
  }

  /** The CPU time this process spends over the window, in seconds. */
  private static double cpuSecondsOver(Duration window) throws InterruptedException {
    OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long before = os.getProcessCpuTime();
    Thread.sleep(window.toMillis());
    return (os.getProcessCpuTime() - before) / 1e9;
  }
}
