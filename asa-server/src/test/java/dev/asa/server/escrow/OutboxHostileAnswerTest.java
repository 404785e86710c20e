package dev.asa.server.escrow;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.asa.lifecycle.State;
import dev.asa.server.metrics.Metrics;
import dev.asa.server.net.FetchPolicy;
import dev.asa.server.net.GuardedHttpClient;
import dev.asa.server.store.Store;
import dev.asa.server.store.Stores;
import dev.asa.server.store.TestRows;
import dev.asa.server.store.Write;
import dev.asa.server.store.agreements.AgreementRow;
import dev.asa.server.store.db.TestPostgres;
import dev.asa.server.store.escrow.OutboxMessage;
import dev.asa.server.store.escrow.OutboxRow;
import dev.asa.server.timers.RetryPolicy;
import dev.asa.testing.Fixtures;
import dev.asa.testing.MutableClock;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A webhook receiver answers whatever it likes, NUL characters included, and the outbox keeps a
 * record of each answer. PostgreSQL cannot store a NUL in text: before issue 21 the record failed
 * there, and the delivered message stayed pending, to be sent again and again.
 */
class OutboxHostileAnswerTest {
  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void anAnswerWithANulIsRecordedWithTheNulEscaped(String storeKind) throws Exception {
    TestPostgres schema = storeKind.equals("postgresql") ? TestPostgres.freshSchema() : null;
    HttpServer receiver =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    receiver.createContext(
        "/ok",
        exchange -> {
          byte[] body = "{\"received\": true}\u0000".getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    receiver.createContext(
        "/refused",
        exchange -> {
          byte[] body = "no\u0000way".getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(500, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    receiver.start();
    String base = "http://127.0.0.1:" + receiver.getAddress().getPort();
    MutableClock clock = new MutableClock(Instant.now());
    try (Store store = Stores.open(schema == null ? null : schema.url(), dir)) {
      AgreementRow agreement = TestRows.agreement("asa-outbox-nul", 1, State.PROPOSED);
      store
          .writes()
          .createAgreement(agreement, List.of(TestRows.event(agreement.id(), 1)), List.of());
      for (String route : List.of("/ok", "/refused")) {
        store
            .writes()
            .apply(
                List.of(
                    new Write.Enqueue(
                        new OutboxMessage(
                            "msg" + route.replace('/', '-'),
                            agreement.id(),
                            "escrow.release",
                            base + route,
                            "{\"kind\":\"escrow.release\"}",
                            clock.instant(),
                            0))));
      }
      WebhookCourier courier =
          new WebhookCourier(
              Fixtures.key("asa-server"),
              clock,
              Duration.ofSeconds(2),
              new GuardedHttpClient(new FetchPolicy(List.of(base + "/"))));
      Outbox outbox =
          new Outbox(
              store.outbox(),
              clock,
              x -> courier,
              RetryPolicy.OUTBOX,
              new SplittableRandom(5),
              new Metrics());
      outbox.deliverDue();
      List<OutboxRow> rows = store.outbox().messagesOf(agreement.id());
      OutboxRow ok =
          rows.stream().filter(r -> r.message().id().equals("msg-ok")).findFirst().orElseThrow();
      assertThat(ok.status()).isEqualTo(OutboxRow.Status.DELIVERED);
      assertThat(ok.response()).endsWith("{\"received\": true}\\u0000");
      OutboxRow refused =
          rows.stream()
              .filter(r -> r.message().id().equals("msg-refused"))
              .findFirst()
              .orElseThrow();
      assertThat(refused.status()).isEqualTo(OutboxRow.Status.PENDING);
      assertThat(refused.attempts()).isEqualTo(1);
      assertThat(refused.lastError()).contains("no\\u0000way");
    } finally {
      receiver.stop(0);
      if (schema != null) {
        schema.close();
      }
    }
  }
}
