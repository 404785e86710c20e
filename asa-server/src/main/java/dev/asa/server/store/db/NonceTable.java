package dev.asa.server.store.db;

import dev.asa.signedrequests.NonceRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The request nonces in the database (V008 {@code request_nonces}), so that a replay is refused
 * after a restart and by every node sharing the database, not only by the process that saw the
 * request first. The server layers its in-memory {@link dev.asa.signedrequests.NonceCache} in front
 * (see {@link NonceRegistry#layered}): a replay to the same node never reaches the database.
 *
 * <p>A pair is kept as its {@link NonceRegistry#fingerprint} (V025): 16 bytes where the key id and
 * the nonce took about 70, twice (the row and its key's index), and all a row has to answer is
 * whether the pair was used.
 *
 * <p>The decision is one statement: an insert on the primary key (the pair's digest) that, on
 * conflict, takes over the row only if it has expired. Of two nodes recording the same pair at
 * once, exactly one inserts (PostgreSQL makes the second wait for the first, then sees its live
 * row); SQLite has a single writer anyway. Expired rows are deleted at most once per {@link
 * #PRUNE_EVERY}, by whichever request comes first after that.
 *
 * <p>The table shares the store's {@link Database} and does not own it: closing the {@code Store}
 * closes it.
 */
public final class NonceTable implements NonceRegistry {

  /** How often expired rows are deleted; between prunes they are only dead weight, never wrong. */
  static final Duration PRUNE_EVERY = Duration.ofSeconds(60);

  // "excluded" names the row that was refused; the WHERE makes a live row win the conflict.
  // Positional (a plain statement, in every write's transaction): digest, keep until, now.
  private static final String RECORD =
      "INSERT INTO request_nonces (digest, expires_at) VALUES (?, ?)"
          + " ON CONFLICT (digest) DO UPDATE SET expires_at = excluded.expires_at"
          + " WHERE request_nonces.expires_at < ?";
  private static final String PRUNE = "DELETE FROM request_nonces WHERE expires_at < :now";

  private final Database database;
  private final Clock clock;
  private final Duration maxSkew;
  private final AtomicLong nextPrune = new AtomicLong(Long.MIN_VALUE);

  public NonceTable(Database database, Clock clock, Duration maxSkew) {
    this.database = Objects.requireNonNull(database, "database");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.maxSkew = Objects.requireNonNull(maxSkew, "maxSkew");
  }

  @Override
  public Duration maxSkew() {
    return maxSkew;
  }

  /**
   * @throws StoreUnavailableException when the database cannot be reached: the request is then
   *     refused (503), never accepted unrecorded
   */
  @Override
  public boolean firstUse(String keyId, String nonce, Instant created) {
    Instant now = clock.instant();
    long nowSecond = now.getEpochSecond();
    long keepUntil = NonceRegistry.keepUntil(created, now, maxSkew);
    PendingNonce.Nonce n = new PendingNonce.Nonce(keyId, nonce, keepUntil, nowSecond);
    if (PendingNonce.deferring()) {
      // A mutating request: recorded by its first transaction (see PendingNonce).
      PendingNonce.defer(n);
      return true;
    }
    boolean first = database.write("recording a request nonce", handle -> record(handle, n));
    pruneIfDue(nowSecond);
    return first;
  }

  /**
   * Records the nonce a request left waiting because it committed nothing (refused, read-like, an
   * idempotent replay), before its answer leaves.
   *
   * @return false when another node had used it: the answer must be a 401, not the one computed
   */
  public boolean settlePending() {
    PendingNonce.Nonce n = PendingNonce.take();
    if (n == null) {
      return !PendingNonce.isReplay(); // a transaction of the request found it used
    }
    boolean first = database.write("recording a request nonce", handle -> record(handle, n));
    pruneIfDue(n.nowSecond());
    return first && !PendingNonce.isReplay();
  }

  /** Records the nonce in the transaction of {@code handle}; false when a live row holds it. */
  static boolean record(org.jdbi.v3.core.Handle handle, PendingNonce.Nonce n) {
    byte[] digest = NonceRegistry.fingerprint(n.keyId(), n.nonce());
    return PlainStatements.update(
            handle,
            RECORD,
            statement -> {
              statement.setBytes(1, digest);
              statement.setLong(2, n.keepUntil());
              statement.setLong(3, n.nowSecond());
            })
        == 1;
  }

  /** Deletes the rows past their expiry; returns how many. */
  int prune() {
    long nowSecond = clock.instant().getEpochSecond();
    return database.write(
        "pruning expired request nonces",
        handle -> handle.createUpdate(PRUNE).bind("now", nowSecond).execute());
  }

  private void pruneIfDue(long nowSecond) {
    long due = nextPrune.get();
    // One caller per period wins the compare-and-set and prunes; the others go on.
    if (nowSecond >= due && nextPrune.compareAndSet(due, nowSecond + PRUNE_EVERY.toSeconds())) {
      prune();
    }
  }

  /** How many rows the table holds, expired ones included (for tests and the console). */
  long size() {
    return database.read(
        "counting request nonces",
        handle ->
            handle.createQuery("SELECT count(*) FROM request_nonces").mapTo(Long.class).one());
  }
}
