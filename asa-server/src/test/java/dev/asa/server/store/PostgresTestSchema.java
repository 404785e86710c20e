package dev.asa.server.store;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.UUID;

/**
 * A fresh PostgreSQL schema for one test class that runs a whole server, as {@code
 * PostgresStoreTest} makes for the store: the server is {@code ASA_TEST_POSTGRES_URL} (default
 * {@code postgresql://postgres@127.0.0.1:5432/test}); unreachable, the tests are skipped, unless
 * {@code CI=true}, where that is a failure.
 */
public final class PostgresTestSchema implements AutoCloseable {
  private static final String SERVER_URL =
      System.getenv()
          .getOrDefault("ASA_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test");

  private final String name;

  private PostgresTestSchema(String name) {
    this.name = name;
  }

  public static PostgresTestSchema create() {
    String candidate = "asa_e2e_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      s.execute("CREATE SCHEMA " + candidate);
      return new PostgresTestSchema(candidate);
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
      assumeTrue(false, message + ". Skipping the PostgreSQL end-to-end tests.");
      throw new IllegalStateException("unreachable");
    }
  }

  /** The database URL a server uses to work in this schema. */
  public String url() {
    return SERVER_URL + (SERVER_URL.contains("?") ? "&" : "?") + "currentSchema=" + name;
  }

  @Override
  public void close() throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      s.execute("DROP SCHEMA " + name + " CASCADE");
    }
  }

  private static Connection connect() throws SQLException {
    DatabaseUrl.Postgres pg = (DatabaseUrl.Postgres) DatabaseUrl.parse(SERVER_URL, null);
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
