package dev.asa.server.store.db;

import java.util.function.Supplier;

/**
 * A mutating request's nonce, waiting to be recorded in the request's own first transaction rather
 * than in one of its own (issue 59: one commit per mutating request, where there were two).
 *
 * <p>Why this keeps every guarantee of recording it first: a replay to the same node is refused by
 * the in-memory cache before this is reached; a replay to another node inserts the same row in its
 * first transaction, where the insert finds the live row and the whole transaction, with every
 * effect of the request, is rolled back and answered 401 ({@link NonceReplayedException}). A
 * request that commits nothing (refused, a GET-like answer, an idempotent replay) has its nonce
 * recorded on its own before its answer leaves ({@link NonceTable#settlePending}), and a replay
 * found then gets a 401 instead of the answer. A transaction that rolls back for any other reason
 * puts the nonce back, so that it is recorded all the same. What a replay to another node can still
 * cause is work done before the first write (reading the body, an outbound fetch under the server's
 * guard), never a write and never an answer.
 *
 * <p>Per thread: a request runs on one (virtual) thread from its authentication to its answer. A
 * write on another thread (a job worker) does not carry it; the nonce is then recorded on its own.
 */
public final class PendingNonce {
  private PendingNonce() {}

  /** A nonce to record: as {@link NonceTable#firstUse} records it, at the request's time. */
  record Nonce(String keyId, String nonce, long keepUntil, long nowSecond) {}

  private static final ThreadLocal<Boolean> DEFERRING = new ThreadLocal<>();
  private static final ThreadLocal<Nonce> PENDING = new ThreadLocal<>();
  // Set once a transaction found the nonce used: from then on every write of the request fails
  // too, so that code catching the first failure cannot go on to commit an effect of a replay.
  private static final ThreadLocal<String> REPLAYED = new ThreadLocal<>();

  /**
   * Runs {@code authentication} so that the nonce it accepts waits for the request's first write on
   * this thread (for methods that write: POST, PUT, PATCH, DELETE).
   */
  public static <T> T deferringDuring(Supplier<T> authentication) {
    DEFERRING.set(Boolean.TRUE);
    try {
      return authentication.get();
    } finally {
      DEFERRING.remove();
    }
  }

  static boolean deferring() {
    return DEFERRING.get() != null;
  }

  static void defer(Nonce nonce) {
    PENDING.set(nonce);
  }

  /** The waiting nonce, now taken by a transaction (null when none waits). */
  static Nonce take() {
    Nonce n = PENDING.get();
    PENDING.remove();
    return n;
  }

  /** Puts back a nonce whose transaction rolled back: it must still be recorded. */
  static void putBack(Nonce nonce) {
    PENDING.set(nonce);
  }

  /** Marks the request a replay (its nonce was found used by key {@code keyId}). */
  static void markReplayed(String keyId) {
    REPLAYED.set(keyId);
  }

  /** The key whose nonce this request replayed, or null: no write of it may commit. */
  static String replayedBy() {
    return REPLAYED.get();
  }

  /** Whether this request was found to be a replay: its answer must be the 401. */
  public static boolean isReplay() {
    return REPLAYED.get() != null;
  }

  /** Forgets whatever waits (the request is over). */
  public static void clear() {
    PENDING.remove();
    DEFERRING.remove();
    REPLAYED.remove();
  }
}
