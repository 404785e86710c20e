package dev.asa.server.store.db;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.CoreErrorCode;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.flywaydb.core.api.exception.FlywayValidateException;
import org.flywaydb.core.api.output.ValidateOutput;
import org.flywaydb.core.api.pattern.ValidatePattern;

/**
 * Brings a database's schema up to the version this build knows, with Flyway: the SQL scripts
 * {@code V<NNN>__<name>.sql} under {@code dev/asa/server/store/migrations/} run in order, each in
 * its own transaction together with its row in Flyway's {@code flyway_schema_history}. A dialect's
 * scripts are those of its own folder ({@code sqlite/}, {@code postgresql/}) and those of {@code
 * common/}, which holds each script that is the same for every dialect once; a version is in one of
 * the two folders, never both. Every script in them is applied; a file whose name is not a
 * migration's stops the start.
 *
 * <p>Flyway records a script by its file name, without the folder, so moving a released script
 * between {@code common/} and a dialect's folder unchanged leaves databases that applied it valid.
 *
 * <p>Before migrating, Flyway validates what the database has applied against the scripts of this
 * build, and the server refuses to start when:
 *
 * <ul>
 *   <li>a script was edited after it was applied (its checksum differs): released scripts are never
 *       edited, a change is a new script;
 *   <li>the database was migrated by a newer build (it has versions this build does not know): this
 *       build could misread the data;
 *   <li>the database has a script applied that this build does not have, or failed half-way.
 * </ul>
 *
 * <p>Concurrent starters: on PostgreSQL Flyway takes an advisory lock keyed by the history table
 * (so per schema) around the migration; on SQLite each migration's transaction begins IMMEDIATE on
 * the one writer connection (see {@link SqliteDatabase}), which excludes every other writer.
 *
 * <p>Databases from before Flyway recorded their scripts in {@code schema_migrations}. On the first
 * start with Flyway such a database is baselined at the newest version recorded there (the scripts
 * up to it are not run again), then the newer scripts run; finally a row with version {@value
 * #LEGACY_RETIRED} is added to {@code schema_migrations}, so that an older build started on this
 * database refuses it ("newer than this build") instead of running on a schema it does not know.
 */
public final class Migrations {

  /** Flyway's history table (its default name). */
  public static final String HISTORY_TABLE = "flyway_schema_history";

  /** The table in which builds before Flyway recorded their migrations. */
  static final String LEGACY_TABLE = "schema_migrations";

  /** The version recorded in {@link #LEGACY_TABLE} once Flyway has taken over the database. */
  public static final int LEGACY_RETIRED = Integer.MAX_VALUE;

  private Migrations() {}

  /** Classpath folder holding the migration scripts, one subfolder per dialect and a common one. */
  static final String ROOT = "dev/asa/server/store/migrations/";

  /** Subfolder of {@link #ROOT} holding the scripts that are the same for every dialect. */
  static final String COMMON_FOLDER = "common";

  /** Flyway locations of a dialect's scripts: the common ones and its own. */
  static List<String> locations(Dialect dialect) {
    return List.of(
        "classpath:" + ROOT + COMMON_FOLDER, "classpath:" + ROOT + dialect.migrationFolder());
  }

  /**
   * Applies the missing migrations.
   *
   * @return the migrations the database now has applied, version to script (what {@link #missing}
   *     later checks it still has)
   * @throws IllegalStateException if the database was migrated by a newer build, a released script
   *     was edited, or a migration failed
   */
  public static Map<String, String> migrate(Database database) {
    return migrate(database, locations(database.dialect()));
  }

  /** {@link #migrate(Database)} with the scripts taken from {@code locations} (for tests). */
  static Map<String, String> migrate(Database database, List<String> locations) {
    return database.withDataSource(dataSource -> {
      OptionalInt legacy = legacyVersion(database, dataSource);
      FluentConfiguration config = configure(dataSource, locations);
      if (legacy.isPresent()) {
        config
            .baselineOnMigrate(true)
            // as the scripts write their versions (V009 is "009" in the history table)
            .baselineVersion(String.format("%03d", legacy.getAsInt()))
            .baselineDescription("applied by asa before Flyway (" + LEGACY_TABLE + ")");
      }
      Flyway flyway = config.load();
      if (legacy.isPresent()) {
        MigrationVersion recorded =
            MigrationVersion.fromVersion(String.format("%03d", legacy.getAsInt()));
        Optional<MigrationVersion> newestKnown = newestKnown(flyway).map(MigrationInfo::getVersion);
        if (newestKnown.isEmpty() || recorded.compareTo(newestKnown.get()) > 0) {
          throw newerThanThisBuild(
              database,
              recorded.getVersion(),
              newestKnown.map(MigrationVersion::getVersion).orElse("0"));
        }
      }
      try {
        flyway.migrate();
      } catch (FlywayValidateException e) {
        throw refusal(database, flyway, e);
      } catch (FlywayException e) {
        throw new IllegalStateException(
            "cannot bring the schema of " + database.describe() + " up to date: " + e.getMessage(),
            e);
      }
      if (legacy.isPresent()) {
        retireLegacyTable(database, dataSource);
      }
      return applied(flyway);
    });
  }

  /** The successful migrations recorded in the history, version to script (or to the baseline). */
  private static Map<String, String> applied(Flyway flyway) {
    Map<String, String> applied = new TreeMap<>();
    for (MigrationInfo m : flyway.info().all()) {
      if (m.getVersion() != null && m.getState().isApplied() && !m.getState().isFailed()) {
        applied.put(
            m.getVersion().getVersion(),
            m.getScript() == null ? "baseline " + m.getVersion() : m.getScript());
      }
    }
    return applied;
  }

  /**
   * The migrations of {@code expected} (what {@link #migrate} applied at start-up) that the
   * database no longer records as applied, for readiness; empty when it has them all. Not empty
   * only when the database changed under a running server: restored from an older backup, or its
   * history edited by hand. A plain read of the history table: no lock, no scan of the scripts.
   */
  public static List<String> missing(Database database, Map<String, String> expected) {
    Set<String> recorded =
        new HashSet<>(
            database.read(
                "reading " + HISTORY_TABLE,
                h ->
                    h.createQuery("SELECT version FROM " + HISTORY_TABLE + " WHERE success")
                        .mapTo(String.class)
                        .list()));
    return expected.entrySet().stream()
        .filter(e -> !recorded.contains(e.getKey()))
        .map(e -> e.getValue() + " (not applied)")
        .toList();
  }

  private static FluentConfiguration configure(DataSource dataSource, List<String> locations) {
    return Flyway.configure(Migrations.class.getClassLoader())
        .dataSource(dataSource)
        .locations(locations.toArray(String[]::new))
        .failOnMissingLocations(true)
        .validateMigrationNaming(true)
        // Flyway's default ignores versions applied by a newer build ("*:future"); nothing is
        // ignored here, so such a database fails validation and the server refuses to start.
        .ignoreMigrationPatterns(new ValidatePattern[0])
        .validateOnMigrate(true)
        .loggers("slf4j");
  }

  /**
   * The newest version recorded in {@link #LEGACY_TABLE}, when the database was migrated by a build
   * before Flyway and Flyway has not taken it over yet; empty otherwise.
   */
  private static OptionalInt legacyVersion(Database database, DataSource dataSource) {
    try (Connection c = dataSource.getConnection()) {
      if (!tableExists(database, c, LEGACY_TABLE) || tableExists(database, c, HISTORY_TABLE)) {
        return OptionalInt.empty();
      }
      try (PreparedStatement s =
          c.prepareStatement(
              "SELECT coalesce(max(version), 0) FROM " + LEGACY_TABLE + " WHERE version < ?")) {
        s.setInt(1, LEGACY_RETIRED);
        try (ResultSet rs = s.executeQuery()) {
          rs.next();
          int version = rs.getInt(1);
          return version > 0 ? OptionalInt.of(version) : OptionalInt.empty();
        }
      }
    } catch (SQLException e) {
      throw SqlErrors.translate(e, database, "looking for " + LEGACY_TABLE);
    }
  }

  private static boolean tableExists(Database database, Connection c, String table)
      throws SQLException {
    // PostgreSQL: in the connection's current schema (the URL's currentSchema), as Flyway does.
    String schema = database.dialect() == Dialect.POSTGRESQL ? c.getSchema() : null;
    DatabaseMetaData meta = c.getMetaData();
    try (ResultSet rs = meta.getTables(null, schema, table, new String[] {"TABLE"})) {
      return rs.next();
    }
  }

  /** Makes builds from before Flyway refuse this database (see the class comment). */
  private static void retireLegacyTable(Database database, DataSource dataSource) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "INSERT INTO "
                    + LEGACY_TABLE
                    + " (version, name, applied_at) VALUES (?, ?, ?) ON CONFLICT (version) DO NOTHING")) {
      s.setInt(1, LEGACY_RETIRED);
      s.setString(2, "moved_to_" + HISTORY_TABLE);
      s.setLong(3, System.currentTimeMillis());
      s.executeUpdate();
    } catch (SQLException e) {
      throw SqlErrors.translate(e, database, "retiring " + LEGACY_TABLE);
    }
  }

  private static Optional<MigrationInfo> newestKnown(Flyway flyway) {
    return Stream.of(flyway.info().all())
        .filter(m ->
            m.getVersion() != null
                && m.getState().isResolved()
                && m.getScript() != null
                && m.getScript().endsWith(".sql"))
        .max(Comparator.comparing(MigrationInfo::getVersion));
  }

  /** Turns Flyway's validation errors into a refusal that says what is wrong and what to do. */
  private static IllegalStateException refusal(
      Database database, Flyway flyway, FlywayValidateException e) {
    List<ValidateOutput> invalid;
    List<MigrationInfo> all;
    Optional<MigrationInfo> newest;
    try {
      invalid = flyway.validateWithResult().invalidMigrations;
      all = List.of(flyway.info().all());
      newest = newestKnown(flyway);
    } catch (FlywayException again) {
      e.addSuppressed(again);
      return new IllegalStateException(
          "the schema of "
              + database.describe()
              + " does not match this build's migration scripts: "
              + e.getMessage(),
          e);
    }
    String newestVersion = newest.map(m -> m.getVersion().getVersion()).orElse("0");
    for (ValidateOutput output : invalid) {
      if (output.errorDetails.errorCode == CoreErrorCode.APPLIED_VERSIONED_MIGRATION_NOT_RESOLVED
          && newest.isPresent()
          && MigrationVersion.fromVersion(output.version).compareTo(newest.get().getVersion())
              > 0) {
        String newestApplied =
            all.stream()
                .filter(m -> m.getVersion() != null && m.getState().isApplied())
                .map(MigrationInfo::getVersion)
                .max(Comparator.naturalOrder())
                .map(MigrationVersion::getVersion)
                .orElse(output.version);
        return newerThanThisBuild(database, newestApplied, newestVersion);
      }
    }
    String problems =
        invalid.stream().map(output -> describe(output, all)).collect(Collectors.joining("; "));
    return new IllegalStateException(
        "the schema of "
            + database.describe()
            + " does not match"
            + " this build's migration scripts: "
            + (problems.isEmpty() ? e.getMessage() : problems)
            + ". Refusing to start rather than run on a schema the scripts do not describe",
        e);
  }

  private static String describe(ValidateOutput output, List<MigrationInfo> all) {
    String script =
        all.stream()
            .filter(
                m -> m.getVersion() != null && m.getVersion().getVersion().equals(output.version))
            .map(MigrationInfo::getScript)
            .findFirst()
            .orElse("V" + output.version + "__" + output.description.replace(' ', '_') + ".sql");
    if (output.errorDetails.errorCode == CoreErrorCode.CHECKSUM_MISMATCH
        || output.errorDetails.errorCode == CoreErrorCode.DESCRIPTION_MISMATCH
        || output.errorDetails.errorCode == CoreErrorCode.TYPE_MISMATCH) {
      return "migration script "
          + script
          + " was changed after it was applied to this database."
          + " Released scripts are never edited: restore "
          + script
          + " as it was released and"
          + " put the change in a new script ("
          + firstLine(output.errorDetails.errorMessage)
          + ")";
    }
    if (output.errorDetails.errorCode == CoreErrorCode.APPLIED_VERSIONED_MIGRATION_NOT_RESOLVED) {
      return "the database has migration "
          + script
          + " applied, which this build does not have."
          + " Run the build that applied it, or restore the script";
    }
    if (output.errorDetails.errorCode == CoreErrorCode.FAILED_VERSIONED_MIGRATION) {
      return "migration "
          + script
          + " failed on an earlier start and is recorded as failed in "
          + HISTORY_TABLE
          + ". Undo whatever it changed, delete its row from "
          + HISTORY_TABLE
          + ", then start again";
    }
    return script + ": " + firstLine(output.errorDetails.errorMessage);
  }

  private static String firstLine(String message) {
    return message == null ? "" : message.lines().findFirst().orElse("").strip();
  }

  private static IllegalStateException newerThanThisBuild(
      Database database, String applied, String newestKnown) {
    return new IllegalStateException(
        "the database "
            + database.describe()
            + " has schema version "
            + applied
            + ", newer than this build of asa knows (up to "
            + newestKnown
            + "): it was upgraded by a newer asa. Run that newer version, or point"
            + " this one at another database; refusing to start rather than misread the data");
  }
}
