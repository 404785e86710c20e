package dev.asa.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import dev.asa.agreement.Role;
import dev.asa.client.AsaApiException;
import dev.asa.client.AsaClient;
import dev.asa.coc.CocEntry;
import dev.asa.coc.CocHashes;
import dev.asa.json.Json;
import dev.asa.server.AsaServer;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.net.FetchPolicy;
import dev.asa.testing.Fixtures;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CoC identities and evidence anchoring (issue 57, whitepaper 9.1) through real HTTP: a party's
 * chain is fetched through the outbound guard (or sent inline), verified, its length and age
 * recorded; altered entries, forks and foreign genesis entries are refused naming the entry; the
 * anchor entry appended to a chain the CoC reference wrote verifies under an independent checker
 * and is recorded as an {@code anchored} event.
 */
class CocProvenanceEndToEndTest {
  private static final Path NODE = Path.of("src/test/node/coc");

  @TempDir Path dataDir;
  AsaServer server;
  AsaClient anonymous;
  HttpServer chains;
  final Map<String, byte[]> served = new ConcurrentHashMap<>();
  final Map<String, AtomicInteger> hits = new ConcurrentHashMap<>();
  String base;

  @BeforeEach
  void start() throws Exception {
    chains = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 10);
    chains.createContext(
        "/",
        exchange -> {
          String path = exchange.getRequestURI().getPath();
          hits.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
          byte[] body = served.get(path);
          try (exchange) {
            if (body == null) {
              exchange.sendResponseHeaders(404, -1);
              return;
            }
            exchange.getResponseHeaders().set("Content-Type", "application/jsonl");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
              out.write(body);
            } catch (java.io.IOException e) {
              // the server stops reading an oversized chain: expected
            }
          }
        });
    chains.start();
    base = "http://127.0.0.1:" + chains.getAddress().getPort();
    server =
        AsaServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withDataDir(dataDir)
                .withRateLimit(10_000, 10_000)
                // Only /allowed/ on the local chain server: the rest of loopback stays refused.
                .withFetchPolicy(new FetchPolicy(List.of(base + "/allowed/"))));
    anonymous = AsaClient.connect(URI.create(server.url("127.0.0.1")));
  }

  @AfterEach
  void stop() {
    server.close();
    chains.stop(0);
  }

  // ---- identities ---------------------------------------------------------------------------

  @Test
  void aProviderWhoseChainVerifiesIsAcceptedWithLengthAndAgeRecorded() throws Exception {
    List<String> reference = referenceLines();
    serve("/allowed/bob.jsonl", reference);
    JsonNode created = create(providerIdentity(reference, base + "/allowed/bob.jsonl"), null);
    JsonNode recorded = created.path("agreement").path("metadata").path("provenance");
    JsonNode provider = recorded.path("provider");
    assertThat(provider.path("length").asLong()).isEqualTo(5);
    assertThat(provider.path("genesis").asText()).isEqualTo("sha256:" + entryHash(reference, 0));
    assertThat(provider.path("head").asText()).isEqualTo("sha256:" + entryHash(reference, 4));
    assertThat(provider.path("source").asText()).isEqualTo("url");
    Instant genesisAt = Instant.parse(provider.path("genesis_at").asText());
    Instant latestAt = Instant.parse(provider.path("latest_at").asText());
    assertThat(genesisAt).isEqualTo(java.time.OffsetDateTime.parse(ts(reference, 0)).toInstant());
    assertThat(latestAt).isEqualTo(java.time.OffsetDateTime.parse(ts(reference, 4)).toInstant());
    assertThat(provider.path("operational_age_seconds").asLong())
        .isEqualTo(java.time.Duration.between(genesisAt, latestAt).toSeconds());
    assertThat(hits.get("/allowed/bob.jsonl").get()).isEqualTo(1);
    // Readable later, as every fact is.
    String id = created.path("agreement").path("agreement_id").asText();
    assertThat(
            anonymous
                .withKey(Fixtures.key("alice"))
                .agreement(id)
                .path("agreement")
                .path("metadata")
                .path("provenance")
                .path("provider")
                .path("length")
                .asLong())
        .isEqualTo(5);
  }

  @Test
  void aChainSentInlineIsVerifiedAndItsAgeRecorded() {
    List<CocEntry> chain = ownChain("alice", 4, Instant.parse("2025-01-01T00:00:00Z"), 86_400);
    ObjectNode identity = Json.object();
    identity
        .put("scheme", "coc")
        .put("value", CocHashes.toDigest(chain.get(0).entryHash()).toString());
    identity.set("chain", array(chain));
    JsonNode created = create(null, identity);
    JsonNode client = created.path("agreement").path("metadata").path("provenance").path("client");
    assertThat(client.path("length").asLong()).isEqualTo(4);
    assertThat(client.path("operational_age_seconds").asLong()).isEqualTo(3 * 86_400);
    assertThat(client.path("source").asText()).isEqualTo("inline");
  }

  @Test
  void anAlteredEntryAForkAndAForeignGenesisAreRefusedNamingTheEntry() throws Exception {
    List<String> reference = referenceLines();
    // One altered entry: its data changed, hashes left as they were.
    List<String> altered = new ArrayList<>(reference);
    altered.set(3, altered.get(3).replace("strategy A", "strategy B"));
    serve("/allowed/altered.jsonl", altered);
    assertRefused(
        () -> create(providerIdentity(reference, base + "/allowed/altered.jsonl"), null),
        "/parties/provider/identity/chain/3/data_hash");

    // A fork: a second entry 2 hung on entry 1, properly hashed, beside the original one.
    List<CocEntry> parsed = entries(reference);
    CocEntry branch =
        CocEntry.next(parsed.get(1), ts(reference, 2), "decide", "alex", "the other branch");
    List<String> forked = new ArrayList<>(reference.subList(0, 3));
    forked.add(Json.write(branch.toJson()));
    forked.addAll(reference.subList(3, 5));
    serve("/allowed/forked.jsonl", forked);
    assertRefused(
        () -> create(providerIdentity(reference, base + "/allowed/forked.jsonl"), null),
        "/parties/provider/identity/chain/3/seq");

    // A chain that verifies, but whose genesis is not the identity's.
    serve("/allowed/bob.jsonl", reference);
    ObjectNode foreign = providerIdentity(reference, base + "/allowed/bob.jsonl");
    foreign.put("value", "sha256:" + CocHashes.sha256Hex("someone else"));
    assertRefused(() -> create(foreign, null), "/parties/provider/identity/chain/0/entry_hash");
  }

  @Test
  void theChainFetchObeysTheOutboundGuardAndItsSizeCap() throws Exception {
    List<String> reference = referenceLines();
    serve("/denied/bob.jsonl", reference);
    assertRefused(
        () -> create(providerIdentity(reference, base + "/denied/bob.jsonl"), null),
        "/parties/provider/identity/chain_url");
    assertThat(hits).doesNotContainKey("/denied/bob.jsonl"); // never called

    // Past the request body limit (16 MiB by default): refused without reading the rest.
    byte[] line = (reference.get(4) + "\n").getBytes(StandardCharsets.UTF_8);
    byte[] big = new byte[17 * 1024 * 1024];
    for (int i = 0; i + line.length <= big.length; i += line.length) {
      System.arraycopy(line, 0, big, i, line.length);
    }
    served.put("/allowed/huge.jsonl", big);
    assertRefused(
        () -> create(providerIdentity(reference, base + "/allowed/huge.jsonl"), null),
        "/parties/provider/identity/chain_url");
    assertThat(hits.get("/allowed/huge.jsonl").get()).isEqualTo(1);
  }

  @Test
  void activationFetchesTheChainAgainItMayGrowButNotChange() throws Exception {
    List<String> reference = referenceLines();
    serve("/allowed/bob.jsonl", reference);
    ObjectNode identity = providerIdentity(reference, base + "/allowed/bob.jsonl");

    // Grown between proposal and activation: accepted, the new length recorded.
    String grownId = create(identity, null).path("agreement").path("agreement_id").asText();
    List<String> grown = new ArrayList<>(reference);
    grown.add(
        Json.write(
            CocEntry.next(
                    entries(reference).get(4),
                    Instant.now().toString(),
                    "note",
                    "alex",
                    "a day's work")
                .toJson()));
    serve("/allowed/bob.jsonl", grown);
    sign(grownId);
    JsonNode active = anonymous.withKey(Fixtures.key("alice")).agreement(grownId);
    assertThat(active.path("state").asText()).isEqualTo("ACTIVE");
    assertThat(
            active
                .path("agreement")
                .path("metadata")
                .path("provenance")
                .path("provider")
                .path("length")
                .asLong())
        .isEqualTo(6);

    // Rewritten: entry 2 replaced (hashes recomputed), so entry 3 no longer follows.
    serve("/allowed/bob.jsonl", reference);
    String id = create(identity, null).path("agreement").path("agreement_id").asText();
    List<CocEntry> parsed = entries(reference);
    List<String> rewritten = new ArrayList<>(reference.subList(0, 2));
    rewritten.add(
        Json.write(
            CocEntry.next(parsed.get(1), ts(reference, 2), "learn", "alex", "history, improved")
                .toJson()));
    rewritten.addAll(reference.subList(3, 5));
    serve("/allowed/bob.jsonl", rewritten);
    anonymous.withKey(Fixtures.key("alice")).sign(id, Role.CLIENT, Fixtures.key("alice"));
    assertRefused(
        () -> anonymous.withKey(Fixtures.key("bob")).sign(id, Role.PROVIDER, Fixtures.key("bob")),
        "/parties/provider/identity/chain/3/prev_hash");
    assertThat(anonymous.withKey(Fixtures.key("alice")).agreement(id).path("state").asText())
        .isEqualTo("PROPOSED");
  }

  // ---- anchoring ----------------------------------------------------------------------------

  @Test
  void theAnchorAppendedToAReferenceChainVerifiesAndIsRecorded() throws Exception {
    assumeTrue(nodeAvailable(), "node is not installed");
    List<String> reference = referenceLines();
    serve("/allowed/bob.jsonl", reference);
    String id = closed(providerIdentity(reference, base + "/allowed/bob.jsonl"));
    AsaClient bob = anonymous.withKey(Fixtures.key("bob"));

    JsonNode anchor = bob.anchor(id);
    assertThat(anchor.path("type").asText()).isEqualTo("anchor");
    JsonNode data = Json.parse(anchor.path("data").asText());
    // Hashes only: never content.
    assertThat(data.properties().stream().map(Map.Entry::getKey).toList())
        .containsExactlyInAnyOrder(
            "format", "agreement_hash", "deliverable_digest", "evaluation_hash", "event_log_head");
    data.properties().stream()
        .filter(e -> !e.getKey().equals("format"))
        .forEach(e -> assertThat(e.getValue().asText()).matches("sha256:[0-9a-f]{64}"));
    assertThat(anchor.path("data").asText()).doesNotContain("Done");
    // The client reads the same anchor: one agreement, one set of hashes.
    assertThat(anonymous.withKey(Fixtures.key("alice")).anchor(id)).isEqualTo(anchor);

    // Bob appends it with a CoC writer that shares nothing with the server, which checks it too.
    JsonNode appended = appendWithNode(reference, anchor);
    assertThat(appended.path("valid").asBoolean()).as(appended.toString()).isTrue();
    List<String> anchored = new ArrayList<>();
    appended.path("chain").forEach(e -> anchored.add(Json.write(e)));
    Files.createDirectories(Path.of("target"));
    Files.write(Path.of("target/coc-anchored-chain.jsonl"), anchored); // for the reference's CLI
    serve("/allowed/bob.jsonl", anchored);

    JsonNode recorded =
        bob.recordAnchor(id, Json.object().put("chain_url", base + "/allowed/bob.jsonl"));
    assertThat(
            recorded
                .path("agreement")
                .path("metadata")
                .path("provenance")
                .path("provider")
                .path("length")
                .asLong())
        .isEqualTo(6);
    JsonNode event = lastEvent(id, "anchored");
    assertThat(event.path("payload").path("party").asText()).isEqualTo("provider");
    assertThat(event.path("payload").path("anchor_seq").asLong()).isEqualTo(5);
    assertThat(event.path("payload").path("chain_head").asText())
        .isEqualTo("sha256:" + appended.path("chain").get(5).path("entry_hash").asText());

    // The same chain sent inline is accepted as well.
    ArrayNode inline = (ArrayNode) appended.path("chain");
    bob.recordAnchor(id, Json.object().set("chain", inline));
  }

  @Test
  void aTamperedAnchorIsRefused() throws Exception {
    assumeTrue(nodeAvailable(), "node is not installed");
    List<String> reference = referenceLines();
    serve("/allowed/bob.jsonl", reference);
    String id = closed(providerIdentity(reference, base + "/allowed/bob.jsonl"));
    AsaClient bob = anonymous.withKey(Fixtures.key("bob"));
    JsonNode anchor = bob.anchor(id);

    // Data changed (a hash swapped), the entry properly re-hashed: a valid chain, but not ours.
    ObjectNode changed = anchor.deepCopy();
    changed.put(
        "data",
        anchor
            .path("data")
            .asText()
            .replace(
                Json.parse(anchor.path("data").asText()).path("agreement_hash").asText(),
                "sha256:" + CocHashes.sha256Hex("another agreement")));
    assertThat(changed.path("data").asText()).isNotEqualTo(anchor.path("data").asText());
    JsonNode otherData = appendWithNode(reference, changed);
    assertThat(otherData.path("valid").asBoolean()).isTrue();
    assertRefused(
        () -> bob.recordAnchor(id, Json.object().set("chain", otherData.path("chain"))), "/chain");

    // Our data, but the anchor entry's hash broken.
    JsonNode good = appendWithNode(reference, anchor);
    ArrayNode broken = good.path("chain").deepCopy();
    ((ObjectNode) broken.get(5)).put("entry_hash", CocHashes.sha256Hex("forged"));
    assertRefused(
        () -> bob.recordAnchor(id, Json.object().set("chain", broken)), "/chain/5/entry_hash");

    // Our data on a chain of another identity (another genesis).
    List<CocEntry> someoneElse = ownChain("mallory", 3, Instant.parse("2025-02-01T00:00:00Z"), 60);
    List<String> otherLines = new ArrayList<>();
    someoneElse.forEach(e -> otherLines.add(Json.write(e.toJson())));
    JsonNode foreign = appendWithNode(otherLines, anchor);
    assertRefused(
        () -> bob.recordAnchor(id, Json.object().set("chain", foreign.path("chain"))),
        "/chain/0/entry_hash");

    // The original chain without the entry removed and one entry rewritten: refused too.
    assertRefused(
        () ->
            bob.recordAnchor(
                id, Json.object().set("chain", array(entries(reference).subList(0, 4)))),
        "/chain/4");

    // Nothing was recorded by any of these.
    assertThat(lastEvent(id, "anchored")).isNull();
    // A stranger learns nothing; the client, with no CoC identity, has no chain to anchor in.
    assertThatThrownBy(() -> anonymous.withKey(Fixtures.key("mallory")).anchor(id))
        .isInstanceOfSatisfying(AsaApiException.class, e -> assertThat(e.status()).isEqualTo(404));
    assertThatThrownBy(() ->
            anonymous
                .withKey(Fixtures.key("alice"))
                .recordAnchor(id, Json.object().set("chain", good.path("chain"))))
        .isInstanceOfSatisfying(AsaApiException.class, e -> assertThat(e.status()).isEqualTo(409));
  }

  @Test
  void nothingIsAnchoredBeforeTheAgreementIsVerified() throws Exception {
    List<String> reference = referenceLines();
    serve("/allowed/bob.jsonl", reference);
    String id =
        create(providerIdentity(reference, base + "/allowed/bob.jsonl"), null)
            .path("agreement")
            .path("agreement_id")
            .asText();
    assertThatThrownBy(() -> anonymous.withKey(Fixtures.key("bob")).anchor(id))
        .isInstanceOfSatisfying(AsaApiException.class, e -> assertThat(e.status()).isEqualTo(409));
  }

  // ---- helpers ------------------------------------------------------------------------------

  /** Sybil limits can rest on a verified chain (issue 56 with 57): its length, not its dates. */
  @Test
  void eligibilityCanRequireAVerifiedChainOfSomeLength() {
    List<CocEntry> chain = ownChain("bob", 6, Instant.parse("2025-01-01T00:00:00Z"), 86_400);
    ObjectNode identity = Json.object();
    identity
        .put("scheme", "coc")
        .put("value", CocHashes.toDigest(chain.get(0).entryHash()).toString());
    identity.set("chain", array(chain));
    for (int required : new int[] {6, 7}) {
      ObjectNode doc = Fixtures.general();
      ((ObjectNode) doc.path("parties").path("provider")).set("identity", identity);
      doc.putObject("eligibility").putObject("provider").put("min_chain_length", required);
      String id =
          anonymous
              .withKey(Fixtures.key("alice"))
              .createAgreement(doc)
              .path("agreement_id")
              .asText();
      anonymous.withKey(Fixtures.key("alice")).sign(id, Role.CLIENT, Fixtures.key("alice"));
      if (required == 6) {
        assertThat(
                anonymous
                    .withKey(Fixtures.key("bob"))
                    .sign(id, Role.PROVIDER, Fixtures.key("bob"))
                    .path("state")
                    .asText())
            .isEqualTo("ACTIVE");
      } else {
        assertThatThrownBy(() ->
                anonymous.withKey(Fixtures.key("bob")).sign(id, Role.PROVIDER, Fixtures.key("bob")))
            .hasMessageContaining(
                "/eligibility/provider/min_chain_length: a verified chain of 6 entries, 7 required");
      }
    }
  }

  private JsonNode create(ObjectNode providerIdentity, ObjectNode clientIdentity) {
    ObjectNode doc = Fixtures.general();
    if (providerIdentity != null) {
      ((ObjectNode) doc.path("parties").path("provider")).set("identity", providerIdentity);
    }
    if (clientIdentity != null) {
      ((ObjectNode) doc.path("parties").path("client")).set("identity", clientIdentity);
    }
    doc.putObject("verification").put("strategy", "pessimistic");
    return anonymous.withKey(Fixtures.key("alice")).createAgreement(doc);
  }

  private void sign(String id) {
    anonymous.withKey(Fixtures.key("alice")).sign(id, Role.CLIENT, Fixtures.key("alice"));
    anonymous.withKey(Fixtures.key("bob")).sign(id, Role.PROVIDER, Fixtures.key("bob"));
  }

  /** An agreement with this provider identity taken to CLOSED. */
  private String closed(ObjectNode providerIdentity) {
    String id = create(providerIdentity, null).path("agreement").path("agreement_id").asText();
    sign(id);
    anonymous.withKey(Fixtures.key("alice")).fund(id);
    anonymous.withKey(Fixtures.key("bob")).deliver(id, "# Done\n", "markdown");
    JsonNode verified =
        anonymous
            .withKey(Fixtures.key("eval-1"))
            .verify(id, LifecycleEndToEndTest.judgedScores(90, 90, 90));
    assertThat(verified.path("state").asText()).isEqualTo("CLOSED");
    return id;
  }

  private JsonNode lastEvent(String id, String type) {
    JsonNode found = null;
    for (JsonNode e : anonymous.withKey(Fixtures.key("alice")).events(id).path("events")) {
      if (e.path("type").asText().equals(type)) {
        found = e;
      }
    }
    return found;
  }

  private static ObjectNode providerIdentity(List<String> chain, String url) throws Exception {
    ObjectNode identity = Json.object();
    identity.put("scheme", "coc").put("value", "sha256:" + entryHash(chain, 0));
    identity.put("chain_url", url);
    return identity;
  }

  private static void assertRefused(ThrowingCallable call, String pointer) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            AsaApiException.class,
            e -> {
              assertThat(e.status()).as(e.body()).isEqualTo(422);
              assertThat(e.errors()).as(e.body()).anyMatch(f -> f.pointer().equals(pointer));
            });
  }

  private void serve(String path, List<String> lines) {
    served.put(path, (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
  }

  private static JsonNode appendWithNode(List<String> lines, JsonNode anchor) throws Exception {
    ObjectNode input = Json.object();
    ArrayNode chain = input.putArray("chain");
    for (String line : lines) {
      chain.add(Json.parse(line));
    }
    input
        .putObject("append")
        .put("type", anchor.path("type").asText())
        .put("data", anchor.path("data").asText());
    return Json.parse(NodeScripts.run(NODE, "chain.js", Json.write(input)));
  }

  private static boolean nodeAvailable() {
    try {
      return new ProcessBuilder("node", "--version").start().waitFor() == 0;
    } catch (Exception e) {
      return false;
    }
  }

  static List<String> referenceLines() throws Exception {
    try (InputStream in =
        CocProvenanceEndToEndTest.class.getResourceAsStream("/dev/asa/coc/reference-chain.jsonl")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8)
          .lines()
          .filter(l -> !l.isBlank())
          .toList();
    }
  }

  private static List<CocEntry> entries(List<String> lines) throws Exception {
    List<CocEntry> out = new ArrayList<>();
    for (String line : lines) {
      out.add(CocEntry.fromJson(Json.parse(line), out.size()));
    }
    return out;
  }

  private static String entryHash(List<String> lines, int i) throws Exception {
    return Json.parse(lines.get(i)).path("entry_hash").asText();
  }

  private static String ts(List<String> lines, int i) throws Exception {
    return Json.parse(lines.get(i)).path("ts").asText();
  }

  private static List<CocEntry> ownChain(String agent, int n, Instant start, long step) {
    List<CocEntry> chain = new ArrayList<>();
    CocEntry prev = null;
    for (int i = 0; i < n; i++) {
      prev =
          CocEntry.next(
              prev,
              start.plusSeconds(i * step).toString(),
              i == 0 ? "genesis" : "note",
              agent,
              i == 0 ? "Genesis block. Agent: " + agent + "." : "entry " + i);
      chain.add(prev);
    }
    return chain;
  }

  private static ArrayNode array(List<CocEntry> chain) {
    ArrayNode a = Json.mapper().createArrayNode();
    chain.forEach(e -> a.add(e.toJson()));
    return a;
  }
}
