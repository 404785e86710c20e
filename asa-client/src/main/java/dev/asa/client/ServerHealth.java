package dev.asa.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The operator's summary of a server ({@code GET /admin/health}): agreements by state with their
 * amounts and the ledger's totals, from the database; verification jobs, the outbox, timers and
 * requests, from the answering node's metrics. Times are in milliseconds; a maximum is the largest
 * in the metrics' recent window, a mean is since start.
 *
 * @param generatedAt when the summary was made
 * @param byState per state, every state included, in the server's order; keyed by the state's name
 *     as the server writes it (e.g. {@code CLOSED}), so that a state this SDK does not know yet is
 *     still shown
 * @param ledger the money ledger transfers ever moved, by kind and currency
 * @param verificationJobs the verification jobs
 * @param outbox the payment messages still to send, and the delivery attempts so far
 * @param timers the timers pending and fired
 * @param requests the requests answered
 * @param json the whole answer, a copy
 */
public record ServerHealth(
    Instant generatedAt,
    Map<String, StateTotal> byState,
    List<LedgerTotal> ledger,
    Jobs verificationJobs,
    Outbox outbox,
    Timers timers,
    Requests requests,
    ObjectNode json) {

  private static final String WHAT = "a health summary";

  /** Checks that nothing is null and keeps private copies. */
  public ServerHealth {
    Objects.requireNonNull(generatedAt, "generatedAt");
    byState = Collections.unmodifiableMap(new LinkedHashMap<>(byState));
    ledger = List.copyOf(ledger);
    Objects.requireNonNull(verificationJobs, "verificationJobs");
    Objects.requireNonNull(outbox, "outbox");
    Objects.requireNonNull(timers, "timers");
    Objects.requireNonNull(requests, "requests");
    json = Objects.requireNonNull(json, "json").deepCopy();
  }

  /**
   * The agreements in one state.
   *
   * @param count how many
   * @param amounts their amounts added up, per currency code, in the server's order
   */
  public record StateTotal(long count, Map<String, BigDecimal> amounts) {

    /** Keeps a private copy of the amounts. */
    public StateTotal {
      amounts = Collections.unmodifiableMap(new LinkedHashMap<>(amounts));
    }
  }

  /**
   * The money ledger transfers of one kind moved in one currency.
   *
   * @param kind e.g. {@code hold}, {@code release}
   * @param currency the currency code
   * @param amount the sum, an exact decimal
   */
  public record LedgerTotal(String kind, String currency, BigDecimal amount) {

    /** Checks that nothing is null. */
    public LedgerTotal {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(currency, "currency");
      Objects.requireNonNull(amount, "amount");
    }
  }

  /**
   * The verification jobs ({@code verification_jobs}).
   *
   * @param queued waiting to run
   * @param running running now
   * @param finished finished since the node started
   * @param meanMs their mean duration; empty while none finished
   * @param maxMs the longest recently; empty while none finished
   */
  public record Jobs(
      long queued,
      long running,
      long finished,
      Optional<BigDecimal> meanMs,
      Optional<BigDecimal> maxMs) {

    /** Checks that nothing is null. */
    public Jobs {
      Objects.requireNonNull(meanMs, "meanMs");
      Objects.requireNonNull(maxMs, "maxMs");
    }
  }

  /**
   * The outbox of payment messages ({@code outbox}).
   *
   * @param pending messages still to deliver
   * @param attempts delivery attempts by outcome ({@code delivered}, {@code retry}, {@code failed},
   *     {@code dead}), those seen so far
   */
  public record Outbox(long pending, Map<String, Long> attempts) {

    /** Keeps a private copy of the attempts. */
    public Outbox {
      attempts = Collections.unmodifiableMap(new LinkedHashMap<>(attempts));
    }
  }

  /**
   * The timers ({@code timers}).
   *
   * @param pending set and not yet due
   * @param fired fired since the node started
   * @param meanLagMs how late they fired on average; empty while none fired
   * @param maxLagMs the latest recently; empty while none fired
   */
  public record Timers(
      long pending, long fired, Optional<BigDecimal> meanLagMs, Optional<BigDecimal> maxLagMs) {

    /** Checks that nothing is null. */
    public Timers {
      Objects.requireNonNull(meanLagMs, "meanLagMs");
      Objects.requireNonNull(maxLagMs, "maxLagMs");
    }
  }

  /**
   * The requests the node answered ({@code requests}).
   *
   * @param count how many
   * @param errors5xx how many of them with a 5xx status
   */
  public record Requests(long count, long errors5xx) {}

  /**
   * Reads a summary.
   *
   * @param answer the body of {@code GET /admin/health}
   * @return the view
   * @throws IllegalArgumentException if a member named above is missing or of the wrong kind; the
   *     message names it
   */
  public static ServerHealth from(JsonNode answer) {
    ObjectNode o = Members.object(answer, WHAT);
    ObjectNode states = Members.child(Members.child(o, "agreements", WHAT), "by_state", WHAT);
    Map<String, StateTotal> byState = new LinkedHashMap<>();
    for (var e : states.properties()) {
      String what = "the state " + e.getKey() + " of " + WHAT;
      JsonNode total = Members.child(states, e.getKey(), what);
      byState.put(
          e.getKey(),
          new StateTotal(
              Members.integer(total, "count", what), Members.decimals(total, "amounts", what)));
    }
    ObjectNode jobs = Members.child(o, "verification_jobs", WHAT);
    ObjectNode outbox = Members.child(o, "outbox", WHAT);
    ObjectNode timers = Members.child(o, "timers", WHAT);
    ObjectNode requests = Members.child(o, "requests", WHAT);
    String ofJobs = WHAT + "'s verification jobs";
    String ofTimers = WHAT + "'s timers";
    String ofRequests = WHAT + "'s requests";
    return new ServerHealth(
        Members.instant(o, "generated_at", WHAT),
        byState,
        Members.requiredObjects(o, "ledger", WHAT).stream()
            .map(l -> {
              String what = "a ledger total of " + WHAT;
              return new LedgerTotal(
                  Members.text(l, "kind", what),
                  Members.text(l, "currency", what),
                  Members.decimal(l, "amount", what));
            })
            .toList(),
        new Jobs(
            Members.integer(jobs, "queued", ofJobs),
            Members.integer(jobs, "running", ofJobs),
            Members.integer(jobs, "finished", ofJobs),
            Members.optionalDecimal(jobs, "mean_ms"),
            Members.optionalDecimal(jobs, "max_ms")),
        new Outbox(
            Members.integer(outbox, "pending", WHAT + "'s outbox"),
            Members.integers(outbox, "attempts", WHAT + "'s outbox")),
        new Timers(
            Members.integer(timers, "pending", ofTimers),
            Members.integer(timers, "fired", ofTimers),
            Members.optionalDecimal(timers, "mean_lag_ms"),
            Members.optionalDecimal(timers, "max_lag_ms")),
        new Requests(
            Members.integer(requests, "count", ofRequests),
            Members.integer(requests, "errors_5xx", ofRequests)),
        o);
  }

  /**
   * The whole answer, a copy: change it freely.
   *
   * @return the answer as received
   */
  @Override
  public ObjectNode json() {
    return json.deepCopy();
  }
}
