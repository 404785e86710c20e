package dev.asa.server.store;

import dev.asa.lifecycle.State;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The persistence contract: stores agreements, their event logs and side records, with atomic
 * multi-row writes and optimistic concurrency. It never decides business rules; the core does.
 *
 * <p>Implementations are thread-safe. Failures surface as {@link StaleVersionException}, {@link
 * DuplicateKeyException}, {@link StoreUnavailableException}, {@link IllegalArgumentException} (a
 * reference to a row that does not exist) or {@link IllegalStateException} (anything unexpected).
 */
public interface AgreementStore extends AutoCloseable {

  /** Where the data lives, for logs and the console, e.g. "SQLite /srv/asa-data/asa.db (WAL)". */
  String describe();

  /** Inserts a new agreement (version as given, normally 1), its first events and side writes. */
  void create(AgreementRow row, List<EventRecord> events, List<Write> writes);

  /**
   * Applies one change if the stored version still equals {@code commit.expectedVersion()};
   * otherwise throws {@link StaleVersionException} and writes nothing. {@code createdAt} of the
   * stored row never changes.
   */
  void commit(Commit commit);

  /** Applies writes not tied to an agreement change, in one transaction. */
  void apply(List<Write> writes);

  Optional<AgreementRow> find(String id);

  /**
   * Claims up to {@code limit} timers due at {@code now} for {@code node}, each for {@code lease}:
   * a timer another node holds (an unexpired lease) or has finished is not returned, so each timer
   * is acted on by one node at a time; a node that dies mid-action loses its lease, and the timer
   * comes due again.
   */
  List<TimerRow> claimDueTimers(Instant now, String node, Duration lease, int limit);

  /** Marks a claimed timer fired (only the node holding it can). */
  void finishTimer(String id, String node, Instant at);

  /**
   * Records that a claimed timer's action failed (only the node holding it can): its attempts go up
   * by one, {@code error} is kept and the claim released. With {@code retryAt} the timer comes due
   * again then; with null it is dead at {@code at}: never claimed again, listed by {@link
   * #deadTimers}. Setting the timer again (a {@link Write.SetTimer}) makes it live, with no
   * failures.
   */
  void failTimer(String id, String node, String error, Instant retryAt, Instant at);

  /** The agreement's timers not yet fired (nor dead), soonest first. */
  List<TimerRow> pendingTimers(String agreementId);

  /** Up to {@code limit} dead timers (their action failed too often), the most recent first. */
  List<TimerRow> deadTimers(int limit);

  /**
   * The agreements sub-contracted from {@code parentId} (linked at their creation), oldest first.
   */
  List<AgreementRow> children(String parentId);

  /** The newest agreements of a service type in a state (e.g. CLOSED, for the market median). */
  List<AgreementRow> recent(String serviceType, State state, int limit);

  /** The agreement's event log, ordered by seq. */
  List<EventRecord> events(String agreementId);

  /** The newest event of the agreement's log (what the next event chains to). */
  Optional<EventRecord> lastEvent(String agreementId);

  /**
   * Agreements where {@code identityValue} is the client, provider or evaluator, newest first.
   *
   * @param cursor null for the first page, else the {@code nextCursor} of the previous page
   * @param limit page size, at least 1
   */
  Page<AgreementRow> listByParty(String identityValue, String cursor, int limit);

  /** The deliverable with the highest attempt number. */
  Optional<DeliverableRow> latestDeliverable(String agreementId);

  Optional<VerificationRow> verification(String verificationId);

  /** Oldest first. */
  List<VerificationRow> verificationsForAgreement(String agreementId);

  Optional<IdempotencyRow> idempotency(String scope, String key);

  Optional<JobRow> job(String id);

  /** The job a request with this key started, if any (replays find the first job). */
  Optional<JobRow> jobByKey(String requestKey);

  /** Jobs queued or running, oldest first: what a restarted node resumes. */
  List<JobRow> unfinishedJobs();

  /**
   * Records where a queued or running job has got to; false (and nothing written) when the job has
   * already finished.
   */
  boolean recordJobProgress(
      String id, JobRow.Status status, String stage, int done, int total, Instant at);

  /** The payment authorization captured when the agreement was funded (x402), if any. */
  Optional<String> authorization(String agreementId);

  /** The ledger entries of an agreement's transfers, oldest first. */
  List<LedgerEntry> ledgerOfAgreement(String agreementId);

  /** The newest {@code limit} entries of a ledger account, newest first. */
  List<LedgerEntry> ledgerOfAccount(String account, int limit);

  /** The agreement's outbox messages with their delivery state, oldest first. */
  List<OutboxRow> outboxOf(String agreementId);

  /**
   * Claims up to {@code limit} pending messages due at {@code now} for {@code node}, each for
   * {@code lease}, like {@link #claimDueTimers}.
   */
  List<OutboxMessage> claimDueMessages(Instant now, String node, Duration lease, int limit);

  /**
   * Records how a delivery attempt of a claimed message ended and releases the claim (only the node
   * holding it can): {@code PENDING} with the next attempt time, {@code DELIVERED}, {@code FAILED}
   * for good (the other side said so) or {@code DEAD} (it failed too often).
   */
  void recordAttempt(
      String messageId,
      String node,
      OutboxRow.Status status,
      Instant nextAttemptAt,
      String error,
      String response,
      Instant deliveredAt);

  /** A seal of Shadow Scoring criteria by its id. */
  Optional<SealRow> seal(String id);

  /** The seal of an agreement (one at most). */
  Optional<SealRow> sealOfAgreement(String agreementId);

  /** Who read a seal's criteria, oldest first. */
  List<SealRead> sealReads(String sealId);

  /** Releases connections; waits for a write in progress. */
  @Override
  void close();
}
