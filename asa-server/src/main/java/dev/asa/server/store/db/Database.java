package dev.asa.server.store.db;

import java.util.Optional;
import java.util.function.Function;
import javax.sql.DataSource;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.NoTemplateEngine;
import org.jdbi.v3.core.statement.SqlStatements;
import org.jdbi.v3.core.statement.StatementExceptions;

/**
 * How the stores get connections and transactions. The two implementations differ exactly where the
 * databases differ: SQLite has one writer at a time (so one writer connection behind a lock),
 * PostgreSQL has many (so one pool). Either way the work gets a JDBI {@link Handle} over the one
 * connection its transaction runs on.
 */
public interface Database extends AutoCloseable {

  /** Work to run on one connection, through a JDBI handle (never closed by the work). */
  @FunctionalInterface
  interface Work<T> {
    T run(Handle handle);
  }

  Dialect dialect();

  /**
   * Runs {@code work} in one transaction and commits it; rolls back if it throws. Database errors
   * are translated (see {@link SqlErrors}); the store's own exceptions pass unchanged.
   *
   * @param doing what the work does, for error messages ("committing agreement a-1")
   */
  <T> T write(String doing, Work<T> work);

  /** Runs {@code work} on a connection in auto-commit mode (each statement sees committed data). */
  <T> T read(String doing, Work<T> work);

  /**
   * As {@link #read}, for a read of a few rows by key on the path of a change (an agreement about
   * to change, its latest task): where a connection with a warmer cache is free, the work may run
   * there ({@link SqliteDatabase#lookup}). Never for a scan or a listing: it may hold up writes
   * while it runs.
   */
  default <T> T lookup(String doing, Work<T> work) {
    return read(doing, work);
  }

  /**
   * Runs schema work (Flyway's migrations, at start-up) with a {@link DataSource} over this
   * database's connections. SQLite hands out its one writer connection, held for the duration, so
   * the schema is changed by the same single writer as everything else.
   */
  <T> T withDataSource(Function<DataSource, T> work);

  String describe();

  /**
   * Why the database is known not to serve right now (see {@link Circuit}), or empty: what {@code
   * GET /ready} reports while a full disk or a lost server keeps the store from working.
   */
  default Optional<String> outage() {
    return Optional.empty();
  }

  @Override
  void close();

  /**
   * Configures a {@link Jdbi} the way every store statement expects. The SQL runs as written: no
   * template engine, which would cost time on every statement and could misread a comparison such
   * as {@code a < b AND c > d} as a template attribute. Bound values hold agreement documents,
   * deliverables and payment authorizations, so they stay out of error messages and out of the
   * {@code jdbi.statement} events of a Flight Recorder recording (2 characters is JDBI's shortest
   * preview: "…}", no value).
   */
  static Jdbi configured(Jdbi jdbi) {
    jdbi.getConfig(SqlStatements.class)
        .setTemplateEngine(new NoTemplateEngine())
        .setJfrParamMaxLength(2);
    jdbi.getConfig(StatementExceptions.class)
        .setMessageRendering(StatementExceptions.MessageRendering.NONE);
    return jdbi;
  }
}
