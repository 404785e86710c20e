package dev.asa.server.store.db;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.server.store.Store;
import dev.asa.server.store.Stores;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Builds before {@code common/} kept all of a dialect's scripts in the dialect's folder. A database
 * they migrated starts on this build with nothing to do and its history untouched: Flyway validates
 * each applied script by version, description, type and checksum, and records its file name without
 * the folder; moving an unchanged script into {@code common/} changes none of them.
 */
class CommonFolderUpgradeTest {

  @TempDir Path dir;

  @Test
  void aSqliteDatabaseMigratedFromOneFolderStartsUnchanged() throws Exception {
    Path file = dir.resolve("asa.db");
    startsUnchanged(Dialect.SQLITE, null, () -> DriverManager.getConnection("jdbc:sqlite:" + file));
  }

  @Test
  void aPostgresqlSchemaMigratedFromOneFolderStartsUnchanged() throws Exception {
    try (TestPostgres postgres = TestPostgres.freshSchema()) {
      startsUnchanged(Dialect.POSTGRESQL, postgres.url(), postgres::connection);
    }
  }

  @FunctionalInterface
  private interface Connector {
    Connection connect() throws SQLException;
  }

  private void startsUnchanged(Dialect dialect, String dbUrl, Connector connector)
      throws IOException, SQLException {
    try (Database database = open(dbUrl)) {
      Migrations.migrate(database, List.of("filesystem:" + oneFolderLayout(dialect)));
    }
    List<String> before = history(connector);
    assertThat(before).hasSize(MigrationsTest.scripts(dialect).size());

    try (Store store = Stores.open(dbUrl, dir)) {
      assertThat(store.readiness().migrations().ok()).isTrue();
    }
    assertThat(history(connector)).isEqualTo(before);
  }

  /** This build's scripts for {@code dialect} in one folder, as builds before common/ had them. */
  private Path oneFolderLayout(Dialect dialect) throws IOException {
    Path folder = Files.createDirectories(dir.resolve("one-folder-" + dialect.migrationFolder()));
    for (String script : MigrationsTest.scripts(dialect)) {
      Files.copy(MigrationsTest.script(dialect, script), folder.resolve(script));
    }
    return folder;
  }

  private Database open(String dbUrl) {
    return switch (DatabaseUrl.parse(dbUrl, dir)) {
      case DatabaseUrl.Sqlite sqlite -> SqliteDatabase.open(sqlite.file());
      case DatabaseUrl.Postgres postgres -> PostgresDatabase.open(postgres);
    };
  }

  /** Every row Flyway validates a script by, oldest first. */
  private static List<String> history(Connector connector) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Connection c = connector.connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT installed_rank, version, description, type, script, checksum, success FROM "
                    + Migrations.HISTORY_TABLE
                    + " ORDER BY installed_rank")) {
      while (rs.next()) {
        rows.add(
            String.join(
                " | ",
                rs.getString(1),
                rs.getString(2),
                rs.getString(3),
                rs.getString(4),
                rs.getString(5),
                rs.getString(6),
                rs.getString(7)));
      }
    }
    return rows;
  }
}
