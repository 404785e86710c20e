package dev.asa.server.store;

import dev.asa.server.store.agreements.AgreementStore;
import dev.asa.server.store.agreements.EventStore;
import dev.asa.server.store.archive.ArchiveStore;
import dev.asa.server.store.db.Database;
import dev.asa.server.store.db.DuplicateKeyException;
import dev.asa.server.store.db.Migrations;
import dev.asa.server.store.db.NonceCarrier;
import dev.asa.server.store.db.NonceTable;
import dev.asa.server.store.db.Readiness;
import dev.asa.server.store.db.StaleVersionException;
import dev.asa.server.store.db.StoreStatistics;
import dev.asa.server.store.db.StoreUnavailableException;
import dev.asa.server.store.escrow.ChainTransactionStore;
import dev.asa.server.store.escrow.LedgerRefusedException;
import dev.asa.server.store.escrow.LedgerStore;
import dev.asa.server.store.escrow.OutboxStore;
import dev.asa.server.store.idempotency.IdempotencyStore;
import dev.asa.server.store.pool.CanarySetStore;
import dev.asa.server.store.pool.EvaluatorStore;
import dev.asa.server.store.reputation.ReputationStore;
import dev.asa.server.store.shadow.SealStore;
import dev.asa.server.store.timers.TimerStore;
import dev.asa.server.store.verification.DeliverableStore;
import dev.asa.server.store.verification.JobStore;
import dev.asa.server.store.verification.TaskStore;
import dev.asa.server.store.verification.VerificationStore;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The server's data, one store per concern over one shared database: what the composition root
 * wires, handing each part of the server the stores it needs. It never decides business rules; the
 * core does.
 *
 * <p>The stores are thread-safe. Failures surface as {@link StaleVersionException}, {@link
 * DuplicateKeyException}, {@link LedgerRefusedException}, {@link StoreUnavailableException}, {@link
 * IllegalArgumentException} (a reference to a row that does not exist) or {@link
 * IllegalStateException} (anything unexpected). Writes to several tables commit atomically: an
 * agreement change with its {@link Write}s ({@link Writes#commit}), or writes alone ({@link
 * Writes#apply}).
 */
public final class Store implements AutoCloseable {

  private final Database database;
  private final Map<String, String> migrations;
  private final AgreementStore agreements;
  private final EventStore events;
  private final Writes writes;
  private final TimerStore timers;
  private final OutboxStore outbox;
  private final LedgerStore ledger;
  private final JobStore jobs;
  private final DeliverableStore deliverables;
  private final VerificationStore verifications;
  private final SealStore seals;
  private final IdempotencyStore idempotency;
  private final EvaluatorStore evaluators;
  private final CanarySetStore canarySets;
  private final TaskStore tasks;
  private final ChainTransactionStore chainTransactions;
  private final ReputationStore reputation;
  private final ArchiveStore archives;

  private final StoreStatistics statistics;

  /**
   * @param migrations the migrations applied at start-up, version to script ({@link
   *     Migrations#migrate}): what {@link #readiness()} checks the database still has
   * @param listener told about each write after it committed
   */
  Store(Database raw, Map<String, String> migrations, CommitListener listener) {
    // Every store writes through the carrier: a request's waiting nonce joins its first
    // transaction, and the transactions are counted.
    NonceCarrier database = new NonceCarrier(raw);
    this.database = database;
    this.migrations = Map.copyOf(migrations);
    this.agreements = new AgreementStore(database);
    this.events = new EventStore(database);
    this.writes = new Writes(database, listener);
    this.statistics = new StoreStatistics(database, database::commits);
    this.timers = new TimerStore(database);
    this.outbox = new OutboxStore(database);
    this.ledger = new LedgerStore(database);
    this.jobs = new JobStore(database);
    this.deliverables = new DeliverableStore(database);
    this.verifications = new VerificationStore(database);
    this.seals = new SealStore(database);
    this.idempotency = new IdempotencyStore(database);
    this.evaluators = new EvaluatorStore(database);
    this.canarySets = new CanarySetStore(database);
    this.tasks = new TaskStore(database);
    this.chainTransactions = new ChainTransactionStore(database);
    this.reputation = new ReputationStore(database);
    this.archives = new ArchiveStore(database);
  }

  /**
   * Whether the store can serve: the database answers a query, and every migration of this build is
   * applied. Never throws; a check that cannot be made counts as failed, with the reason.
   */
  public Readiness readiness() {
    var outage = database.outage();
    if (outage.isPresent()) {
      return new Readiness(
          Readiness.Check.failed("the store cannot serve: " + outage.get()),
          Readiness.Check.failed("not checked: the store cannot serve"));
    }
    try {
      database.read(
          "checking readiness", h -> h.createQuery("SELECT 1").mapTo(Integer.class).one());
    } catch (RuntimeException e) {
      return new Readiness(
          Readiness.Check.failed("the database does not answer: " + e.getMessage()),
          Readiness.Check.failed("not checked: the database does not answer"));
    }
    try {
      List<String> missing = Migrations.missing(database, migrations);
      return new Readiness(
          Readiness.Check.passed(),
          missing.isEmpty()
              ? Readiness.Check.passed()
              : Readiness.Check.failed(
                  "this build's migrations are not all applied: " + String.join(", ", missing)));
    } catch (RuntimeException e) {
      return new Readiness(
          Readiness.Check.passed(),
          Readiness.Check.failed("the migration history cannot be read: " + e.getMessage()));
    }
  }

  public AgreementStore agreements() {
    return agreements;
  }

  /** The evaluator work queue. */
  public TaskStore tasks() {
    return tasks;
  }

  public EventStore events() {
    return events;
  }

  public Writes writes() {
    return writes;
  }

  public TimerStore timers() {
    return timers;
  }

  /** The transactions this server signed on a chain (the erc8183 binding's). */
  public ChainTransactionStore chainTransactions() {
    return chainTransactions;
  }

  public OutboxStore outbox() {
    return outbox;
  }

  public LedgerStore ledger() {
    return ledger;
  }

  public JobStore jobs() {
    return jobs;
  }

  public DeliverableStore deliverables() {
    return deliverables;
  }

  public VerificationStore verifications() {
    return verifications;
  }

  public SealStore seals() {
    return seals;
  }

  public IdempotencyStore idempotency() {
    return idempotency;
  }

  /** Outcomes of ended agreements and foreign signals: what reputation rests on. */
  public ReputationStore reputation() {
    return reputation;
  }

  /** Archival after retention: the archives and where each archived agreement went. */
  public ArchiveStore archives() {
    return archives;
  }

  /** The evaluator registry: registrations, track records, standings, rotation streaks. */
  public EvaluatorStore evaluators() {
    return evaluators;
  }

  /** The operator's canary set. */
  public CanarySetStore canarySets() {
    return canarySets;
  }

  /**
   * The request nonces on this database, for a request verifier with this clock and skew.
   *
   * @param clock and {@code maxSkew}: those of the server's request verifier
   */
  public NonceTable nonces(Clock clock, Duration maxSkew) {
    return new NonceTable(database, clock, maxSkew);
  }

  /** Counts and totals for the metrics: pending messages and timers, ledger totals, nonces. */
  public StoreStatistics statistics() {
    return statistics;
  }

  /** Where the data lives, for logs and the console, e.g. "SQLite /srv/asa-data/asa.db (WAL)". */
  public String describe() {
    return database.describe();
  }

  /** Releases connections; waits for a write in progress. */
  @Override
  public void close() {
    database.close();
  }
}
