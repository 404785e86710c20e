package dev.asa.server.store.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.asa.server.store.OlderBuild;
import dev.asa.server.store.Store;
import dev.asa.server.store.Stores;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Flyway applies the scripts of the build, and refuses a database they do not describe. */
public class MigrationsTest {

  @TempDir Path dir;

  /** The scripts of a dialect, from common/ and its own folder, sorted: what this build knows. */
  public static List<String> scripts(Dialect dialect) {
    return Stream.concat(
            scriptsIn(Migrations.COMMON_FOLDER).stream(),
            scriptsIn(dialect.migrationFolder()).stream())
        .sorted()
        .toList();
  }

  /** The files in one folder of the migrations, sorted. */
  static List<String> scriptsIn(String folder) {
    try (Stream<Path> files = Files.list(folder(folder))) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A folder of the migrations on disk (tests run from target/classes). */
  static Path folder(String folder) {
    URL url = MigrationsTest.class.getClassLoader().getResource(Migrations.ROOT + folder);
    assertThat(url).as(Migrations.ROOT + folder).isNotNull();
    assertThat(url.getProtocol()).isEqualTo("file");
    try {
      return Path.of(url.toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A script of a dialect, from whichever of its two folders holds it. */
  public static Path script(Dialect dialect, String script) {
    Path own = folder(dialect.migrationFolder()).resolve(script);
    return Files.exists(own) ? own : folder(Migrations.COMMON_FOLDER).resolve(script);
  }

  /** The scripts Flyway has applied to a database, oldest first. */
  public static List<String> applied(Connection c) throws SQLException {
    List<String> scripts = new ArrayList<>();
    try (Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT script FROM "
                    + Migrations.HISTORY_TABLE
                    + " WHERE type = 'SQL' AND success ORDER BY installed_rank")) {
      while (rs.next()) {
        scripts.add(rs.getString(1));
      }
    }
    return scripts;
  }

  /** Both dialects know the same migrations, numbered 1..n without gaps. */
  @Test
  void bothDialectsHaveTheSameNumberedScripts() {
    List<String> sqlite = scripts(Dialect.SQLITE);
    assertThat(scripts(Dialect.POSTGRESQL)).isEqualTo(sqlite);
    assertThat(sqlite).allMatch(name -> name.matches("V\\d{3}__[a-z0-9_]+\\.sql"));
    assertThat(sqlite.stream().map(name -> Integer.parseInt(name.substring(1, 4))).toList())
        .isEqualTo(IntStream.rangeClosed(1, sqlite.size()).boxed().toList());
  }

  /**
   * A version is common to every dialect or written for each, never both: Flyway would refuse two
   * scripts of one version.
   */
  @ParameterizedTest
  @EnumSource(Dialect.class)
  void noVersionIsBothCommonAndTheDialects(Dialect dialect) {
    List<String> common = versions(scriptsIn(Migrations.COMMON_FOLDER));
    assertThat(versions(scriptsIn(dialect.migrationFolder())))
        .as(
            "versions in %s/ that %s/ also has: keep each in one of the two",
            dialect.migrationFolder(), Migrations.COMMON_FOLDER)
        .doesNotContainAnyElementsOf(common);
  }

  /** A script that two dialects would have byte for byte is kept once, in common/. */
  @Test
  void noDialectHasAScriptIdenticalToAnothers() throws IOException {
    List<String> identical = new ArrayList<>();
    Dialect[] dialects = Dialect.values();
    for (int i = 0; i < dialects.length; i++) {
      for (int j = i + 1; j < dialects.length; j++) {
        Path a = folder(dialects[i].migrationFolder());
        Path b = folder(dialects[j].migrationFolder());
        for (String script : scriptsIn(dialects[i].migrationFolder())) {
          if (Files.exists(b.resolve(script))
              && Files.mismatch(a.resolve(script), b.resolve(script)) < 0) {
            identical.add(
                dialects[i].migrationFolder()
                    + "/"
                    + script
                    + " = "
                    + dialects[j].migrationFolder()
                    + "/"
                    + script);
          }
        }
      }
    }
    assertThat(identical)
        .as(
            "scripts the same in two dialects: move them to %s/ unchanged (same name), once",
            Migrations.COMMON_FOLDER)
        .isEmpty();
  }

  private static List<String> versions(List<String> scripts) {
    return scripts.stream().map(name -> name.substring(0, name.indexOf("__"))).toList();
  }

  /** Every script in the folders is applied, in order: a new file needs no list to be edited. */
  @ParameterizedTest
  @EnumSource(Dialect.class)
  void everyScriptInTheFolderIsApplied(Dialect dialect) throws SQLException {
    if (dialect == Dialect.POSTGRESQL) {
      return; // PostgresStoreTest checks it on a real server (openingAgainFindsTheSchemaCurrent)
    }
    Stores.open(null, dir).close();
    try (Connection c = sqlite()) {
      assertThat(applied(c)).isEqualTo(scripts(dialect));
    }
  }

  @Test
  void anEditedReleasedScriptStopsTheStart() throws IOException {
    Path scripts = copyOfTheScripts();
    migrate(List.of("filesystem:" + scripts));
    Path released = scripts.resolve("V003__agreement_links.sql");
    Files.writeString(
        released,
        Files.readString(released)
            .replace("PRIMARY KEY (parent_id, child_id)", "PRIMARY KEY (child_id, parent_id)"),
        StandardCharsets.UTF_8);

    assertThatThrownBy(() -> migrate(List.of("filesystem:" + scripts)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(
            "migration script V003__agreement_links.sql was changed after it was applied")
        .hasMessageContaining("restore V003__agreement_links.sql as it was released");
  }

  @Test
  void aDatabaseMigratedByANewerBuildIsRefused() throws IOException {
    Path newer = copyOfTheScripts();
    int next = scripts(Dialect.SQLITE).size() + 1;
    Files.writeString(
        newer.resolve(String.format("V%03d__from_the_future.sql", next)),
        "CREATE TABLE from_the_future (x INTEGER);\n");
    migrate(List.of("filesystem:" + newer));

    assertThatThrownBy(() -> migrate(Migrations.locations(Dialect.SQLITE)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(
            String.format(
                "has schema version %03d, newer than this build of asa knows (up to %03d)",
                next, next - 1))
        .hasMessageContaining("Run that newer version, or point this one at another database");
  }

  @Test
  void aFileThatIsNotAMigrationStopsTheStart() throws IOException {
    Path scripts = copyOfTheScripts();
    Files.writeString(scripts.resolve("V010_one_underscore.sql"), "CREATE TABLE t (x INTEGER);\n");

    assertThatThrownBy(() -> migrate(List.of("filesystem:" + scripts)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("V010_one_underscore.sql");
  }

  /** A database an older build migrated up to a version this build does not know. */
  @Test
  void aDatabaseFromBeforeFlywayThatIsNewerIsRefused() throws SQLException {
    try (Connection c = sqlite()) {
      OlderBuild.migrate(c, Dialect.SQLITE, 999);
      c.createStatement()
          .execute("INSERT INTO schema_migrations VALUES (999, 'from_the_future', 0)");
    }
    assertThatThrownBy(() -> Stores.open(null, dir))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("has schema version 999, newer than this build of asa knows");
    try (Connection c = sqlite()) {
      assertThat(tables(c)).doesNotContain(Migrations.HISTORY_TABLE);
    }
  }

  /** A database an older build migrated completely: baselined, nothing runs twice. */
  @Test
  void aCurrentDatabaseFromBeforeFlywayIsBaselined() throws SQLException {
    int newest = scripts(Dialect.SQLITE).size();
    try (Connection c = sqlite()) {
      OlderBuild.migrate(c, Dialect.SQLITE, newest);
    }
    Stores.open(null, dir).close();
    Stores.open(null, dir).close();
    try (Connection c = sqlite();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT version, type FROM " + Migrations.HISTORY_TABLE)) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1) + " " + rs.getString(2))
          .isEqualTo(String.format("%03d BASELINE", newest));
      assertThat(rs.next()).isFalse();
    }
  }

  /**
   * Several stores opening one SQLite file without a schema at once: each migration runs once. The
   * file is already in WAL mode: several connections switching a new file to WAL at the same moment
   * can get SQLITE_BUSY in {@link SqliteDatabase#open}, before any migration runs.
   */
  @Test
  void concurrentStartersOnOneSqliteFileMigrateOnce() throws Exception {
    try (Connection c = sqlite();
        Statement s = c.createStatement()) {
      s.execute("PRAGMA journal_mode=WAL");
    }
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<String>> starters = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        starters.add(
            pool.submit(() -> {
              go.await();
              try (Store s = Stores.open(null, dir)) {
                return s.describe();
              }
            }));
      }
      go.countDown();
      for (Future<String> starter : starters) {
        assertThat(starter.get(60, TimeUnit.SECONDS)).startsWith("SQLite ");
      }
    } finally {
      pool.shutdownNow();
    }
    try (Connection c = sqlite()) {
      assertThat(applied(c)).isEqualTo(scripts(Dialect.SQLITE));
    }
  }

  private void migrate(List<String> locations) {
    try (SqliteDatabase database = SqliteDatabase.open(dir.resolve("asa.db"))) {
      Migrations.migrate(database, locations);
    }
  }

  private Path copyOfTheScripts() throws IOException {
    Path copy = Files.createDirectories(dir.resolve("scripts"));
    for (String script : scripts(Dialect.SQLITE)) {
      Files.writeString(copy.resolve(script), OlderBuild.read(Dialect.SQLITE, script));
    }
    return copy;
  }

  private Connection sqlite() throws SQLException {
    return DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("asa.db"));
  }

  private static List<String> tables(Connection c) throws SQLException {
    List<String> names = new ArrayList<>();
    try (ResultSet rs = c.getMetaData().getTables(null, null, "%", new String[] {"TABLE"})) {
      while (rs.next()) {
        names.add(rs.getString("TABLE_NAME"));
      }
    }
    return names;
  }
}
