package dev.asa.server.store.db;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Where the data lives, parsed from the one string an operator configures ({@code --db} / {@code
 * ASA_DB_URL}). Accepts the URL forms people already have at hand: libpq-style {@code
 * postgresql://user:pass@host:port/db?...} (what hosting providers hand out), JDBC URLs, and {@code
 * sqlite:/path/file.db}.
 */
public sealed interface DatabaseUrl {

  String ACCEPTED_FORMS =
      "accepted forms: empty (SQLite file asa.db in the data directory),"
          + " sqlite:/path/to/file.db, jdbc:sqlite:/path/to/file.db,"
          + " postgresql://user:password@host:port/database?param=value, postgres://...,"
          + " jdbc:postgresql://host:port/database?user=...&password=...";

  /** A SQLite database file. */
  record Sqlite(Path file) implements DatabaseUrl {}

  /**
   * A PostgreSQL server.
   *
   * @param jdbcUrl without credentials
   * @param user null when the URL names none (the driver then uses its own defaults)
   * @param password null when the URL names none
   * @param hosts "host:port" (several, comma separated, for a multi-host URL)
   * @param database may be empty: the server then uses the user name
   */
  record Postgres(String jdbcUrl, String user, String password, String hosts, String database)
      implements DatabaseUrl {

    /** "host:port/database", safe for logs (no password). */
    String display() {
      return hosts + "/" + database;
    }

    @Override
    public String toString() {
      // Never print the password, not even by accident in a debug log.
      return "Postgres[" + jdbcUrl + ", user=" + user + "]";
    }
  }

  /**
   * Parses {@code dbUrl}.
   *
   * @param dbUrl null or blank selects the default SQLite file
   * @param dataDir where the default SQLite file goes; null means {@code ./asa-data}
   * @throws IllegalArgumentException for an unknown form, naming the accepted ones
   */
  static DatabaseUrl parse(String dbUrl, Path dataDir) {
    if (dbUrl == null || dbUrl.isBlank()) {
      Path dir = dataDir != null ? dataDir : Path.of("asa-data");
      return new Sqlite(dir.resolve("asa.db").toAbsolutePath().normalize());
    }
    String url = dbUrl.strip();
    String lower = url.toLowerCase(Locale.ROOT);
    if (lower.startsWith("jdbc:sqlite:")) {
      return sqlite(url.substring("jdbc:sqlite:".length()), dbUrl);
    }
    if (lower.startsWith("sqlite:")) {
      return sqlite(url.substring("sqlite:".length()), dbUrl);
    }
    for (String prefix : new String[] {"jdbc:postgresql://", "postgresql://", "postgres://"}) {
      if (lower.startsWith(prefix)) {
        return postgres(url.substring(prefix.length()), dbUrl);
      }
    }
    throw new IllegalArgumentException(
        "unsupported database URL '" + redact(dbUrl) + "'; " + ACCEPTED_FORMS);
  }

  private static DatabaseUrl sqlite(String rest, String original) {
    String path = rest;
    if (path.regionMatches(true, 0, "file:", 0, 5)) {
      path = path.substring(5);
    }
    int query = path.indexOf('?');
    if (query >= 0) {
      path = path.substring(0, query);
    }
    if (path.startsWith("//")) { // sqlite:///abs/path -> /abs/path
      path = path.substring(2);
    }
    if (path.isBlank() || path.contains(":memory:") || path.startsWith("memory")) {
      // The store uses separate writer and reader connections; an in-memory database would be a
      // different, empty database on each of them.
      throw new IllegalArgumentException(
          "database URL '"
              + original
              + "' names no SQLite file (in-memory databases are not supported); "
              + ACCEPTED_FORMS);
    }
    return new Sqlite(Path.of(path).toAbsolutePath().normalize());
  }

  private static DatabaseUrl postgres(String rest, String original) {
    String query = null;
    int q = rest.indexOf('?');
    if (q >= 0) {
      query = rest.substring(q + 1);
      rest = rest.substring(0, q);
    }
    int slash = rest.indexOf('/');
    String authority = slash >= 0 ? rest.substring(0, slash) : rest;
    String database = slash >= 0 ? rest.substring(slash + 1) : "";
    String user = null;
    String password = null;
    // The last '@' separates credentials from hosts: an unencoded '@' in a password still works.
    int at = authority.lastIndexOf('@');
    if (at >= 0) {
      String userInfo = authority.substring(0, at);
      authority = authority.substring(at + 1);
      int colon = userInfo.indexOf(':');
      user = decode(colon >= 0 ? userInfo.substring(0, colon) : userInfo);
      password = colon >= 0 ? decode(userInfo.substring(colon + 1)) : null;
      if (user.isEmpty()) {
        user = null;
      }
    }
    String hosts = authority.isEmpty() ? "localhost" : authority;
    if (database.contains("/")) {
      throw new IllegalArgumentException(
          "database URL '"
              + redact(original)
              + "' has a database name with '/'; "
              + ACCEPTED_FORMS);
    }
    String jdbc =
        "jdbc:postgresql://" + hosts + "/" + database + (query != null ? "?" + query : "");
    return new Postgres(jdbc, user, password, withDefaultPort(hosts), decode(database));
  }

  /** Adds ":5432" to hosts written without a port, so messages always name host and port. */
  private static String withDefaultPort(String hosts) {
    StringBuilder out = new StringBuilder();
    for (String host : hosts.split(",")) {
      if (!out.isEmpty()) {
        out.append(',');
      }
      boolean hasPort = host.startsWith("[") ? host.contains("]:") : host.contains(":");
      out.append(hasPort ? host : host + ":5432");
    }
    return out.toString();
  }

  private static String decode(String s) {
    // Userinfo is percent-encoded, not form-encoded: a '+' is a plus sign.
    return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
  }

  /** The URL with any password replaced, for error messages. */
  static String redact(String url) {
    return url.replaceAll("(://[^:/@]*:)[^@/]*@", "$1***@")
        .replaceAll("(?i)(password=)[^&]*", "$1***");
  }
}
