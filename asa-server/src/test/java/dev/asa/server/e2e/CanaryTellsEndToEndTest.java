package dev.asa.server.e2e;

import static dev.asa.server.e2e.PoolAgreements.activate;
import static dev.asa.server.e2e.PoolAgreements.pooled;
import static dev.asa.server.e2e.PoolAgreements.verification;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import dev.asa.client.AsaClient;
import dev.asa.crypto.Digest;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.crypto.KeyFile;
import dev.asa.integrity.PoolMember;
import dev.asa.integrity.QualificationPolicy;
import dev.asa.integrity.Standing;
import dev.asa.json.Json;
import dev.asa.server.AsaServer;
import dev.asa.server.ServerKey;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.net.FetchPolicy;
import dev.asa.server.pool.AssignmentConfig;
import dev.asa.testing.Fixtures;
import dev.asa.testing.MutableClock;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 53, item 1, played by the attacker: an evaluator that wants to judge canaries with care and
 * everything else as it pleases studies its queue through HTTP, every way it can (grouped by
 * creation time and deadline, by time to answer, by id, by shape, by how the deliverable comes),
 * and finds no tell. Then it plays the rule that used to work ("a task that arrives alone is real
 * work: pass it") and is caught by the canaries that now come alone too.
 *
 * <p>The server's key is made from a seed (printed), so the canary placements of a run can be
 * replayed; the assertions hold for any seed.
 */
class CanaryTellsEndToEndTest {
  static final String DELIVERED =
      "# Federated learning\n\nDifferential privacy bounds leakage; secure aggregation hides"
          + " updates.\n";
  private static final int DELIVERIES = 30;

  @TempDir Path dataDir;
  private final long seed = Long.getLong("asa.test.seed", 53);
  private final Random random = new Random(seed);
  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-24T10:00:00Z"));
  private final InMemoryPool pool = new InMemoryPool(QualificationPolicy.DEFAULTS);
  private HttpServer deliverables;
  private AsaServer server;
  private AsaClient client;
  private AsaClient provider;
  private AsaClient judge;

  @BeforeEach
  void start() throws IOException {
    System.out.println("CanaryTellsEndToEndTest seed " + seed + " (-Dasa.test.seed to replay)");
    KeyFile.write(
        dataDir.resolve(ServerKey.FILE_NAME),
        Ed25519PrivateKey.fromSeed(
            Digest.sha256(("server " + seed).getBytes(StandardCharsets.UTF_8)).bytes()));
    deliverables =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 10);
    deliverables.createContext(
        "/report.md",
        exchange -> {
          byte[] body = DELIVERED.getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    deliverables.start();
    server =
        AsaServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withDataDir(dataDir)
                .withClock(clock)
                .withOperatorKey(Fixtures.key("operator").publicKey())
                .withRateLimit(10_000, 10_000)
                .withTimerPolling(false)
                .withFetchPolicy(new FetchPolicy(List.of(base() + "/")))
                .withAssignment(AssignmentConfig.DEFAULTS.withPool(pool)));
    AsaClient anonymous = AsaClient.connect(URI.create(server.url("127.0.0.1")));
    client = anonymous.withKey(Fixtures.key("alice"), clock);
    provider = anonymous.withKey(Fixtures.key("bob"), clock);
    judge = anonymous.withKey(Fixtures.key("judge"), clock);
    // Qualified (90.7% of its canaries passed), but not so well that it earns rarer canaries.
    pool.register(
        new PoolMember(
            InMemoryPool.profile("judge"),
            InMemoryPool.record(600, 300, 272, "4"),
            Standing.ACTIVE));
    ArrayNode set = Json.mapper().createArrayNode();
    for (int i = 0; i < 2 * DELIVERIES; i++) { // known-bad work, of several sizes
      ObjectNode c = set.addObject();
      c.put("id", "general-bad-" + i);
      c.put("service_type", "general");
      c.putObject("request").put("description", "Explain how TLS certificates are checked");
      c.putObject("deliverable")
          .put("content", "# Certificates\n\n" + "Browsers check them. ".repeat(1 + i % 7))
          .put("format", "markdown");
      c.set(
          "criteria",
          dev.asa.template.Templates.get("general")
              .orElseThrow()
              .defaults()
              .get("quality_criteria"));
      c.putObject("known_scores").put("accuracy", 20).put("completeness", 15).put("relevance", 30);
      c.put("tolerance", 15);
    }
    anonymous.withKey(Fixtures.key("operator"), clock).loadCanaries(set);
  }

  @AfterEach
  void stop() {
    server.close();
    deliverables.stop(0);
  }

  private String base() {
    return "http://127.0.0.1:" + deliverables.getAddress().getPort();
  }

  /** What the attacker writes down about each task the first time it sees it. */
  record Seen(JsonNode task, Instant firstSeen, int position, int listed) {
    String createdAt() {
      return task.path("created_at").asText();
    }

    String deadline() {
      return task.path("deadline").asText();
    }

    Duration timeToAnswer() {
      return Duration.between(Instant.parse(createdAt()), Instant.parse(deadline()));
    }

    /** Ground truth, which the attacker does not have: the test does. */
    boolean real() {
      return task.path("deliverable").path("content").asText().equals(DELIVERED);
    }
  }

  private final Map<String, Seen> seen = new LinkedHashMap<>();

  private List<JsonNode> poll() {
    List<JsonNode> listed = new ArrayList<>();
    judge.evaluatorTasks().path("tasks").forEach(listed::add);
    for (int i = 0; i < listed.size(); i++) {
      JsonNode t = listed.get(i);
      seen.putIfAbsent(t.path("task_id").asText(), new Seen(t, clock.instant(), i, listed.size()));
    }
    return listed;
  }

  private void deliver(String id, boolean byUrl) {
    ObjectNode doc = pooled(id);
    verification(doc)
        .putObject("canary_tasks")
        .put("enabled", true)
        .put("frequency", "1_per_1_deliveries")
        .put("failure_action", "flag_and_continue");
    verification(doc).putObject("rotation").put("max_consecutive", 1000);
    verification(doc).put("evaluator_timeout_seconds", 6 * 3600);
    activate(client, provider, doc);
    client.fund(id);
    clock.advance(Duration.ofMinutes(5));
    if (byUrl) {
      provider.deliverByUrl(
          id, base() + "/report.md", Digest.sha256(DELIVERED.getBytes(StandardCharsets.UTF_8)));
    } else {
      provider.deliver(id, DELIVERED, "markdown");
    }
  }

  /** The scores an honest judge gives: the real work is good, the canaries are not. */
  private static ObjectNode honest(JsonNode task) {
    boolean good = task.path("deliverable").path("content").asText().equals(DELIVERED);
    return EvaluatorWorkQueueEndToEndTest.scores(good ? 88 : 22, good ? 82 : 18, good ? 94 : 28);
  }

  @Test
  void nothingInATaskOrItsTimingTellsACanaryFromRealWork() {
    for (int i = 0; i < DELIVERIES; i++) {
      clock.advance(Duration.ofSeconds(1 + random.nextInt(20 * 60)));
      deliver("asa-tells-" + i, i % 3 == 2);
      clock.advance(Duration.ofSeconds(1 + random.nextInt(20 * 60)));
      for (JsonNode t : poll()) { // the attacker plays it safe here: it answers every task honestly
        judge.answerTask(t.path("task_id").asText(), honest(t));
      }
    }
    for (int i = 0; i < 14; i++) { // the lone canaries still to come arrive within 6 hours
      clock.advance(Duration.ofMinutes(30));
      for (JsonNode t : poll()) {
        judge.answerTask(t.path("task_id").asText(), honest(t));
      }
    }

    List<Seen> all = new ArrayList<>(seen.values());
    List<Seen> real = all.stream().filter(Seen::real).toList();
    List<Seen> canaries = all.stream().filter(s -> !s.real()).toList();
    assertThat(real).hasSize(DELIVERIES);
    assertThat(canaries).hasSize(DELIVERIES);

    // Grouped by creation time and deadline: a group of one may be a canary, and a pair holds
    // real work beside another task.
    Map<String, List<Seen>> groups = new LinkedHashMap<>();
    all.forEach(
        s -> groups.computeIfAbsent(s.createdAt() + s.deadline(), k -> new ArrayList<>()).add(s));
    long loneCanaries =
        groups.values().stream().filter(g -> g.size() == 1 && !g.get(0).real()).count();
    long loneReal = groups.values().stream().filter(g -> g.size() == 1 && g.get(0).real()).count();
    long pairs = groups.values().stream().filter(g -> g.size() == 2).count();
    System.out.printf(
        "seed %d: %d lone canaries, %d lone real tasks, %d pairs%n",
        seed, loneCanaries, loneReal, pairs);
    assertThat(loneCanaries).as("canaries come alone").isGreaterThanOrEqualTo(5);
    assertThat(pairs).as("real work comes beside another task").isGreaterThanOrEqualTo(5);
    assertThat(groups.values())
        .allSatisfy(g -> assertThat(g.size()).isBetween(1, 2))
        .filteredOn(g -> g.size() == 2)
        .allSatisfy(g -> assertThat(g.stream().filter(Seen::real).count()).isEqualTo(1));

    // Time to answer: every canary's is one that real work has too.
    Set<Duration> realTimes = new HashSet<>();
    real.forEach(s -> realTimes.add(s.timeToAnswer()));
    assertThat(canaries).allSatisfy(s -> assertThat(realTimes).contains(s.timeToAnswer()));

    // Shape: the same members, the deliverable always inline (never the provider's URL), ids of
    // one form, nothing that names a canary.
    Set<String> shape = fields(all.get(0).task());
    for (Seen s : all) {
      assertThat(fields(s.task())).isEqualTo(shape);
      assertThat(fields(s.task().path("deliverable"))).containsExactly("content", "format");
      assertThat(s.task().path("task_id").asText()).matches("tsk-[0-9a-f]{32}");
      assertThat(s.task().toString())
          .doesNotContain("general-bad")
          .doesNotContain("known_scores")
          .doesNotContain(base());
    }
    // Order: the listing is by deadline, then by the random id, so within a pair either may come
    // first.
    long canaryFirst =
        groups.values().stream()
            .filter(g -> g.size() == 2)
            .filter(g -> {
              Seen a = g.get(0).position() <= g.get(1).position() ? g.get(0) : g.get(1);
              return !a.real();
            })
            .count();
    System.out.printf("pairs with the canary listed first: %d of %d%n", canaryFirst, pairs);
    assertThat(canaryFirst).isBetween(1L, pairs - 1);
  }

  @Test
  void anEvaluatorThatPassesLoneTasksAsItPleasesIsCaught() {
    // The rule that used to be safe: a task alone is real work, so pass it without reading it;
    // judge pairs (one of them a canary) with care.
    int deliveries = 0;
    int badPaid = 0;
    while (pool.policy()
        .assess(pool.memberNamed("judge").record(), pool.memberNamed("judge").standing())
        .qualified()) {
      assertThat(deliveries).as("out of the pool within a few deliveries").isLessThan(20);
      deliver("asa-lone-" + deliveries, false);
      deliveries++;
      clock.advance(Duration.ofSeconds(1 + random.nextInt(40 * 60)));
      List<JsonNode> listed = poll();
      Map<String, List<JsonNode>> byTime = new LinkedHashMap<>();
      listed.forEach(t ->
          byTime
              .computeIfAbsent(
                  t.path("created_at").asText() + t.path("deadline").asText(),
                  k -> new ArrayList<>())
              .add(t));
      for (List<JsonNode> group : byTime.values()) {
        for (JsonNode t : group) {
          ObjectNode answer =
              group.size() == 1 ? EvaluatorWorkQueueEndToEndTest.scores(100, 100, 100) : honest(t);
          if (group.size() == 1
              && !t.path("deliverable").path("content").asText().equals(DELIVERED)) {
            badPaid++; // a canary it passed: in real life, bad work paid in full
          }
          judge.answerTask(t.path("task_id").asText(), answer);
        }
      }
    }
    var record = pool.memberNamed("judge").record();
    System.out.printf(
        "seed %d: out of the pool after %d deliveries; %d lone canaries passed as good;"
            + " record %d/%d canaries%n",
        seed, deliveries, badPaid, record.canaryPasses(), record.canaryTasks());
    assertThat(record.canaryTasks() - record.canaryPasses()).isGreaterThanOrEqualTo(2);
  }

  private static Set<String> fields(JsonNode node) {
    Set<String> out = new TreeSet<>();
    node.fieldNames().forEachRemaining(out::add);
    return out;
  }
}
