package dev.asa.server.store.db;

import java.time.Duration;
import java.util.Objects;

/**
 * The database cannot be reached or used right now (connection refused, pool exhausted, disk full,
 * file locked by another process...). Carries what kind of cause it is, a hint a person can act on,
 * and how long a caller should wait before trying again; the HTTP layer answers 503 with a problem
 * type naming the cause and {@code Retry-After}.
 */
public final class StoreUnavailableException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** What keeps the store from serving, each with the problem type a caller is answered. */
  public enum Cause {
    /** The disk under the database is full: SQLite's SQLITE_FULL, PostgreSQL's 53100. */
    DISK_FULL("store-disk-full", "the database's disk is full", Duration.ofSeconds(10)),
    /** The database server cannot be reached: refused, lost or timed-out connections. */
    UNREACHABLE("store-unreachable", "the database cannot be reached", Duration.ofSeconds(5)),
    /** Busy rather than broken: a pool exhausted, a lock another process holds. */
    BUSY("store-busy", "the database is busy", Duration.ofSeconds(1)),
    /** Anything else that is not a bug in a statement: an I/O error, a read-only file. */
    FAILING("store-unavailable", "the database cannot be used", Duration.ofSeconds(5));

    private final String problemType;
    private final String sentence;
    private final Duration retryAfter;

    Cause(String problemType, String sentence, Duration retryAfter) {
      this.problemType = problemType;
      this.sentence = sentence;
      this.retryAfter = retryAfter;
    }

    /** The problem type of the 503, e.g. {@code store-disk-full}. */
    public String problemType() {
      return problemType;
    }

    /** What a caller is told, e.g. "the database's disk is full". */
    public String sentence() {
      return sentence;
    }

    /** How long a caller should wait before trying again ({@code Retry-After}). */
    public Duration retryAfter() {
      return retryAfter;
    }
  }

  private final String hint;
  private final Cause cause;

  public StoreUnavailableException(String problem, String hint, Throwable cause) {
    this(Cause.FAILING, problem, hint, cause);
  }

  public StoreUnavailableException(Cause kind, String problem, String hint, Throwable cause) {
    super((problem.endsWith(".") ? problem + " " : problem + ". ") + hint, cause);
    this.hint = hint;
    this.cause = Objects.requireNonNull(kind, "kind");
  }

  /** What to check, e.g. "check that PostgreSQL is running and accepts connections". */
  public String hint() {
    return hint;
  }

  /** What kind of cause keeps the store from serving. */
  public Cause kind() {
    return cause;
  }
}
