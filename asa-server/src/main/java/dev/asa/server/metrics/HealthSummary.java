package dev.asa.server.metrics;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.asa.agreement.Currency;
import dev.asa.json.Json;
import dev.asa.lifecycle.State;
import dev.asa.server.store.db.StoreStatistics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Clock;
import java.util.Collection;
import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * {@code GET /admin/health}: the operator's one-page summary, made of the figures {@code /metrics}
 * serves. Counters, timers and gauges are read from the {@link Metrics} registry's own meters (so
 * they are this node's, as a scrape's are); the agreements and the ledger come from the database
 * through {@link StoreStatistics}, exact decimals rather than the gauges' doubles.
 *
 * <p>Timers' {@code max} is Micrometer's: the largest value recorded in its recent window (a few
 * minutes), not since start; means are since start.
 */
public final class HealthSummary {
  private final Metrics metrics;
  private final StoreStatistics statistics;
  private final Clock clock;

  public HealthSummary(Metrics metrics, StoreStatistics statistics, Clock clock) {
    this.metrics = metrics;
    this.statistics = statistics;
    this.clock = clock;
  }

  public ObjectNode summary() {
    MeterRegistry registry = metrics.fresh();
    ObjectNode out = Json.object();
    out.put("generated_at", clock.instant().toString());
    out.putObject("agreements").set("by_state", byState());
    out.set("ledger", ledger());

    ObjectNode jobs = out.putObject("verification_jobs");
    jobs.put("queued", gauge(registry, "asa.verification.jobs.queued"));
    jobs.put("running", gauge(registry, "asa.verification.jobs.running"));
    timed(jobs, registry.find("asa.verification.jobs").timers(), "finished", "mean_ms", "max_ms");

    ObjectNode outbox = out.putObject("outbox");
    outbox.put("pending", gauge(registry, "asa.outbox.pending"));
    ObjectNode attempts = outbox.putObject("attempts");
    Map<String, Long> byOutcome = new TreeMap<>();
    for (Counter c : registry.find("asa.outbox.attempts").counters()) {
      byOutcome.merge(c.getId().getTag("outcome"), (long) c.count(), Long::sum);
    }
    byOutcome.forEach(attempts::put);

    ObjectNode timers = out.putObject("timers");
    timers.put("pending", gauge(registry, "asa.timers.pending"));
    timed(timers, registry.find("asa.timer.lag").timers(), "fired", "mean_lag_ms", "max_lag_ms");

    ObjectNode requests = out.putObject("requests");
    long count = 0;
    long errors = 0;
    for (Timer t : registry.find("asa.http.requests").timers()) {
      count += t.count();
      if (t.getId().getTag("status").startsWith("5")) {
        errors += t.count();
      }
    }
    requests.put("count", count);
    requests.put("errors_5xx", errors);
    return out;
  }

  /** Every state, zero included: how many agreements, and their amounts by currency. */
  private ObjectNode byState() {
    Map<State, ObjectNode> states = new EnumMap<>(State.class);
    ObjectNode byState = Json.object();
    for (State state : State.values()) {
      ObjectNode entry = byState.putObject(state.name());
      entry.put("count", 0L);
      entry.putObject("amounts");
      states.put(state, entry);
    }
    for (StoreStatistics.AgreementTotal total : statistics.agreementTotals()) {
      ObjectNode entry = states.get(total.state());
      entry.put("count", entry.path("count").asLong() + total.count());
      if (total.currency() != null) {
        ((ObjectNode) entry.get("amounts"))
            .put(total.currency(), decimal(total.amount(), total.currency()));
      }
    }
    return byState;
  }

  private ArrayNode ledger() {
    ArrayNode ledger = Json.mapper().createArrayNode();
    for (StoreStatistics.LedgerTotal total : statistics.ledgerTotals()) {
      ledger
          .addObject()
          .put("kind", total.kind())
          .put("currency", total.currency())
          .put("amount", decimal(total.amount(), total.currency()));
    }
    return ledger;
  }

  /**
   * How many, the mean and the recent maximum of a timer's tag sets together, in milliseconds (null
   * while nothing was recorded).
   */
  private static void timed(
      ObjectNode into, Collection<Timer> timers, String count, String mean, String max) {
    long n = 0;
    double totalMs = 0;
    double maxMs = 0;
    for (Timer t : timers) {
      n += t.count();
      totalMs += t.totalTime(TimeUnit.MILLISECONDS);
      maxMs = Math.max(maxMs, t.max(TimeUnit.MILLISECONDS));
    }
    into.put(count, n);
    if (n == 0) {
      into.putNull(mean);
      into.putNull(max);
    } else {
      into.put(mean, Math.round(totalMs / n * 10) / 10.0);
      into.put(max, Math.round(maxMs * 10) / 10.0);
    }
  }

  private static long gauge(MeterRegistry registry, String name) {
    Gauge gauge = registry.find(name).gauge();
    return gauge == null ? 0 : (long) gauge.value();
  }

  /**
   * A sum as an amount is written: with its currency's decimals (SQLite sums decimal text as
   * doubles, so this also drops their noise), or as it came for a currency this server does not
   * know.
   */
  private static String decimal(BigDecimal amount, String currency) {
    return Currency.of(currency)
        .map(c -> amount.setScale(c.decimals(), RoundingMode.HALF_EVEN).toPlainString())
        .orElseGet(() -> amount.stripTrailingZeros().toPlainString());
  }
}
