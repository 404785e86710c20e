package dev.asa.server.store;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Function;

/** Opens the configured store and brings its schema up to date. */
public final class Stores {

  private Stores() {}

  /**
   * Opens a store.
   *
   * @param dbUrl null or blank for the default SQLite file {@code dataDir/asa.db}; otherwise {@code
   *     sqlite:/path/file.db}, {@code jdbc:sqlite:...}, {@code
   *     postgresql://user:pass@host:port/db?...}, {@code postgres://...} or {@code
   *     jdbc:postgresql://...}
   * @param dataDir directory of the default SQLite file (created if missing)
   * @throws IllegalArgumentException for a URL of another form
   * @throws StoreUnavailableException when the database cannot be reached or opened
   * @throws IllegalStateException when the database was migrated by a newer build
   */
  public static AgreementStore open(String dbUrl, Path dataDir) {
    return migrated(dbUrl, dataDir, JdbcAgreementStore::new);
  }

  /** The agreement store and the request-nonce table on one database; closing closes both. */
  public record Opened(AgreementStore agreements, NonceTable nonces) implements AutoCloseable {
    @Override
    public void close() {
      agreements.close();
    }
  }

  /**
   * Opens a store as {@link #open} does, with the table of request nonces on the same database
   * (closing the store closes both).
   *
   * @param clock and {@code maxSkew}: those of the server's request verifier
   */
  public static Opened openWithNonces(String dbUrl, Path dataDir, Clock clock, Duration maxSkew) {
    return migrated(
        dbUrl,
        dataDir,
        database ->
            new Opened(new JdbcAgreementStore(database), new NonceTable(database, clock, maxSkew)));
  }

  private static <T> T migrated(String dbUrl, Path dataDir, Function<Database, T> build) {
    Database database =
        switch (DatabaseUrl.parse(dbUrl, dataDir)) {
          case DatabaseUrl.Sqlite sqlite -> SqliteDatabase.open(sqlite.file());
          case DatabaseUrl.Postgres postgres -> PostgresDatabase.open(postgres);
        };
    try {
      Migrations.migrate(database);
      return build.apply(database);
    } catch (RuntimeException e) {
      database.close();
      throw e;
    }
  }
}
