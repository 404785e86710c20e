package dev.asa.server.store;

import dev.asa.server.store.db.Circuit;
import dev.asa.server.store.db.Database;
import dev.asa.server.store.db.DatabaseUrl;
import dev.asa.server.store.db.Migrations;
import dev.asa.server.store.db.PostgresDatabase;
import dev.asa.server.store.db.SqliteDatabase;
import dev.asa.server.store.db.StoreUnavailableException;
import java.nio.file.Path;

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
  public static Store open(String dbUrl, Path dataDir) {
    return open(dbUrl, dataDir, CommitListener.NONE);
  }

  /**
   * As {@link #open(String, Path)}, telling {@code listener} about each write after it committed
   * (the server's event log lines and metrics).
   */
  public static Store open(String dbUrl, Path dataDir, CommitListener listener) {
    Database database =
        switch (DatabaseUrl.parse(dbUrl, dataDir)) {
          case DatabaseUrl.Sqlite sqlite -> Circuit.sqlite(SqliteDatabase.open(sqlite.file()));
          case DatabaseUrl.Postgres postgres -> Circuit.postgres(PostgresDatabase.open(postgres));
        };
    try {
      return new Store(database, Migrations.migrate(database), listener);
    } catch (RuntimeException e) {
      database.close();
      throw e;
    }
  }
}
