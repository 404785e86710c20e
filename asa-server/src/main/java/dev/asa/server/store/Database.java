package dev.asa.server.store;

import java.sql.SQLException;
import java.util.function.Function;
import javax.sql.DataSource;

/**
 * How the store gets connections and transactions. The two implementations differ exactly where the
 * databases differ: SQLite has one writer at a time (so one writer connection behind a lock),
 * PostgreSQL has many (so one pool).
 */
interface Database extends AutoCloseable {

  /** Work to run on one connection, through its {@link Statements}. */
  @FunctionalInterface
  interface Work<T> {
    T run(Statements sql) throws SQLException;
  }

  Dialect dialect();

  /**
   * Runs {@code work} in one transaction and commits it; rolls back if it throws. SQLExceptions are
   * translated (see {@link SqlErrors}); runtime exceptions thrown by the work pass unchanged.
   *
   * @param doing what the work does, for error messages ("committing agreement a-1")
   */
  <T> T write(String doing, Work<T> work);

  /** Runs {@code work} on a connection in auto-commit mode (each statement sees committed data). */
  <T> T read(String doing, Work<T> work);

  /**
   * Runs schema work (Flyway's migrations, at start-up) with a {@link DataSource} over this
   * database's connections. SQLite hands out its one writer connection, held for the duration, so
   * the schema is changed by the same single writer as everything else.
   */
  <T> T withDataSource(Function<DataSource, T> work);

  String describe();

  @Override
  void close();
}
