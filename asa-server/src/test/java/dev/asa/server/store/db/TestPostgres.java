package dev.asa.server.store.db;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.asa.server.store.PostgresStoreTest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.UUID;

/**
 * A fresh PostgreSQL schema for a test outside this package (as {@link PostgresStoreTest} makes its
 * own): {@code ASA_TEST_POSTGRES_URL}, default {@code postgresql://postgres@127.0.0.1:5432/test}.
 * Skips when the server cannot be reached, but fails when {@code CI=true}.
 */
public final class TestPostgres implements AutoCloseable {

  private static final String SERVER_URL =
      System.getenv()
          .getOrDefault("ASA_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test");

  private final String schema;

  private TestPostgres(String schema) {
    this.schema = schema;
  }

  /** Creates {@code asa_test_<random>}; drop it with {@link #close()}. */
  public static TestPostgres freshSchema() {
    String candidate = "asa_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    try (Connection c = connect(SERVER_URL);
        Statement s = c.createStatement()) {
      s.execute("CREATE SCHEMA " + candidate);
      return new TestPostgres(candidate);
    } catch (SQLException e) {
      String message =
          "PostgreSQL is not reachable at "
              + DatabaseUrl.redact(SERVER_URL)
              + " ("
              + e.getMessage()
              + "); start it or set ASA_TEST_POSTGRES_URL";
      if ("true".equalsIgnoreCase(System.getenv("CI"))) {
        fail(message + ". CI=true, so this fails instead of skipping.", e);
      }
      assumeTrue(false, message + ". Skipping.");
      throw new AssertionError("unreachable");
    }
  }

  /** The URL a server or store is given ({@code --db}) to use this schema. */
  public String url() {
    return SERVER_URL + (SERVER_URL.contains("?") ? "&" : "?") + "currentSchema=" + schema;
  }

  /** A JDBC connection to this schema, for a test that writes as an older build would. */
  public Connection connection() throws SQLException {
    Connection c = connect(SERVER_URL);
    c.setSchema(schema);
    return c;
  }

  @Override
  public void close() throws SQLException {
    try (Connection c = connect(SERVER_URL);
        Statement s = c.createStatement()) {
      s.execute("DROP SCHEMA " + schema + " CASCADE");
    }
  }

  private static Connection connect(String url) throws SQLException {
    DatabaseUrl.Postgres pg = (DatabaseUrl.Postgres) DatabaseUrl.parse(url, null);
    Properties props = new Properties();
    if (pg.user() != null) {
      props.setProperty("user", pg.user());
    }
    if (pg.password() != null) {
      props.setProperty("password", pg.password());
    }
    props.setProperty("connectTimeout", "5");
    return DriverManager.getConnection(pg.jdbcUrl(), props);
  }
}
