package dev.asa.server.store.db;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool;
import java.sql.SQLException;
import java.util.function.Function;
import javax.sql.DataSource;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.JdbiException;

/**
 * A PostgreSQL server behind one HikariCP pool. Reads and writes share the pool: PostgreSQL runs
 * concurrent writers itself, and the version check in every UPDATE makes READ COMMITTED (the
 * default) enough; no stricter isolation, no retries on serialization failures. Every unit of work
 * gets a JDBI handle of its own over a pooled connection.
 */
public final class PostgresDatabase implements Database {

  private final DatabaseUrl.Postgres url;
  private final HikariDataSource pool;
  private final Jdbi jdbi;

  private PostgresDatabase(DatabaseUrl.Postgres url, HikariDataSource pool) {
    this.url = url;
    this.pool = pool;
    this.jdbi = Database.configured(Jdbi.create(pool));
  }

  public static PostgresDatabase open(DatabaseUrl.Postgres url) {
    HikariConfig config = new HikariConfig();
    config.setPoolName("asa-postgresql");
    config.setJdbcUrl(url.jdbcUrl());
    if (url.user() != null) {
      config.setUsername(url.user());
    }
    if (url.password() != null) {
      config.setPassword(url.password());
    }
    // The classic sizing rule for a database on local disks: about two connections per core
    // keeps the server busy without making transactions queue for locks and CPU inside it.
    config.setMaximumPoolSize(2 * Runtime.getRuntime().availableProcessors() + 4);
    config.setConnectionTimeout(10_000);
    // Fail at startup, once, with a clear message instead of retrying silently.
    config.setInitializationFailTimeout(1);
    config.setAutoCommit(true);
    // Sends a batch of event inserts as one multi-row INSERT: one round trip instead of N.
    config.addDataSourceProperty("reWriteBatchedInserts", "true");
    config.addDataSourceProperty("ApplicationName", "asa-server");
    try {
      return new PostgresDatabase(url, new HikariDataSource(config));
    } catch (HikariPool.PoolInitializationException e) {
      throw unreachable(url, e);
    }
  }

  private static StoreUnavailableException unreachable(
      DatabaseUrl.Postgres url, RuntimeException e) {
    SQLException sql = e.getCause() instanceof SQLException s ? s : null;
    String state = sql != null && sql.getSQLState() != null ? sql.getSQLState() : "";
    String who =
        "PostgreSQL at "
            + url.hosts()
            + " (database '"
            + url.database()
            + "', user '"
            + (url.user() != null ? url.user() : System.getProperty("user.name"))
            + "')";
    String hint;
    if (state.startsWith("28")) {
      hint = "Check the user name and password in the database URL and the server's pg_hba.conf";
    } else if (state.equals("3D000")) {
      hint = "Check the database name in the URL, or create it (createdb " + url.database() + ")";
    } else if (state.equals("3F000")) {
      hint = "Check the currentSchema parameter of the URL, or create that schema";
    } else {
      hint =
          "Check that the server is running and accepts TCP connections on "
              + url.hosts()
              + " (listen_addresses, port, firewall, pg_hba.conf), and that the host and port in the"
              + " database URL are right";
    }
    String reason = sql != null ? sql.getMessage() : e.getMessage();
    return new StoreUnavailableException(
        state.startsWith("08") || state.isEmpty()
            ? StoreUnavailableException.Cause.UNREACHABLE
            : StoreUnavailableException.Cause.FAILING,
        "cannot connect to " + who + ": " + reason,
        hint,
        e);
  }

  @Override
  public Dialect dialect() {
    return Dialect.POSTGRESQL;
  }

  @Override
  public <T> T write(String doing, Work<T> work) {
    try (Handle handle = jdbi.open()) {
      // Auto-commit off is local to the driver (no round trip): BEGIN travels with the first
      // statement. The handle rolls back when the work throws, and restores auto-commit.
      return handle.inTransaction(work::run);
    } catch (JdbiException e) {
      throw SqlErrors.translate(e, this, doing);
    }
  }

  @Override
  public <T> T read(String doing, Work<T> work) {
    try (Handle handle = jdbi.open()) {
      return work.run(handle);
    } catch (JdbiException e) {
      throw SqlErrors.translate(e, this, doing);
    }
  }

  /**
   * The pool itself: Flyway takes a connection for its history table and lock, one for the scripts.
   */
  @Override
  public <T> T withDataSource(Function<DataSource, T> work) {
    return work.apply(pool);
  }

  @Override
  public String describe() {
    return "PostgreSQL " + url.display();
  }

  @Override
  public void close() {
    pool.close();
  }
}
