package dev.asa.server.store.db;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.jdbi.v3.core.JdbiException;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * Turns driver exceptions into the store's vocabulary, so callers never see SQLState codes. The two
 * drivers report the same situations differently: PostgreSQL with SQLState codes, SQLite with
 * (extended) result codes. Batches wrap the real error, and JDBI wraps every error, so every check
 * walks the whole chain.
 */
public final class SqlErrors {

  private SqlErrors() {}

  /** A UNIQUE or PRIMARY KEY constraint refused the row. */
  static boolean isUniqueViolation(SQLException e) {
    return anyInChain(
        e,
        x ->
            "23505".equals(x.getSQLState())
                || sqliteCode(x) == SQLiteErrorCode.SQLITE_CONSTRAINT_UNIQUE
                || sqliteCode(x) == SQLiteErrorCode.SQLITE_CONSTRAINT_PRIMARYKEY);
  }

  /** A FOREIGN KEY constraint refused the row: it refers to an agreement that does not exist. */
  static boolean isForeignKeyViolation(SQLException e) {
    return anyInChain(
        e,
        x ->
            "23503".equals(x.getSQLState())
                || sqliteCode(x) == SQLiteErrorCode.SQLITE_CONSTRAINT_FOREIGNKEY);
  }

  /**
   * The database cannot be used right now, as opposed to a bug in a statement: lost or refused
   * connections, an exhausted pool, a server shutting down, a full disk, a file another process
   * keeps locked.
   */
  static boolean isUnavailable(SQLException e) {
    return unavailability(e) != null;
  }

  /**
   * What kind of unavailability {@code e} reports, or null when it reports none (a bug in a
   * statement, a constraint). The first cause in the chain that names one wins.
   */
  static StoreUnavailableException.Cause unavailability(SQLException e) {
    StoreUnavailableException.Cause[] found = new StoreUnavailableException.Cause[1];
    anyInChain(
        e,
        x -> {
          found[0] = causeOf(x);
          return found[0] != null;
        });
    return found[0];
  }

  private static StoreUnavailableException.Cause causeOf(SQLException x) {
    if (x instanceof SQLTransientConnectionException) {
      // HikariCP: no connection within connectionTimeout. With the reason a connection could not
      // be made as its cause the server is unreachable; without, every connection is in use.
      return x.getCause() instanceof SQLException cause && causeOf(cause) != null
          ? causeOf(cause)
          : StoreUnavailableException.Cause.BUSY;
    }
    String state = x.getSQLState();
    if (state != null) {
      if (state.equals("53100")) {
        return StoreUnavailableException.Cause.DISK_FULL;
      }
      if (state.startsWith("08") // connection exception
          || state.startsWith("57P")) { // admin shutdown, crash shutdown, cannot connect now
        return StoreUnavailableException.Cause.UNREACHABLE;
      }
      if (state.startsWith("53")) { // insufficient resources: too many connections, memory
        return StoreUnavailableException.Cause.BUSY;
      }
    }
    SQLiteErrorCode code = sqliteCode(x);
    if (code == null) {
      return null;
    }
    // Extended codes (SQLITE_IOERR_WRITE...) carry their primary code in the low byte.
    return switch (SQLiteErrorCode.getErrorCode(code.code & 0xff)) {
      case SQLITE_FULL -> StoreUnavailableException.Cause.DISK_FULL;
      case SQLITE_BUSY, SQLITE_LOCKED -> StoreUnavailableException.Cause.BUSY;
      case SQLITE_IOERR, SQLITE_CANTOPEN, SQLITE_READONLY ->
          StoreUnavailableException.Cause.FAILING;
      default -> null;
    };
  }

  /**
   * Runs a statement that may clash with a unique key, and names the clash: "verification v-1
   * already exists" tells the caller which key was taken, which a generic constraint message would
   * not.
   *
   * @param duplicate what was already there, for the {@link DuplicateKeyException}
   */
  public static <T> T naming(Supplier<String> duplicate, Supplier<T> statement) {
    try {
      return statement.get();
    } catch (JdbiException e) {
      SQLException sql = sqlCause(e);
      if (sql != null && isUniqueViolation(sql)) {
        throw new DuplicateKeyException(duplicate.get(), sql);
      }
      throw e;
    }
  }

  /** {@link #translate(SQLException, Database, String)} for an error JDBI wrapped. */
  static RuntimeException translate(JdbiException e, Database database, String doing) {
    SQLException sql = sqlCause(e);
    if (sql != null) {
      return translate(sql, database, doing);
    }
    return new IllegalStateException("database error while " + doing + ": " + e.getMessage(), e);
  }

  private static SQLException sqlCause(JdbiException e) {
    int guard = 0;
    for (Throwable t = e.getCause(); t != null && guard < 20; t = t.getCause(), guard++) {
      if (t instanceof SQLException sql) {
        return sql;
      }
    }
    return null;
  }

  /**
   * Translates an exception that no statement-specific handler claimed.
   *
   * @param doing what the store was doing, e.g. "reading agreement a-1"
   */
  static RuntimeException translate(SQLException e, Database database, String doing) {
    if (isUniqueViolation(e)) {
      return new DuplicateKeyException(doing + ": key already exists (" + e.getMessage() + ")", e);
    }
    if (isForeignKeyViolation(e)) {
      return new IllegalArgumentException(
          doing + ": refers to an agreement that does not exist (" + e.getMessage() + ")", e);
    }
    StoreUnavailableException.Cause cause = unavailability(e);
    if (cause != null) {
      String hint =
          database.dialect() == Dialect.POSTGRESQL
              ? "Check that the PostgreSQL server is running and reachable, that max_connections is"
                  + " not exhausted and that the disk is not full"
              : "Check that the disk is not full, that the file and its directory are writable, and"
                  + " that no other process holds a long write lock on it";
      return new StoreUnavailableException(
          cause,
          database.describe() + " is unavailable while " + doing + ": " + e.getMessage(),
          hint,
          e);
    }
    return new IllegalStateException(
        "database error while " + doing + " (SQLState " + e.getSQLState() + "): " + e.getMessage(),
        e);
  }

  private static SQLiteErrorCode sqliteCode(SQLException e) {
    return e instanceof SQLiteException s ? s.getResultCode() : null;
  }

  private static boolean anyInChain(SQLException e, Predicate<SQLException> test) {
    // Guard against cycles: drivers sometimes set the same exception as cause and next.
    int guard = 0;
    for (Throwable t = e; t != null && guard < 20; t = t.getCause(), guard++) {
      if (t instanceof SQLException sql) {
        if (test.test(sql)) {
          return true;
        }
        SQLException next = sql.getNextException();
        int nextGuard = 0;
        while (next != null && nextGuard++ < 20) {
          if (test.test(next)) {
            return true;
          }
          next = next.getNextException();
        }
      }
    }
    return false;
  }
}
