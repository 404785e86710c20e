package dev.asa.server.escrow;

import dev.asa.server.metrics.Metrics;
import dev.asa.server.store.db.RepeatedFailures;
import dev.asa.server.store.escrow.OutboxMessage;
import dev.asa.server.store.escrow.OutboxRow;
import dev.asa.server.store.escrow.OutboxStore;
import dev.asa.server.timers.DuePoller;
import dev.asa.server.timers.RetryPolicy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.function.Function;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers outbox messages: at least once, retrying with exponential backoff (1 s, 2 s, 4 s ...
 * capped at 15 minutes, with jitter: {@link RetryPolicy#OUTBOX}) until the destination accepts,
 * says the message can never succeed, or the policy's attempts run out and the message is dead.
 * Messages are committed with the change that caused them, so a crash between the commit and the
 * send loses nothing: the message is still pending when the server comes back. A node claims a
 * message with a lease before sending it, so with several nodes one sends it at a time; a node that
 * dies mid-send loses its lease and the message is sent again, which is why receivers deduplicate
 * on the message id.
 */
public final class Outbox {
  private static final Logger log = LoggerFactory.getLogger(Outbox.class);
  private static final RepeatedFailures pollFailures =
      new RepeatedFailures(log, Duration.ofMinutes(1));
  private static final Logger attemptLog = LoggerFactory.getLogger("dev.asa.server.events.outbox");
  static final Duration LEASE = Duration.ofSeconds(60);
  private static final int BATCH = 50;

  private final OutboxStore store;
  private final Clock clock;
  private final Function<OutboxMessage, Courier> couriers;
  private final RetryPolicy policy;
  private final RandomGenerator random;
  private final Metrics metrics;
  private final String node = "node-" + UUID.randomUUID();

  /**
   * @param couriers the courier for a message (by its kind)
   */
  public Outbox(
      OutboxStore store, Clock clock, Function<OutboxMessage, Courier> couriers, Metrics metrics) {
    this(store, clock, couriers, RetryPolicy.OUTBOX, new SplittableRandom(), metrics);
  }

  /**
   * @param policy when an undelivered message is retried, and when it is given up as dead
   * @param random the jitter of the backoff (tests pass a seeded one)
   * @param metrics where each attempt's outcome is counted
   */
  public Outbox(
      OutboxStore store,
      Clock clock,
      Function<OutboxMessage, Courier> couriers,
      RetryPolicy policy,
      RandomGenerator random,
      Metrics metrics) {
    this.store = store;
    this.clock = clock;
    this.couriers = couriers;
    this.policy = policy;
    this.random = random;
    this.metrics = metrics;
  }

  /**
   * Delivering the messages due every {@code every}, as the {@link DuePoller}'s kind {@code
   * asa-outbox} (interrupted when the server stops: a message left claimed is sent again after its
   * lease, and receivers deduplicate).
   */
  public DuePoller.Kind due(Duration every) {
    return DuePoller.Kind.interruptible(
        "asa-outbox",
        every,
        () -> {
          try {
            deliverDue();
          } catch (RuntimeException e) {
            pollFailures.warn(
                e.getClass().getName(),
                "delivering outbox messages failed; will retry: " + e.getMessage(),
                e);
          }
        });
  }

  /** Attempts every message due now, once each; returns how many were delivered. */
  public synchronized int deliverDue() {
    int delivered = 0;
    List<OutboxMessage> due;
    do {
      due = store.claimDue(clock.instant(), node, LEASE, BATCH);
      for (OutboxMessage message : due) {
        if (attempt(message)) {
          delivered++;
        }
      }
    } while (due.size() == BATCH);
    return delivered;
  }

  private boolean attempt(OutboxMessage message) {
    Courier.Attempt outcome;
    try {
      outcome = couriers.apply(message).deliver(message);
    } catch (RuntimeException e) {
      outcome = new Courier.Attempt.Retry("the courier failed: " + e);
    }
    Instant now = clock.instant();
    switch (outcome) {
      case Courier.Attempt.Delivered d -> {
        store.recordAttempt(
            message.id(),
            node,
            OutboxRow.Status.DELIVERED,
            now,
            null,
            // A status of 0 is an answer that is not HTTP's (a chain's receipt).
            (d.status() > 0 ? "HTTP " + d.status() : "")
                + (d.response() == null ? "" : (d.status() > 0 ? " " : "") + d.response()),
            now);
        attempted(message, "delivered");
        return true;
      }
      case Courier.Attempt.Failed f -> {
        log.warn(
            "outbox message {} ({}) failed for good: {}", message.id(), message.kind(), f.reason());
        store.recordAttempt(
            message.id(), node, OutboxRow.Status.FAILED, now, f.reason(), null, null);
        attempted(message, "failed");
      }
      case Courier.Attempt.Retry r -> {
        int attempts = message.attempts() + 1;
        Optional<Instant> next = policy.next(attempts, now, random);
        if (next.isPresent()) {
          store.recordAttempt(
              message.id(), node, OutboxRow.Status.PENDING, next.get(), r.reason(), null, null);
          attempted(message, "retry");
        } else {
          log.error(
              "outbox message {} ({}) to {} is dead after {} attempts, never to be sent again;"
                  + " last error: {}",
              message.id(),
              message.kind(),
              message.destination(),
              attempts,
              r.reason());
          store.recordAttempt(
              message.id(), node, OutboxRow.Status.DEAD, now, r.reason(), null, null);
          attempted(message, "dead");
        }
      }
    }
    return false;
  }

  /**
   * Counts and logs an attempt once its outcome is recorded. Neither the message's body nor the
   * destination's answer is logged (a summary of the answer is the message's {@code last_error}).
   */
  private void attempted(OutboxMessage message, String outcome) {
    metrics.outboxAttempt(outcome);
    int attempt = message.attempts() + 1;
    attemptLog
        .atInfo()
        .setMessage("outbox message {} ({}) attempt {}: {}")
        .addArgument(message.id())
        .addArgument(message.kind())
        .addArgument(attempt)
        .addArgument(outcome)
        .addKeyValue("event", "outbox_attempt")
        .addKeyValue("message_id", message.id())
        .addKeyValue("kind", message.kind())
        .addKeyValue("agreement_id", message.agreementId())
        .addKeyValue("outcome", outcome)
        .addKeyValue("attempt", attempt)
        .log();
  }
}
