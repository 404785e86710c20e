package dev.asa.server.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The server's metrics: one Prometheus registry and every series the server records, named here
 * (and, for the gauges read from the database, in {@link StoreGauges}). The composition root
 * creates one and hands it to the parts that record; {@code GET /metrics} renders it ({@link
 * #scrape}).
 *
 * <p>Tags are bounded on purpose: HTTP requests are tagged with the route template ({@code
 * /agreements/{id}}), never the path, and states, kinds and outcomes come from closed sets. Meters
 * are looked up once per distinct tag set and cached, so recording is a map lookup and an add.
 */
public final class Metrics {

  /** Latency buckets for requests and evaluators: 5 ms to 30 s. */
  private static final Duration[] LATENCY_BUCKETS = {
    Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50),
    Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1),
    Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30)
  };

  /** Timer lag buckets: a timer is polled every second, so lag under 2 s is normal. */
  private static final Duration[] LAG_BUCKETS = {
    Duration.ofMillis(100), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(2),
    Duration.ofSeconds(5), Duration.ofSeconds(15), Duration.ofSeconds(60), Duration.ofMinutes(5),
    Duration.ofMinutes(30)
  };

  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final Map<RequestKey, Timer> requests = new ConcurrentHashMap<>();
  private final Map<String, Counter> transitions = new ConcurrentHashMap<>();
  private final Map<String, Timer> jobs = new ConcurrentHashMap<>();
  private final Map<String, Timer> evaluators = new ConcurrentHashMap<>();
  private final Map<String, Counter> outboxAttempts = new ConcurrentHashMap<>();
  private final Map<String, Timer> timerLag = new ConcurrentHashMap<>();
  private final AtomicInteger jobsQueued = new AtomicInteger();
  private final AtomicInteger jobsRunning = new AtomicInteger();
  private volatile StoreGauges storeGauges;

  private record RequestKey(String route, String method, int status) {}

  public Metrics() {
    Gauge.builder("asa.verification.jobs.queued", jobsQueued, AtomicInteger::get)
        .description("Verification jobs waiting for a worker")
        .register(registry);
    Gauge.builder("asa.verification.jobs.running", jobsRunning, AtomicInteger::get)
        .description("Verification jobs being evaluated now")
        .register(registry);
  }

  /**
   * One HTTP request answered.
   *
   * @param route the matched route template, or {@code unmatched}
   */
  public void request(String route, String method, int status, long nanos) {
    requests
        .computeIfAbsent(
            new RequestKey(route, method, status),
            k ->
                Timer.builder("asa.http.requests")
                    .description("HTTP requests by route template, method and status")
                    .tag("route", k.route())
                    .tag("method", k.method())
                    .tag("status", Integer.toString(k.status()))
                    .serviceLevelObjectives(LATENCY_BUCKETS)
                    .register(registry))
        .record(nanos, TimeUnit.NANOSECONDS);
  }

  /** An agreement moved from one lifecycle state to another ({@code from} "none" at creation). */
  public void transition(String from, String to) {
    transitions
        .computeIfAbsent(
            from + "\n" + to,
            k ->
                Counter.builder("asa.lifecycle.transitions")
                    .description("Agreement state changes, by the state left and the state entered")
                    .tag("from", from)
                    .tag("to", to)
                    .register(registry))
        .increment();
  }

  /** A verification job was queued for a worker. */
  public void jobQueued() {
    jobsQueued.incrementAndGet();
  }

  /** A queued job got a worker. */
  public void jobStarted() {
    jobsQueued.decrementAndGet();
    jobsRunning.incrementAndGet();
  }

  /** A queued job left the queue without running (the server is stopping). */
  public void jobAbandoned() {
    jobsQueued.decrementAndGet();
  }

  /**
   * A running job ended.
   *
   * @param outcome {@code completed}, {@code failed} or {@code timed_out}
   */
  public void jobFinished(String outcome, long nanos) {
    jobsRunning.decrementAndGet();
    jobs.computeIfAbsent(
            outcome,
            o ->
                Timer.builder("asa.verification.jobs")
                    .description("Finished verification jobs and how long they ran, by outcome")
                    .tag("outcome", o)
                    .serviceLevelObjectives(LATENCY_BUCKETS)
                    .register(registry))
        .record(nanos, TimeUnit.NANOSECONDS);
  }

  /** One evaluation by an evaluator of a kind ({@code structural}, {@code embedding} ...). */
  public void evaluation(String kind, long nanos) {
    evaluators
        .computeIfAbsent(
            kind,
            k ->
                Timer.builder("asa.evaluator")
                    .description("Evaluations and their latency, by evaluator kind")
                    .tag("kind", k)
                    .serviceLevelObjectives(LATENCY_BUCKETS)
                    .register(registry))
        .record(nanos, TimeUnit.NANOSECONDS);
  }

  /**
   * One delivery attempt of an outbox message.
   *
   * @param outcome {@code delivered}, {@code retry} (will be tried again), {@code failed} (for
   *     good) or {@code dead} (out of attempts)
   */
  public void outboxAttempt(String outcome) {
    outboxAttempts
        .computeIfAbsent(
            outcome,
            o ->
                Counter.builder("asa.outbox.attempts")
                    .description("Outbox delivery attempts, by outcome (retry: tried again later)")
                    .tag("outcome", o)
                    .register(registry))
        .increment();
  }

  /** A durable timer fired {@code lag} after it was due. */
  public void timerFired(String kind, Duration lag) {
    timerLag
        .computeIfAbsent(
            kind,
            k ->
                Timer.builder("asa.timer.lag")
                    .description("How late durable timers fired (now minus due), by timer kind")
                    .tag("kind", k)
                    .serviceLevelObjectives(LAG_BUCKETS)
                    .register(registry))
        .record(lag.isNegative() ? Duration.ZERO : lag);
  }

  /** Registers the gauges read from the store (see {@link StoreGauges}). */
  public void watch(StoreGauges gauges) {
    gauges.register(registry);
    this.storeGauges = gauges;
  }

  /** Every series in the Prometheus text format (the store's gauges read again if stale). */
  public String scrape() {
    return fresh().scrape();
  }

  /**
   * The registry, its store gauges read again if stale: what {@link HealthSummary} reads its
   * figures from, the very meters a scrape renders.
   */
  PrometheusMeterRegistry fresh() {
    StoreGauges gauges = storeGauges;
    if (gauges != null) {
      gauges.refresh();
    }
    return registry;
  }

  /** The content type of {@link #scrape}'s answer. */
  public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
}
