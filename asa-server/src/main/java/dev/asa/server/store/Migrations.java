package dev.asa.server.store;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Brings a database's schema up to the version this build knows, by applying the SQL scripts
 * under {@code dev/asa/server/store/migrations/<dialect>/} in order. Each script runs in its own
 * transaction together with its row in {@code schema_migrations}, so a script is either fully
 * applied and recorded or not at all. Scripts are never edited once released: a change is a new
 * script.
 *
 * <p>The list of scripts is written out below rather than discovered by scanning the classpath:
 * scanning jars is fragile, and the list makes "what does this build know" obvious.
 * MigrationsTest checks that it matches the folders.
 *
 * <p>Scripts are plain SQL; a statement ends with ';' at the end of a line, and lines starting
 * with "--" are comments.
 */
final class Migrations {

  /** Every migration this build knows, oldest first. Add new ones at the end (both dialects). */
  static final List<String> SCRIPTS = List.of("V001__init.sql", "V002__service_type_index.sql", "V003__agreement_links.sql", "V004__timers.sql",
      "V005__escrow.sql", "V006__verification_jobs.sql", "V007__shadow_seals.sql", "V008__request_nonces.sql",
      "V009__agreement_facts.sql");

  private static final Pattern SCRIPT_NAME = Pattern.compile("V(\\d+)__(\\w+)\\.sql");

  /**
   * Arbitrary constant identifying "asa schema migrations" among advisory locks; combined with
   * the schema name so two schemas in one database do not wait for each other.
   */
  private static final int ADVISORY_LOCK_CLASS = 0x41534100; // "ASA\0"

  private record Migration(int version, String name, String resource) {}

  private Migrations() {}

  /**
   * Applies the missing migrations.
   *
   * @throws IllegalStateException if the database was migrated by a newer build
   */
  static void migrate(Database database) {
    List<Migration> known = known(database.dialect());
    int newestKnown = known.getLast().version();
    database.write("checking the schema version", sql -> {
      lock(database, sql);
      try (Statement s = sql.connection().createStatement()) {
        s.execute("CREATE TABLE IF NOT EXISTS schema_migrations ("
            + " version INTEGER NOT NULL PRIMARY KEY,"
            + " name TEXT NOT NULL,"
            + " applied_at BIGINT NOT NULL)");
      }
      int applied = newestApplied(sql);
      if (applied > newestKnown) {
        throw new IllegalStateException("the database " + database.describe()
            + " has schema version " + applied + ", newer than this build of asa knows (up to "
            + newestKnown + "): it was upgraded by a newer asa. Run that newer version, or point"
            + " this one at another database; refusing to start rather than misread the data");
      }
      return null;
    });
    for (Migration migration : known) {
      database.write("applying migration " + migration.resource(), sql -> {
        // Re-check under the lock: another server starting at the same time may have applied it.
        lock(database, sql);
        if (isApplied(sql, migration.version())) {
          return null;
        }
        try (Statement s = sql.connection().createStatement()) {
          for (String statement : statements(read(migration.resource()))) {
            s.execute(statement);
          }
        }
        PreparedStatement insert = sql.prepare(
            "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)");
        insert.setInt(1, migration.version());
        insert.setString(2, migration.name());
        insert.setLong(3, System.currentTimeMillis());
        insert.executeUpdate();
        return null;
      });
    }
  }

  /** The newest version this build knows. */
  static int newestKnownVersion() {
    return parse(SCRIPTS.getLast(), Dialect.SQLITE).version();
  }

  /**
   * Serialises concurrent starters. SQLite needs nothing: the write transaction is BEGIN
   * IMMEDIATE, which already excludes every other writer. PostgreSQL runs DDL concurrently, and
   * two servers creating the same table at once would make one fail; a transaction-scoped
   * advisory lock makes the second wait, then find the work done.
   */
  private static void lock(Database database, Statements sql) throws SQLException {
    if (database.dialect() != Dialect.POSTGRESQL) {
      return;
    }
    PreparedStatement s =
        sql.prepare("SELECT pg_advisory_xact_lock(?, hashtext(coalesce(current_schema(), '')))");
    s.setInt(1, ADVISORY_LOCK_CLASS);
    try (ResultSet rs = s.executeQuery()) {
      rs.next();
    }
  }

  private static int newestApplied(Statements sql) throws SQLException {
    try (ResultSet rs =
        sql.prepare("SELECT coalesce(max(version), 0) FROM schema_migrations").executeQuery()) {
      rs.next();
      return rs.getInt(1);
    }
  }

  private static boolean isApplied(Statements sql, int version) throws SQLException {
    PreparedStatement s = sql.prepare("SELECT 1 FROM schema_migrations WHERE version = ?");
    s.setInt(1, version);
    try (ResultSet rs = s.executeQuery()) {
      return rs.next();
    }
  }

  private static List<Migration> known(Dialect dialect) {
    return SCRIPTS.stream().map(script -> parse(script, dialect)).toList();
  }

  private static Migration parse(String script, Dialect dialect) {
    Matcher m = SCRIPT_NAME.matcher(script);
    if (!m.matches()) {
      throw new IllegalStateException("migration script name " + script
          + " does not match V<number>__<name>.sql");
    }
    return new Migration(Integer.parseInt(m.group(1)), m.group(2),
        "dev/asa/server/store/migrations/" + dialect.migrationFolder() + "/" + script);
  }

  static String read(String resource) {
    try (InputStream in = Migrations.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("migration script " + resource + " is missing from the"
            + " build (it is listed in Migrations.SCRIPTS)");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read migration script " + resource, e);
    }
  }

  /** Splits a script into statements: ';' at the end of a line ends one; "--" lines are dropped. */
  static List<String> statements(String script) {
    List<String> out = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    for (String line : script.split("\\R")) {
      String trimmed = line.strip();
      if (trimmed.isEmpty() || trimmed.startsWith("--")) {
        continue;
      }
      current.append(line).append('\n');
      if (trimmed.endsWith(";")) {
        String sql = current.toString().strip();
        out.add(sql.substring(0, sql.length() - 1));
        current.setLength(0);
      }
    }
    if (!current.toString().isBlank()) {
      out.add(current.toString().strip());
    }
    return out;
  }
}
