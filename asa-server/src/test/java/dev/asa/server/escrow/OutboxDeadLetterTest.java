package dev.asa.server.escrow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.crypto.Ed25519PrivateKey;
import dev.asa.lifecycle.State;
import dev.asa.server.escrow.WebhookReceiver.Mode;
import dev.asa.server.metrics.Metrics;
import dev.asa.server.net.FetchPolicy;
import dev.asa.server.net.GuardedHttpClient;
import dev.asa.server.store.Store;
import dev.asa.server.store.Stores;
import dev.asa.server.store.TestRows;
import dev.asa.server.store.Write;
import dev.asa.server.store.agreements.AgreementRow;
import dev.asa.server.store.escrow.OutboxMessage;
import dev.asa.server.store.escrow.OutboxRow;
import dev.asa.server.timers.RetryPolicy;
import dev.asa.testing.Fixtures;
import dev.asa.testing.MutableClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A message to a receiver that always answers 500 cannot retry forever: it ends dead. */
class OutboxDeadLetterTest {

  private static final Ed25519PrivateKey SERVER_KEY = Fixtures.key("asa-server");

  @TempDir Path dir;

  private final MutableClock clock = new MutableClock(Instant.now());
  private Store store;
  private WebhookReceiver receiver;
  private WebhookCourier courier;
  private AgreementRow agreement;

  @BeforeEach
  void start() {
    store = Stores.open(null, dir);
    agreement = TestRows.agreement("asa-outbox-dead", 1, State.PROPOSED);
    store
        .writes()
        .createAgreement(agreement, List.of(TestRows.event(agreement.id(), 1)), List.of());
    receiver = new WebhookReceiver(SERVER_KEY.publicKey(), clock);
    courier =
        new WebhookCourier(
            SERVER_KEY,
            clock,
            Duration.ofSeconds(2),
            new GuardedHttpClient(new FetchPolicy(List.of(receiver.uri().toString()))));
  }

  @AfterEach
  void stop() {
    courier.close();
    receiver.close();
    store.close();
  }

  @Test
  void aMessageToAReceiverThatAlwaysAnswers500EndsDeadAfterTheLastAttempt() {
    receiver.mode(Mode.ERRORS);
    OutboxMessage m =
        new OutboxMessage(
            "msg-dead",
            agreement.id(),
            "escrow.release",
            receiver.uri().toString(),
            "{\"kind\":\"escrow.release\",\"id\":\"msg-dead\"}",
            clock.instant(),
            0);
    store.writes().apply(List.of(new Write.Enqueue(m)));
    Instant first = clock.instant();
    Outbox outbox =
        new Outbox(
            store.outbox(),
            clock,
            x -> courier,
            RetryPolicy.OUTBOX,
            new SplittableRandom(5),
            new Metrics());
    for (int i = 0; i < RetryPolicy.OUTBOX.maxAttempts() + 5; i++) {
      OutboxRow row = store.outbox().messagesOf(agreement.id()).getFirst();
      if (row.status() != OutboxRow.Status.PENDING) break;
      assertThat(row.attempts()).isEqualTo(i);
      if (row.nextAttemptAt().isAfter(clock.instant())) {
        clock.advance(Duration.between(clock.instant(), row.nextAttemptAt()));
      }
      assertThat(outbox.deliverDue()).isZero();
    }
    OutboxRow dead = store.outbox().messagesOf(agreement.id()).getFirst();
    assertThat(dead.status()).isEqualTo(OutboxRow.Status.DEAD);
    assertThat(dead.status().name().toLowerCase(Locale.ROOT))
        .as("as GET /agreements/{id}/escrow shows it")
        .isEqualTo("dead");
    assertThat(dead.attempts()).isEqualTo(RetryPolicy.OUTBOX.maxAttempts());
    assertThat(dead.lastError()).startsWith("HTTP 500 from " + receiver.uri());
    assertThat(dead.deliveredAt()).isNull();
    assertThat(Duration.between(first, clock.instant()))
        .as("about three days of backoff")
        .isBetween(Duration.ofDays(2).plusHours(12), Duration.ofDays(3).plusHours(12));

    // Never attempted again, even when the receiver comes back.
    receiver.mode(Mode.UP);
    clock.advance(Duration.ofDays(30));
    assertThat(outbox.deliverDue()).isZero();
    assertThat(receiver.appliedIds()).isEmpty();
    assertThat(store.outbox().messagesOf(agreement.id()).getFirst().attempts())
        .isEqualTo(RetryPolicy.OUTBOX.maxAttempts());
  }
}
