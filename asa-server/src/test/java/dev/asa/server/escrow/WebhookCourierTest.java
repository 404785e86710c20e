package dev.asa.server.escrow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.server.escrow.Courier.Attempt;
import dev.asa.server.escrow.WebhookReceiver.Mode;
import dev.asa.server.net.FetchPolicy;
import dev.asa.server.net.GuardedHttpClient;
import dev.asa.server.store.escrow.OutboxMessage;
import dev.asa.signedrequests.StandardWebhooks;
import dev.asa.testing.Fixtures;
import dev.asa.testing.MutableClock;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class WebhookCourierTest {

  private static final Ed25519PrivateKey SERVER_KEY = Fixtures.key("asa-server");
  private static final Duration TIMEOUT = Duration.ofSeconds(2);

  private final MutableClock clock = new MutableClock(Instant.now());
  private WebhookReceiver receiver;
  private WebhookCourier courier;
  private final List<AutoCloseable> toClose = new ArrayList<>();

  @BeforeEach
  void start() {
    receiver = new WebhookReceiver(SERVER_KEY.publicKey(), clock);
    courier = new WebhookCourier(SERVER_KEY, clock, TIMEOUT, allowing(receiver.uri().toString()));
  }

  /**
   * The guarded client, allowed to reach the loopback test servers listed (and nothing else
   * internal).
   */
  private static GuardedHttpClient allowing(String... prefixes) {
    return new GuardedHttpClient(new FetchPolicy(List.of(prefixes)));
  }

  @AfterEach
  void stop() throws Exception {
    courier.close();
    receiver.close();
    for (AutoCloseable c : toClose) {
      c.close();
    }
  }

  private OutboxMessage message(String id, String destination) {
    return new OutboxMessage(
        id,
        "asa-1",
        "escrow.release",
        destination,
        "{\"kind\":\"escrow.release\",\"agreement\":\"asa-1\",\"amount\":\"10.00\",\"id\":\""
            + id
            + "\"}",
        clock.instant(),
        0);
  }

  private OutboxMessage message(String id) {
    return message(id, receiver.uri().toString());
  }

  @Test
  void upReceiverGetsAVerifiedDeliveryAndTheCourierRecordsItsAnswer() {
    OutboxMessage m = message("msg-1");
    Attempt attempt = courier.deliver(m);
    assertThat(attempt).isEqualTo(new Attempt.Delivered(200, "{\"received\": true}"));
    assertThat(receiver.appliedIds()).containsExactly("msg-1");
    assertThat(receiver.appliedBodies()).isEqualTo(Map.of("msg-1", m.body()));
    assertThat(receiver.deliveriesSeen()).isEqualTo(1);
  }

  @Test
  void aRedeliveryOfTheSameIdIsAcceptedButAppliedOnce() {
    OutboxMessage m = message("msg-dup");
    assertThat(courier.deliver(m)).isInstanceOf(Attempt.Delivered.class);
    clock.advance(Duration.ofSeconds(30)); // a later attempt: new timestamp, new signature
    assertThat(courier.deliver(m)).isInstanceOf(Attempt.Delivered.class);
    assertThat(courier.deliver(message("msg-other"))).isInstanceOf(Attempt.Delivered.class);
    assertThat(receiver.deliveriesSeen()).isEqualTo(3);
    assertThat(receiver.appliedIds()).containsExactly("msg-dup", "msg-other");
  }

  @Test
  void downReceiverMeansRetryNamingTheRefusedConnectionAndUpAgainDelivers() {
    receiver.mode(Mode.DOWN);
    Attempt attempt = courier.deliver(message("msg-down"));
    assertThat(attempt).isInstanceOf(Attempt.Retry.class);
    assertThat(((Attempt.Retry) attempt).reason())
        .startsWith("connection refused: " + receiver.uri())
        .contains("ConnectException");
    assertThat(receiver.appliedIds()).isEmpty();

    receiver.mode(Mode.UP);
    assertThat(courier.deliver(message("msg-down"))).isInstanceOf(Attempt.Delivered.class);
    assertThat(receiver.appliedIds()).containsExactly("msg-down");
  }

  @Test
  void downAndUpCanBeSwitchedRepeatedlyOnTheSamePort() {
    String uri = receiver.uri().toString();
    for (int i = 0; i < 25; i++) {
      receiver.mode(Mode.DOWN);
      // Down is a retry either way: a new connection is refused, or the kept-alive one the
      // receiver closed on its way down is found shut mid-request (an I/O error); which one the
      // client meets is a race with the connection pool.
      assertThat(courier.deliver(message("msg-" + i)))
          .as("cycle %d down", i)
          .isInstanceOfSatisfying(
              Attempt.Retry.class,
              r ->
                  assertThat(r.reason())
                      .satisfiesAnyOf(
                          reason -> assertThat(reason).startsWith("connection refused"),
                          reason ->
                              assertThat(reason).startsWith("I/O error delivering to " + uri)));
      receiver.mode(i % 2 == 0 ? Mode.UP : Mode.ERRORS);
      receiver.mode(Mode.UP);
      assertThat(courier.deliver(message("msg-" + i)))
          .as("cycle %d up", i)
          .isInstanceOf(Attempt.Delivered.class);
      assertThat(receiver.uri().toString()).isEqualTo(uri);
    }
    assertThat(receiver.appliedIds()).hasSize(25);
  }

  @Test
  void erroringReceiverMeansRetryNamingTheStatus() {
    receiver.mode(Mode.ERRORS);
    Attempt attempt = courier.deliver(message("msg-500"));
    assertThat(attempt).isInstanceOf(Attempt.Retry.class);
    assertThat(((Attempt.Retry) attempt).reason())
        .startsWith("HTTP 500 from " + receiver.uri())
        .contains("failing on purpose");
    assertThat(receiver.appliedIds()).isEmpty();
    assertThat(receiver.deliveriesSeen()).isZero();

    receiver.mode(Mode.UP);
    assertThat(courier.deliver(message("msg-500"))).isInstanceOf(Attempt.Delivered.class);
  }

  @Test
  void theReceiverChecksTheSignature() {
    try (WebhookCourier impostor =
        new WebhookCourier(
            Fixtures.key("mallory"), clock, TIMEOUT, allowing(receiver.uri().toString()))) {
      Attempt attempt = impostor.deliver(message("msg-forged"));
      assertThat(attempt).isInstanceOf(Attempt.Retry.class);
      assertThat(((Attempt.Retry) attempt).reason())
          .startsWith("HTTP 401 from " + receiver.uri())
          .contains("no v1a signature");
    }
    assertThat(receiver.appliedIds()).isEmpty();
    assertThat(receiver.deliveriesSeen()).isZero();
  }

  @Test
  void aSenderClockOutsideTheToleranceIsRefusedByTheReceiver() {
    Clock behind = Clock.offset(clock, Duration.ofMinutes(-10));
    try (WebhookCourier late =
        new WebhookCourier(SERVER_KEY, behind, TIMEOUT, allowing(receiver.uri().toString()))) {
      Attempt attempt = late.deliver(message("msg-late"));
      assertThat(attempt).isInstanceOf(Attempt.Retry.class);
      assertThat(((Attempt.Retry) attempt).reason())
          .startsWith("HTTP 401")
          .contains("600s in the past");
    }
    assertThat(receiver.appliedIds()).isEmpty();
  }

  @Test
  void aSlowReceiverMeansRetryOnTimeout() {
    receiver.delay(Duration.ofSeconds(5));
    try (WebhookCourier impatient =
        new WebhookCourier(
            SERVER_KEY, clock, Duration.ofMillis(300), allowing(receiver.uri().toString()))) {
      long start = System.nanoTime();
      Attempt attempt = impatient.deliver(message("msg-slow"));
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      assertThat(attempt).isInstanceOf(Attempt.Retry.class);
      assertThat(((Attempt.Retry) attempt).reason())
          .startsWith("timed out after 300 ms delivering to " + receiver.uri());
      assertThat(took).isLessThan(Duration.ofSeconds(3));
    }
  }

  @Test
  void sendsTheStandardWebhookHeaders() throws IOException {
    Map<String, String> seen = new ConcurrentHashMap<>();
    AtomicReference<String> body = new AtomicReference<>();
    HttpServer raw =
        rawServer(exchange -> {
          exchange
              .getRequestHeaders()
              .forEach((name, values) -> seen.put(name.toLowerCase(), values.get(0)));
          seen.put(":method", exchange.getRequestMethod());
          body.set(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
          exchange.sendResponseHeaders(204, -1);
          exchange.close();
        });
    OutboxMessage m =
        message("msg-headers", "http://127.0.0.1:" + raw.getAddress().getPort() + "/hook");
    assertThat(courier.deliver(m)).isEqualTo(new Attempt.Delivered(204, ""));

    assertThat(seen)
        .containsEntry(":method", "POST")
        .containsEntry("content-type", "application/json")
        .containsEntry("user-agent", "asa-server")
        .containsEntry("webhook-id", "msg-headers")
        .containsEntry("webhook-timestamp", Long.toString(clock.instant().getEpochSecond()));
    assertThat(body.get()).isEqualTo(m.body());
    assertThatCode(() ->
            StandardWebhooks.verify(
                seen.get("webhook-id"),
                seen.get("webhook-timestamp"),
                seen.get("webhook-signature"),
                body.get(),
                SERVER_KEY.publicKey(),
                clock.instant(),
                Duration.ofMinutes(5)))
        .doesNotThrowAnyException();
  }

  @Test
  void aHugeResponseIsReadOnlyUpToTheCapAndRecordedTruncated() throws IOException {
    HttpServer raw =
        rawServer(exchange -> {
          exchange.getRequestBody().readAllBytes();
          exchange.sendResponseHeaders(200, 0); // chunked, no end in sight
          byte[] chunk = "x".repeat(8192).getBytes(StandardCharsets.US_ASCII);
          try (OutputStream out = exchange.getResponseBody()) {
            for (int i = 0; i < 100_000; i++) { // 800 MB unless the client hangs up
              out.write(chunk);
            }
          } catch (IOException expected) {
            // the courier stopped reading
          } finally {
            exchange.close();
          }
        });
    long start = System.nanoTime();
    Attempt attempt =
        courier.deliver(
            message("msg-huge", "http://127.0.0.1:" + raw.getAddress().getPort() + "/"));
    assertThat(attempt).isInstanceOf(Attempt.Delivered.class);
    assertThat(((Attempt.Delivered) attempt).response())
        .hasSize(WebhookCourier.MAX_RECORDED_RESPONSE);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(TIMEOUT);
  }

  @Test
  void redirectsAreNotFollowed() throws IOException {
    HttpServer raw =
        rawServer(exchange -> {
          exchange.getRequestBody().readAllBytes();
          exchange.getResponseHeaders().set("Location", receiver.uri().toString());
          exchange.sendResponseHeaders(307, -1);
          exchange.close();
        });
    Attempt attempt =
        courier.deliver(
            message("msg-redirect", "http://127.0.0.1:" + raw.getAddress().getPort() + "/"));
    assertThat(attempt)
        .isInstanceOfSatisfying(
            Attempt.Retry.class,
            r ->
                assertThat(r.reason())
                    .startsWith("HTTP 307")
                    .contains("redirects are not followed"));
    assertThat(receiver.deliveriesSeen()).isZero();
  }

  @Test
  void aDestinationOnAnInternalAddressTheOperatorDidNotAllowIsNotSent() {
    try (WebhookCourier guarded = new WebhookCourier(SERVER_KEY, clock, TIMEOUT, allowing())) {
      Attempt attempt = guarded.deliver(message("msg-internal"));
      assertThat(attempt)
          .isInstanceOfSatisfying(
              Attempt.Retry.class,
              r ->
                  assertThat(r.reason())
                      .startsWith("not sent: refused to call")
                      .contains("loopback")
                      .contains("--allow-fetch"));
    }
    assertThat(receiver.deliveriesSeen()).isZero();
    assertThat(receiver.appliedIds()).isEmpty();
  }

  @Test
  void secretsInTheDestinationQueryStayOutOfTheReason() {
    receiver.mode(Mode.ERRORS);
    Attempt attempt = courier.deliver(message("msg-q", receiver.uri() + "?token=s3cr3t"));
    assertThat(attempt)
        .isInstanceOfSatisfying(
            Attempt.Retry.class,
            r -> assertThat(r.reason()).startsWith("HTTP 500").doesNotContain("s3cr3t"));
  }

  @Test
  void aDestinationThatIsNotAnHttpUrlFailsForGood() {
    for (String destination :
        List.of("ftp://example.com/hook", "not a url", "mailto:ops@example.com", "/relative")) {
      assertThat(courier.deliver(message("msg-bad", destination)))
          .as(destination)
          .isInstanceOfSatisfying(
              Attempt.Failed.class,
              f -> assertThat(f.reason()).contains("cannot be sent as a webhook"));
    }
  }

  @Test
  void concurrentDeliveriesWithDuplicatesAreEachAppliedOnce() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<Attempt>> attempts = new ArrayList<>();
      for (int i = 0; i < 60; i++) {
        OutboxMessage m = message("msg-c" + (i % 20));
        attempts.add(pool.submit(() -> courier.deliver(m)));
      }
      for (Future<Attempt> f : attempts) {
        assertThat(f.get()).isInstanceOf(Attempt.Delivered.class);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(receiver.deliveriesSeen()).isEqualTo(60);
    assertThat(receiver.appliedIds()).hasSize(20).doesNotHaveDuplicates();
  }

  @Test
  void constructorRefusesANonPositiveTimeout() {
    assertThatThrownBy(() -> new WebhookCourier(SERVER_KEY, clock, Duration.ZERO, allowing()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("timeout");
  }

  private HttpServer rawServer(HttpHandler handler) throws IOException {
    HttpServer raw =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 10);
    raw.createContext("/", handler);
    ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    raw.setExecutor(threads);
    raw.start();
    // The courier may now reach this server too; the receiver stays allowed for redirect tests.
    courier =
        new WebhookCourier(
            SERVER_KEY,
            clock,
            TIMEOUT,
            allowing(
                receiver.uri().toString(), "http://127.0.0.1:" + raw.getAddress().getPort() + "/"));
    toClose.add(() -> raw.stop(0));
    toClose.add(threads::shutdownNow);
    return raw;
  }
}
