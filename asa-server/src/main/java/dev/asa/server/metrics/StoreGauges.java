package dev.asa.server.metrics;

import dev.asa.server.store.db.StoreStatistics;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gauges whose values live in the database (outbox backlog, pending timers, ledger totals, stored
 * nonces) or in memory elsewhere (the nonce cache). The database is asked when a scrape comes and
 * the last answer is older than {@link #MAX_AGE}, never on the request path, so scraping every
 * second costs at most four small queries every few seconds.
 */
public final class StoreGauges {
  private static final Logger log = LoggerFactory.getLogger(StoreGauges.class);
  static final Duration MAX_AGE = Duration.ofSeconds(5);

  private final StoreStatistics statistics;
  private final LongSupplier nonceCacheSize;
  private final Clock clock;
  private final AtomicLong pendingOutbox = new AtomicLong();
  private final AtomicLong pendingTimers = new AtomicLong();
  private final AtomicLong storedNonces = new AtomicLong();
  private final Map<String, Double> ledger = new ConcurrentHashMap<>();
  private MeterRegistry registry;
  private Instant readAt = Instant.EPOCH;

  /**
   * @param nonceCacheSize how many nonces the in-memory replay cache holds
   */
  public StoreGauges(StoreStatistics statistics, LongSupplier nonceCacheSize, Clock clock) {
    this.statistics = statistics;
    this.nonceCacheSize = nonceCacheSize;
    this.clock = clock;
  }

  synchronized void register(MeterRegistry into) {
    this.registry = into;
    Gauge.builder("asa.outbox.pending", pendingOutbox, AtomicLong::get)
        .description("Outbox messages not yet delivered (the backlog)")
        .register(into);
    Gauge.builder("asa.timers.pending", pendingTimers, AtomicLong::get)
        .description("Durable timers that have not fired yet")
        .register(into);
    Gauge.builder("asa.nonces", storedNonces, AtomicLong::get)
        .description("Request nonces remembered against replays, by where")
        .tag("store", "database")
        .register(into);
    Gauge.builder("asa.nonces", nonceCacheSize, s -> s.getAsLong())
        .description("Request nonces remembered against replays, by where")
        .tag("store", "memory")
        .register(into);
    io.micrometer.core.instrument.FunctionCounter.builder(
            "asa.store.commits", statistics, StoreStatistics::commits)
        .description("Write transactions committed (per request: this over the request count)")
        .register(into);
    refresh();
  }

  /** Reads the store again when the last reading is older than {@link #MAX_AGE}. */
  synchronized void refresh() {
    Instant now = clock.instant();
    if (registry == null || Duration.between(readAt, now).compareTo(MAX_AGE) < 0) {
      return;
    }
    readAt = now;
    try {
      pendingOutbox.set(statistics.pendingOutboxMessages());
      pendingTimers.set(statistics.pendingTimers());
      storedNonces.set(statistics.nonces());
      for (StoreStatistics.LedgerTotal total : statistics.ledgerTotals()) {
        String key = total.kind() + "\n" + total.currency();
        if (ledger.put(key, total.amount().doubleValue()) == null) {
          Gauge.builder("asa.ledger.transferred", ledger, m -> m.getOrDefault(key, 0.0))
              .description("Money moved by ledger transfers ever, by transfer kind and currency")
              .tag("kind", total.kind())
              .tag("currency", total.currency())
              .register(registry);
        }
      }
    } catch (RuntimeException e) { // a scrape must not fail because the database is away
      log.warn("reading the store's gauges failed; the last values stay: {}", e.toString());
    }
  }
}
