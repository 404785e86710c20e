package dev.asa.server.store.db;

import dev.asa.lifecycle.State;
import java.math.BigDecimal;
import java.util.List;

/**
 * What the metrics read from the database: each a single aggregate query over an indexed or small
 * table. The caller decides how often to ask (the metrics cache the answers between scrapes).
 */
public final class StoreStatistics {

  private static final String PENDING_OUTBOX =
      "SELECT count(*) FROM outbox WHERE status = 'pending'";
  private static final String PENDING_TIMERS =
      "SELECT count(*) FROM timers WHERE done_at IS NULL AND dead_at IS NULL";
  private static final String NONCES = "SELECT count(*) FROM request_nonces";
  // Every transfer has one credit leg, so summing credits counts each transfer once. Amounts are
  // stored as decimal text; both databases cast it to a number for the sum.
  private static final String LEDGER_TOTALS =
      "SELECT kind, currency, SUM(CAST(amount AS NUMERIC)) AS total FROM ledger_entries"
          + " WHERE direction = 'credit' GROUP BY kind, currency ORDER BY kind, currency";

  // One row per state and currency (currency NULL for agreements without payment terms, whose sum
  // is NULL too).
  private static final String AGREEMENT_TOTALS =
      "SELECT state, currency, count(*) AS n, SUM(CAST(amount AS NUMERIC)) AS total"
          + " FROM agreements GROUP BY state, currency ORDER BY state, currency";

  /**
   * The agreements in one state with one currency: how many, and their amounts added up.
   *
   * @param currency null for the agreements without payment terms
   * @param amount null exactly when {@code currency} is
   */
  public record AgreementTotal(State state, String currency, long count, BigDecimal amount) {}

  /** The amount moved by all transfers of one kind in one currency, ever. */
  public record LedgerTotal(String kind, String currency, BigDecimal amount) {}

  private final Database database;
  private final java.util.function.LongSupplier commits;

  public StoreStatistics(Database database, java.util.function.LongSupplier commits) {
    this.database = database;
    this.commits = commits;
  }

  /** Write transactions this process committed since the store opened (no query: a counter). */
  public long commits() {
    return commits.getAsLong();
  }

  /** Outbox messages still to be delivered (due or waiting for their next attempt). */
  public long pendingOutboxMessages() {
    return count("counting pending outbox messages", PENDING_OUTBOX);
  }

  /** Timers that have not fired yet (nor been given up as dead). */
  public long pendingTimers() {
    return count("counting pending timers", PENDING_TIMERS);
  }

  /** Request nonces remembered in the database (expired ones until the next prune). */
  public long nonces() {
    return count("counting request nonces", NONCES);
  }

  /** The ledger's totals by transfer kind and currency. */
  public List<LedgerTotal> ledgerTotals() {
    return database.read(
        "summing the ledger",
        handle ->
            handle
                .createQuery(LEDGER_TOTALS)
                .map((rs, context) ->
                    new LedgerTotal(
                        rs.getString("kind"),
                        rs.getString("currency"),
                        new BigDecimal(rs.getString("total"))))
                .list());
  }

  /** The agreements by state and currency, with their amounts summed. */
  public List<AgreementTotal> agreementTotals() {
    return database.read(
        "summing the agreements by state",
        handle ->
            handle
                .createQuery(AGREEMENT_TOTALS)
                .map((rs, context) -> {
                  String total = rs.getString("total");
                  return new AgreementTotal(
                      State.fromWire(rs.getString("state")),
                      rs.getString("currency"),
                      rs.getLong("n"),
                      total == null ? null : new BigDecimal(total));
                })
                .list());
  }

  private long count(String doing, String sql) {
    return database.read(doing, handle -> handle.createQuery(sql).mapTo(Long.class).one());
  }
}
