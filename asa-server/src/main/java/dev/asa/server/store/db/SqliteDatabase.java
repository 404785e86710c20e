package dev.asa.server.store.db;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.asa.signedrequests.NonceRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.JdbiException;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * A SQLite file, used the way SQLite wants to be used by a server: one writer, many readers.
 *
 * <p>SQLite allows a single writer at a time. Letting several pooled connections compete for the
 * write lock produces SQLITE_BUSY under load (and busy-wait sleeps), so every write goes through
 * one dedicated connection guarded by a lock: writers queue in the JVM, cheaply, instead of
 * sleeping and retrying inside SQLite. Reads use a small pool; in WAL mode they run concurrently
 * with the writer and see the last committed state.
 *
 * <p>The writer's JDBI handle lives as long as its connection, and keeps its prepared statements
 * (see {@link CachingStatementBuilder}); readers get a handle per read, from the pool, and each
 * reader connection keeps its prepared statements too (see {@link ReaderStatementBuilder}).
 */
public final class SqliteDatabase implements Database {

  /** How long to wait for a lock held by another process (a second server, a backup tool). */
  private static final int BUSY_TIMEOUT_MS = 10_000;

  /** After a checkpoint, shrink the WAL file back to this size so a burst does not keep disk. */
  private static final int WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

  private final Path file;
  private final String url;
  private final ReentrantLock writeLock = new ReentrantLock();
  // The writer connection and everything on it are used under writeLock only. Null after a
  // failure left it in a state nobody can vouch for: the next write opens a new one.
  private Writer writer;
  private final HikariDataSource readerPool;
  private final Jdbi readers;
  private final ReaderStatementBuilder readerStatements;
  private volatile boolean closed;

  /**
   * The one writer connection, its JDBI handle (which keeps its prepared statements) and the three
   * statements that begin and end its transactions.
   */
  private static final class Writer {
    final Connection connection;
    final Handle handle;
    final PreparedStatement begin;
    final PreparedStatement commit;
    final PreparedStatement rollback;

    Writer(Connection connection) throws SQLException {
      this.connection = connection;
      this.begin = connection.prepareStatement("BEGIN IMMEDIATE");
      this.commit = connection.prepareStatement("COMMIT");
      this.rollback = connection.prepareStatement("ROLLBACK");
      Jdbi writerJdbi = Database.configured(Jdbi.create(() -> connection));
      writerJdbi.setStatementBuilderFactory(c -> new CachingStatementBuilder());
      this.handle = writerJdbi.open();
    }

    /**
     * Closes the statements, then the connection (closing it rolls back whatever transaction it
     * still has; the last connection to close checkpoints the WAL into the file).
     */
    void close() throws SQLException {
      try {
        begin.close();
        commit.close();
        rollback.close();
      } finally {
        handle.close();
      }
    }
  }

  private SqliteDatabase(Path file, String url, Connection writer, HikariDataSource readerPool)
      throws SQLException {
    this.file = file;
    this.url = url;
    this.writer = new Writer(writer);
    this.readerPool = readerPool;
    this.readers = Database.configured(Jdbi.create(readerPool));
    this.readerStatements = new ReaderStatementBuilder();
    readers.setStatementBuilderFactory(connection -> readerStatements);
  }

  public static SqliteDatabase open(Path file) {
    Path absolute = file.toAbsolutePath().normalize();
    try {
      if (absolute.getParent() != null) {
        Files.createDirectories(absolute.getParent());
      }
    } catch (IOException e) {
      throw new StoreUnavailableException(
          "cannot create the data directory " + absolute.getParent() + ": " + e,
          "Check that the path is writable by this user, or" + " choose another data directory",
          e);
    }
    String url = "jdbc:sqlite:" + absolute;
    Connection writer = null;
    HikariDataSource readerPool = null;
    try {
      // The writer opens first: it switches the file to WAL, which the readers then find.
      writer = writerConfig().createConnection(url);
      HikariConfig pool = new HikariConfig();
      pool.setPoolName("asa-sqlite-readers");
      SQLiteDataSource readerSource = new SQLiteDataSource(readerConfig());
      readerSource.setUrl(url);
      pool.setDataSource(readerSource);
      int readersCount = Math.max(2, Math.min(8, Runtime.getRuntime().availableProcessors()));
      pool.setMaximumPoolSize(readersCount);
      // A fixed set, kept for the life of the database: each connection keeps its prepared
      // statements (ReaderStatementBuilder), which retiring it for age or idleness would strand.
      pool.setMinimumIdle(readersCount);
      pool.setMaxLifetime(0);
      pool.setIdleTimeout(0);
      pool.setConnectionTimeout(10_000);
      pool.setAutoCommit(true);
      readerPool = new HikariDataSource(pool);
      return new SqliteDatabase(absolute, url, writer, readerPool);
    } catch (SQLException | RuntimeException e) {
      if (readerPool != null) {
        readerPool.close();
      }
      if (writer != null) {
        try {
          writer.close();
        } catch (SQLException suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      Throwable cause = e.getCause() instanceof SQLException ? e.getCause() : e;
      throw new StoreUnavailableException(
          "cannot open SQLite database " + absolute + ": " + cause.getMessage(),
          "Check that the file is a SQLite database, that it and its"
              + " directory are readable and writable by this user, and that the disk is not full",
          e);
    }
  }

  private static SQLiteConfig commonConfig() {
    SQLiteConfig config = new SQLiteConfig();
    config.setBusyTimeout(BUSY_TIMEOUT_MS);
    config.enforceForeignKeys(true);
    // WAL: readers never block the writer and the writer never blocks readers; a commit is one
    // append to the log instead of a rewrite of the pages plus a rollback journal.
    config.setJournalMode(SQLiteConfig.JournalMode.WAL);
    // NORMAL in WAL mode: a commit is in the operating system's hands once the call returns, so
    // it survives the process crashing or being killed (the requirement, tested by
    // SqliteCrashTest); only a power loss or OS crash may lose the last transactions. FULL would
    // add an fsync to every commit, capping throughput at the disk's fsync rate.
    config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
    // The driver would otherwise run "SELECT last_insert_rowid()" on a new statement after every
    // INSERT, for getGeneratedKeys; the store never asks (it reads row_seq with RETURNING).
    config.setGetGeneratedKeys(false);
    return config;
  }

  private static SQLiteConfig writerConfig() {
    SQLiteConfig config = commonConfig();
    config.setJournalSizeLimit(WAL_SIZE_LIMIT_BYTES);
    // Deliverable content must not outlive its verification: with secure_delete, SQLite
    // overwrites erased content with zeros instead of leaving it in free space of the file.
    config.setPragma(SQLiteConfig.Pragma.SECURE_DELETE, "true");
    // Only the driver's own transactions use this: Flyway's, at start-up (the store begins its
    // transactions by hand, see write). IMMEDIATE takes the write lock when a migration begins, so
    // a second process starting on the same file waits, then finds the migration applied.
    config.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
    return config;
  }

  private static SQLiteConfig readerConfig() {
    return commonConfig();
  }

  @Override
  public Dialect dialect() {
    return Dialect.SQLITE;
  }

  /**
   * Transactions are begun by hand (the connection stays in auto-commit mode): the driver's own
   * transaction handling re-opens a transaction right after every commit, which with IMMEDIATE
   * would hold the write lock between our transactions. IMMEDIATE takes the write lock up front, so
   * a transaction never fails half-way on a lock upgrade when another process writes too.
   */
  @Override
  public <T> T write(String doing, Work<T> work) {
    writeLock.lock();
    try {
      ensureOpen();
      Writer w = writer(doing);
      try {
        w.begin.execute();
      } catch (SQLException e) {
        throw failed(SqlErrors.translate(e, this, doing), false);
      }
      boolean committed = false;
      RuntimeException failure = null;
      try {
        T result = work.run(w.handle);
        w.commit.execute();
        committed = true;
        return result;
      } catch (SQLException e) {
        failure = SqlErrors.translate(e, this, doing);
        throw failure;
      } catch (JdbiException e) {
        failure = SqlErrors.translate(e, this, doing);
        throw failure;
      } finally {
        if (!committed) {
          boolean rolledBack = rollback(w);
          if (failure != null) {
            failed(failure, rolledBack);
          } else if (!rolledBack) {
            discardWriter(); // the work threw one of the store's own exceptions
          }
        }
      }
    } finally {
      writeLock.unlock();
    }
  }

  /**
   * The writer connection, opened again if a failure discarded it.
   *
   * @throws StoreUnavailableException when it cannot be opened
   */
  private Writer writer(String doing) {
    if (writer == null) {
      Connection connection = null;
      try {
        connection = writerConfig().createConnection(url);
        writer = new Writer(connection);
      } catch (SQLException e) {
        if (connection != null) {
          try {
            connection.close();
          } catch (SQLException suppressed) {
            e.addSuppressed(suppressed);
          }
        }
        throw SqlErrors.translate(e, this, doing + " (opening the writer connection again)");
      }
    }
    return writer;
  }

  /**
   * After a failed write, keeps the writer connection only if it is known to be clean: rolled back,
   * after an error in a statement. An error that says the file or the disk failed (SQLITE_FULL,
   * SQLITE_IOERR...) may leave SQLite's transaction state other than the driver believes (the
   * rollback "succeeds" and the next BEGIN finds a transaction still open), so the connection goes,
   * and the next write opens a new one: a server whose disk was full writes again as soon as there
   * is space, without a restart.
   */
  private RuntimeException failed(RuntimeException failure, boolean rolledBack) {
    if (!rolledBack || failure instanceof StoreUnavailableException) {
      discardWriter();
    }
    return failure;
  }

  private boolean rollback(Writer w) {
    try {
      w.rollback.execute();
      return true;
    } catch (SQLException e) {
      // SQLite may already have rolled back by itself (e.g. after an I/O error); the original
      // exception is the one worth reporting, and the connection is replaced.
      return false;
    }
  }

  private void discardWriter() {
    Writer w = writer;
    writer = null;
    if (w != null) {
      try {
        w.close();
      } catch (SQLException | RuntimeException ignored) {
        // A connection that failed may fail to close too; it is dropped either way.
      }
    }
  }

  @Override
  public <T> T read(String doing, Work<T> work) {
    ensureOpen();
    try (Handle handle = readers.open()) {
      return work.run(handle);
    } catch (JdbiException e) {
      throw SqlErrors.translate(e, this, doing);
    }
  }

  /**
   * As {@link #read}, on the writer connection when no write holds it, else on a reader. Why: a
   * reader's page cache is emptied by every commit (SQLite keeps no part of it once the file has
   * changed), so a reader finds every page of an index walk anew, each one a lookup in the log's
   * index and a copy from the file; the writer's cache holds the pages the last commits touched,
   * which are the pages a change reads next (a commit then a read by key: 13 us against 18,
   * SqliteLookupBenchmark). A lookup never waits for the lock (a reader serves it then: waiting was
   * measured slower), and one made inside a write's own work goes to a reader as before, so that it
   * sees committed rows only.
   */
  @Override
  public <T> T lookup(String doing, Work<T> work) {
    if (writeLock.isHeldByCurrentThread() || !writeLock.tryLock()) {
      return read(doing, work);
    }
    try {
      ensureOpen();
      return work.run(writer(doing).handle);
    } catch (JdbiException e) {
      throw SqlErrors.translate(e, this, doing);
    } finally {
      writeLock.unlock();
    }
  }

  /**
   * Hands out the writer connection, under the write lock, wrapped so that closing it does nothing:
   * the schema is changed by the one writer, never by a second connection competing for the lock.
   * Whatever transaction state the work leaves (Flyway switches auto-commit off and on) is reset.
   */
  @Override
  public <T> T withDataSource(Function<DataSource, T> work) {
    writeLock.lock();
    try {
      ensureOpen();
      Connection connection = writer("migrating").connection;
      try {
        registerMigrationFunctions(connection);
        return work.apply(new WriterDataSource(unclosable(connection)));
      } finally {
        try {
          if (!connection.getAutoCommit()) {
            connection.rollback();
            connection.setAutoCommit(true);
          }
        } catch (SQLException e) {
          throw SqlErrors.translate(e, this, "restoring the writer connection after migrating");
        }
      }
    } finally {
      writeLock.unlock();
    }
  }

  /**
   * SQL functions the migration scripts call where SQLite has no built-in: {@code
   * asa_nonce_digest(key_id, nonce)}, a request nonce's {@link NonceRegistry#fingerprint} (V025).
   * Public for tests that run the scripts on a connection of their own.
   */
  public static void registerMigrationFunctions(Connection connection) {
    try {
      org.sqlite.Function.create(
          connection,
          "asa_nonce_digest",
          new org.sqlite.Function() {
            @Override
            protected void xFunc() throws SQLException {
              result(NonceRegistry.fingerprint(value_text(0), value_text(1)));
            }
          },
          2,
          org.sqlite.Function.FLAG_DETERMINISTIC);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot register the migrations' SQL functions", e);
    }
  }

  private static Connection unclosable(Connection connection) {
    return (Connection)
        Proxy.newProxyInstance(
            Connection.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            (proxy, method, args) -> {
              if (method.getName().equals("close") && method.getParameterCount() == 0) {
                return null;
              }
              try {
                return method.invoke(connection, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  /** A DataSource with one connection, for {@link #withDataSource}. */
  private record WriterDataSource(Connection connection) implements DataSource {
    @Override
    public Connection getConnection() {
      return connection;
    }

    @Override
    public Connection getConnection(String username, String password) {
      return connection;
    }

    @Override
    public PrintWriter getLogWriter() {
      return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {}

    @Override
    public void setLoginTimeout(int seconds) {}

    @Override
    public int getLoginTimeout() {
      return 0;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
      throw new SQLFeatureNotSupportedException("no java.util.logging here");
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
      throw new SQLException("not a wrapper");
    }

    @Override
    public boolean isWrapperFor(Class<?> type) {
      return false;
    }
  }

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("the store " + describe() + " is closed");
    }
  }

  @Override
  public String describe() {
    return "SQLite " + file + " (WAL)";
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    readerStatements.closeAll();
    readerPool.close();
    writeLock.lock(); // let a write in progress finish
    try {
      if (writer != null) {
        writer.close();
        writer = null;
      }
    } catch (SQLException e) {
      throw SqlErrors.translate(e, this, "closing");
    } catch (JdbiException e) {
      throw SqlErrors.translate(e, this, "closing");
    } finally {
      writeLock.unlock();
    }
  }
}
