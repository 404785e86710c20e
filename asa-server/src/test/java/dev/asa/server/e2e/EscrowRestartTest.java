package dev.asa.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Role;
import dev.asa.client.AsaClient;
import dev.asa.crypto.Ed25519PublicKey;
import dev.asa.json.Json;
import dev.asa.server.AsaServer;
import dev.asa.server.ServerKey;
import dev.asa.server.config.ServerConfig;
import dev.asa.server.escrow.EscrowConfig;
import dev.asa.server.escrow.WebhookReceiver;
import dev.asa.server.net.FetchPolicy;
import dev.asa.testing.Fixtures;
import dev.asa.testing.MutableClock;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Escrow survives a crash: timers and payment messages that were pending when the server died are
 * acted on once, and only once, by the next server on the same data directory.
 *
 * <p>The first server runs in a <b>child JVM that is killed with SIGKILL</b> (no shutdown hook, no
 * close, like {@code SqliteCrashTest}); its clock is frozen at the start instant, so it never acts
 * on a deadline itself. Through it, over HTTP with asa-client, four agreements are set up:
 *
 * <ol>
 *   <li>A: verified (accuracy 70, completeness 60, relevance 70: composite 72, 50% released) with
 *       the optimistic 7200 s challenge window pending;
 *   <li>B: {@code http_callback} escrow funded while the payment system's receiver is DOWN: its
 *       {@code escrow.fund_requested} message was attempted, refused, and is pending;
 *   <li>C: ledger escrow funded, not delivered: the provider's 86400 s timeout is pending;
 *   <li>D: {@code http_callback} escrow funded while the receiver is slow: the child is killed
 *       while its courier waits for the answer, so the receiver applies the message but the dead
 *       server never records it as delivered (the message stays claimed by the dead node).
 * </ol>
 *
 * Then a new server (in this JVM, with a movable clock, a new node id) opens the same directory.
 * The clock moves two days, past every deadline. To check the lease rule, C's provider timer is
 * left as a node killed in the middle of firing it leaves it: claimed by the dead node for 60 s
 * more (the child's frozen clock cannot claim anything due, so this one claim is written into the
 * database between the kill and the restart). The new server fires A's and B's (and D's) deadlines
 * at once, C's only after the lease has run out; it delivers every pending message, D's a second
 * time, which the receiver deduplicates. A second, orderly restart changes nothing.
 */
class EscrowRestartTest {
  private static final Instant T0 = Instant.parse("2026-11-22T10:00:00Z");
  private static final Duration LEASE = Duration.ofSeconds(60);

  @TempDir Path dataDir;
  @TempDir Path logs;
  private final MutableClock clock = new MutableClock(T0);
  private final List<AutoCloseable> toClose = new ArrayList<>();
  private Process child;

  @AfterEach
  void stop() throws Exception {
    if (child != null && child.isAlive()) {
      child.destroyForcibly();
      child.waitFor(30, TimeUnit.SECONDS);
    }
    for (int i = toClose.size() - 1; i >= 0; i--) {
      toClose.get(i).close();
    }
  }

  @Test
  void pendingTimersAndMessagesAreActedOnOnceAfterASigkillAndASecondRestartChangesNothing()
      throws Exception {
    // The receiver checks signatures with the server's key: make it first; both servers load it.
    Ed25519PublicKey serverKey = ServerKey.loadOrCreate(dataDir).publicKey();
    WebhookReceiver receiver = new WebhookReceiver(serverKey, clock);
    toClose.add(receiver);
    String prefix = receiver.uri().toString();

    // ---- the first server: a child JVM, killed ----------------------------------------------
    URI first = startChild(prefix);
    AsaClient anonymous = AsaClient.connect(first);
    AsaClient client = anonymous.withKey(Fixtures.key("alice"), clock);
    AsaClient provider = anonymous.withKey(Fixtures.key("bob"), clock);
    AsaClient evaluator = anonymous.withKey(Fixtures.key("eval-1"), clock);

    String a = active(client, provider, Fixtures.general());
    client.fund(a);
    provider.deliver(
        a, "# Federated learning\n\nDifferential privacy bounds leakage.\n", "markdown");
    JsonNode verified = evaluator.verify(a, LifecycleEndToEndTest.judgedScores(70, 60, 70));
    assertThat(verified.path("state").asText()).isEqualTo("VERIFIED");
    assertThat(
            verified
                .path("verification")
                .path("determination")
                .path("payment_release_percent")
                .decimalValue())
        .isEqualByComparingTo("50");

    receiver.mode(WebhookReceiver.Mode.DOWN);
    String b = active(client, provider, callbackAgreement(prefix));
    client.fund(b);
    String bFund = "msg_" + b + "_fund_requested";
    await(
        "the dead server attempted B's message while the receiver was down",
        () -> attempts(bFund) >= 1);

    String c = active(client, provider, Fixtures.general());
    client.fund(c);

    receiver.delay(Duration.ofSeconds(4));
    receiver.mode(WebhookReceiver.Mode.UP);
    String d = active(client, provider, callbackAgreement(prefix));
    client.fund(d);
    String dFund = "msg_" + d + "_fund_requested";
    await("the dead server's courier claimed D's message", () -> claimedBy(dFund) != null);
    Thread.sleep(1500); // the request is on the wire; the receiver sits in its delay

    Map<String, String> pendingTimers = pendingTimers();
    assertThat(pendingTimers.values())
        .as("pending before the crash")
        .contains(
            a + " challenge_window",
            b + " provider_delivery_timeout",
            c + " provider_delivery_timeout",
            d + " provider_delivery_timeout");

    child.destroyForcibly(); // SIGKILL
    assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(child.exitValue()).as("killed, not exited").isNotZero();

    // The receiver applies D's message although its sender is gone (its answer goes nowhere).
    await("the receiver applied D's message", () -> receiver.appliedIds().contains(dFund));
    receiver.delay(Duration.ZERO);
    assertThat(receiver.appliedIds()).containsExactly(dFund);
    assertThat(status(dFund))
        .as("the dead server never recorded D's delivery")
        .isEqualTo("pending");
    assertThat(claimedBy(dFund)).startsWith("node-");
    assertThat(status(bFund)).isEqualTo("pending");

    // ---- the second server: this JVM, two days later ------------------------------------------
    clock.advance(Duration.ofDays(2));
    String cTimer = c + ":provider_delivery_timeout";
    claimAsDeadNode(cTimer, clock.instant().plus(LEASE));
    receiver.mode(WebhookReceiver.Mode.UP);

    AsaServer second = startServer(prefix);
    client =
        AsaClient.connect(URI.create(second.url("127.0.0.1")))
            .withKey(Fixtures.key("alice"), clock);
    settle(second);

    assertThat(state(client, a)).isEqualTo("CLOSED");
    assertThat(state(client, b)).isEqualTo("EXPIRED");
    assertThat(state(client, d)).isEqualTo("EXPIRED");
    assertThat(state(client, c))
        .as("C's timer is leased to the dead node for 60 s more")
        .isEqualTo("ACTIVE");
    assertThat(pendingTimers()).containsOnlyKeys(cTimer);

    clock.advance(LEASE.plusSeconds(1));
    settle(second);
    assertThat(state(client, c)).isEqualTo("EXPIRED");
    assertThat(pendingTimers()).as("every timer fired").isEmpty();

    // Each deadline acted exactly once: one ending event, one transfer of each kind.
    assertThat(eventTypes(client, a))
        .containsExactly(
            "created", "signed", "signed", "funded", "delivered", "verified", "closed");
    for (String id : List.of(b, c, d)) {
      assertThat(eventTypes(client, id))
          .as(id)
          .containsExactly("created", "signed", "signed", "funded", "expired");
    }
    Map<String, JsonNode> views = new LinkedHashMap<>();
    for (String id : List.of(a, b, c, d)) {
      views.put(id, client.escrow(id));
    }
    assertTransfers(
        views.get(a),
        a,
        "ledger",
        List.of("fund 10.00", "hold 10.00", "release 5.00", "refund 5.00"));
    for (String id : List.of(b, d)) {
      assertTransfers(
          views.get(id), id, "http_callback", List.of("fund 10.00", "hold 10.00", "refund 10.00"));
    }
    assertTransfers(views.get(c), c, "ledger", List.of("fund 10.00", "hold 10.00", "refund 10.00"));
    for (JsonNode view : views.values()) {
      assertThat(view.path("status").asText()).isEqualTo("settled");
      assertThat(view.path("balances").path("USD").asText())
          .as("the escrow account is empty")
          .isEqualTo("0.00");
    }

    // Every message was delivered, and applied once by the payment system.
    assertThat(views.get(a).path("messages")).isEmpty();
    assertThat(views.get(c).path("messages")).isEmpty();
    List<String> messageIds = new ArrayList<>();
    for (String id : List.of(b, d)) {
      JsonNode messages = views.get(id).path("messages");
      assertThat(messages)
          .extracting(m -> m.path("kind").asText())
          .as(id)
          .containsExactly("escrow.fund_requested", "escrow.refund");
      for (JsonNode m : messages) {
        assertThat(m.path("status").asText()).as(m.toString()).isEqualTo("delivered");
        assertThat(m.path("response").asText()).as(m.toString()).startsWith("HTTP 200");
        messageIds.add(m.path("webhook_id").asText());
      }
    }
    assertThat(views.get(b).path("messages").get(0).path("attempts").asInt())
        .as("refused once, then delivered")
        .isEqualTo(2);
    assertThat(views.get(d).path("messages").get(0).path("attempts").asInt())
        .as("the dead node's attempt is not counted")
        .isEqualTo(1);
    assertThat(receiver.appliedIds())
        .doesNotHaveDuplicates()
        .containsExactlyInAnyOrderElementsOf(messageIds);
    assertThat(receiver.deliveriesSeen())
        .as("D's fund request reached the receiver twice")
        .isEqualTo(messageIds.size() + 1);
    for (String id : List.of(b, d)) {
      JsonNode refund =
          Json.parseTrusted(receiver.appliedBodies().get("msg_" + id + "_refund")).path("data");
      assertThat(refund.path("instruction").asText()).isEqualTo("refund");
      assertThat(refund.path("amount").asText()).isEqualTo("10.00");
      assertThat(refund.path("transfer_id").asText()).isEqualTo(id + "/refund");
    }
    String aliceKey = Fixtures.key("alice").publicKey().toBase64Url();
    String bobKey = Fixtures.key("bob").publicKey().toBase64Url();
    assertThat(client.account(aliceKey).path("balances").path("USD").asText()).isEqualTo("35.00");
    AsaClient bobAtSecond =
        AsaClient.connect(URI.create(second.url("127.0.0.1"))).withKey(Fixtures.key("bob"), clock);
    assertThat(bobAtSecond.account(bobKey).path("balances").path("USD").asText()).isEqualTo("5.00");
    Map<String, Integer> events = new LinkedHashMap<>();
    for (String id : views.keySet()) {
      events.put(id, client.events(id).path("events").size());
    }
    List<String> applied = receiver.appliedIds();
    int seen = receiver.deliveriesSeen();

    // ---- a second restart, orderly this time: nothing left to do ------------------------------
    second.close();
    toClose.remove(second);
    clock.advance(Duration.ofDays(10));
    AsaServer third = startServer(prefix);
    client =
        AsaClient.connect(URI.create(third.url("127.0.0.1"))).withKey(Fixtures.key("alice"), clock);
    settle(third);
    for (String id : views.keySet()) {
      assertThat(client.escrow(id)).as(id).isEqualTo(views.get(id));
      assertThat(client.events(id).path("events").size()).as(id).isEqualTo(events.get(id));
    }
    assertThat(pendingTimers()).isEmpty();
    assertThat(receiver.appliedIds()).isEqualTo(applied);
    assertThat(receiver.deliveriesSeen()).as("nothing delivered again").isEqualTo(seen);
    System.out.println(
        "EscrowRestartTest: A "
            + a
            + " CLOSED, B "
            + b
            + " / C "
            + c
            + " / D "
            + d
            + " EXPIRED; "
            + pendingTimers.size()
            + " timers pending at the crash, "
            + messageIds.size()
            + " messages applied once, "
            + seen
            + " deliveries seen");
  }

  // ---- the agreements -------------------------------------------------------------------------

  private static ObjectNode callbackAgreement(String prefix) {
    ObjectNode doc = Fixtures.general();
    doc.with("escrow")
        .putObject("binding")
        .put("type", "http_callback")
        .put("url", prefix + "/pay");
    return doc;
  }

  private static String active(AsaClient client, AsaClient provider, ObjectNode doc) {
    String id = client.createAgreement(doc).path("agreement_id").asText();
    client.sign(id, Role.CLIENT, Fixtures.key("alice"));
    assertThat(provider.sign(id, Role.PROVIDER, Fixtures.key("bob")).path("state").asText())
        .isEqualTo("ACTIVE");
    return id;
  }

  private static String state(AsaClient client, String id) {
    return client.agreement(id).path("state").asText();
  }

  private static List<String> eventTypes(AsaClient client, String id) {
    JsonNode events = client.events(id);
    assertThat(events.path("chain_valid").asBoolean()).as(id).isTrue();
    List<String> types = new ArrayList<>();
    events.path("events").forEach(e -> types.add(e.path("type").asText()));
    return types;
  }

  private static void assertTransfers(
      JsonNode view, String id, String binding, List<String> expected) {
    List<String> transfers = new ArrayList<>();
    for (JsonNode t : view.path("transfers")) {
      transfers.add(t.path("kind").asText() + " " + t.path("amount").asText());
      assertThat(t.path("transfer_id").asText()).isEqualTo(id + "/" + t.path("kind").asText());
    }
    assertThat(transfers).as(id).containsExactlyInAnyOrderElementsOf(expected);
    for (JsonNode t : view.path("transfers")) {
      String kind = t.path("kind").asText();
      String from = t.path("from").asText();
      String to = t.path("to").asText();
      switch (kind) {
        case "fund" -> assertThat(from).isEqualTo("external:" + binding);
        case "hold" -> assertThat(to).isEqualTo("escrow:" + id);
        case "release" ->
            assertThat(to).isEqualTo("party:" + Fixtures.key("bob").publicKey().toBase64Url());
        case "refund" ->
            assertThat(to).isEqualTo("party:" + Fixtures.key("alice").publicKey().toBase64Url());
        default -> throw new AssertionError("unexpected transfer " + t);
      }
    }
  }

  // ---- the servers ----------------------------------------------------------------------------

  /** Starts the first server in a child JVM (clock frozen at T0) and returns its address. */
  private URI startChild(String prefix) throws IOException, InterruptedException {
    String java = ProcessHandle.current().info().command().orElseThrow();
    Path out = logs.resolve("child.out");
    Path err = logs.resolve("child.err");
    child =
        new ProcessBuilder(
                java,
                "-cp",
                System.getProperty("java.class.path"),
                ServerProcess.class.getName(),
                dataDir.toString(),
                prefix,
                T0.toString())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      for (String line : Files.readAllLines(out, StandardCharsets.UTF_8)) {
        if (line.startsWith("PORT ")) {
          return URI.create("http://127.0.0.1:" + line.substring(5).trim());
        }
      }
      if (!child.isAlive()) {
        break;
      }
      Thread.sleep(50);
    }
    throw new AssertionError(
        "the child server did not start; its stderr:\n" + Files.readString(err));
  }

  private AsaServer startServer(String prefix) {
    AsaServer server =
        AsaServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withDataDir(dataDir)
                .withClock(clock)
                .withEscrow(EscrowConfig.DEFAULTS.withCallbackUrlPrefixes(List.of(prefix)))
                .withFetchPolicy(new FetchPolicy(List.of(prefix))));
    toClose.add(server);
    return server;
  }

  /**
   * Fires the due timers and delivers the due messages, a few rounds (a firing can enqueue a
   * message).
   */
  private static void settle(AsaServer server) {
    for (int i = 0; i < 3; i++) {
      server.fireDueTimers();
      server.deliverDueMessages();
    }
  }

  /** The first server: started by {@link #startChild}, never closed, killed by the test. */
  public static final class ServerProcess {
    private ServerProcess() {}

    public static void main(String[] args) throws IOException {
      Path dir = Path.of(args[0]);
      MutableClock frozen = new MutableClock(Instant.parse(args[2]));
      AsaServer server =
          AsaServer.start(
              ServerConfig.defaults()
                  .withPort(0)
                  .withDataDir(dir)
                  .withClock(frozen)
                  .withEscrow(EscrowConfig.DEFAULTS.withCallbackUrlPrefixes(List.of(args[1])))
                  .withFetchPolicy(new FetchPolicy(List.of(args[1]))));
      System.out.println("PORT " + server.port());
      System.out.flush();
      // Runs until killed; exits if the test's JVM goes away (its stdin closes).
      while (System.in.read() != -1) {
        // ignore input
      }
      System.exit(3);
    }
  }

  // ---- the database, read (and once written) directly ------------------------------------------

  private Connection db() throws SQLException {
    return DriverManager.getConnection("jdbc:sqlite:" + dataDir.resolve("asa.db"));
  }

  /** Timers not yet fired: id -> "agreement kind". */
  private Map<String, String> pendingTimers() throws SQLException {
    Map<String, String> out = new LinkedHashMap<>();
    try (Connection c = db();
        ResultSet rs =
            c.createStatement()
                .executeQuery(
                    "SELECT id, agreement_id, kind FROM timers WHERE done_at IS NULL ORDER BY due_at, id")) {
      while (rs.next()) {
        out.put(rs.getString(1), rs.getString(2) + " " + rs.getString(3));
      }
    }
    return out;
  }

  /** What a node killed while firing the timer leaves behind: its claim, until {@code until}. */
  private void claimAsDeadNode(String timerId, Instant until) throws SQLException {
    try (Connection c = db();
        PreparedStatement s =
            c.prepareStatement(
                "UPDATE timers SET claimed_by = 'node-killed', claimed_until = ? WHERE id = ? AND done_at IS NULL")) {
      s.setLong(1, until.toEpochMilli());
      s.setString(2, timerId);
      assertThat(s.executeUpdate()).as("timer " + timerId + " pending").isEqualTo(1);
    }
  }

  private int attempts(String messageId) {
    return outboxColumn(messageId, "attempts") instanceof Number n ? n.intValue() : -1;
  }

  private String claimedBy(String messageId) {
    return (String) outboxColumn(messageId, "claimed_by");
  }

  private String status(String messageId) {
    return (String) outboxColumn(messageId, "status");
  }

  private Object outboxColumn(String messageId, String column) {
    try (Connection c = db();
        PreparedStatement s =
            c.prepareStatement("SELECT " + column + " FROM outbox WHERE id = ?")) {
      s.setString(1, messageId);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next() ? rs.getObject(1) : null;
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting until " + what);
      }
      Thread.sleep(20);
    }
  }
}
