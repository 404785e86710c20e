package dev.asa.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a run left on disk: the store's bytes and its agreements (all, and those that reached
 * CLOSED), measured after the server stopped.
 *
 * @param bytes the store's size on disk
 * @param what how the bytes were counted, e.g. "asa.db (clean stop, WAL checkpointed)"
 * @param byTable bytes of each table with its indexes, largest first (empty if the store cannot
 *     tell)
 */
record StoreFootprint(
    long bytes, long agreements, long closed, String what, Map<String, Long> byTable) {

  /**
   * Tables whose rows are deleted after a fixed time, whatever happens to agreements: a
   * long-running server holds as many of them as its request rate fills in that time, not a number
   * per agreement (request nonces are pruned once their signature window has passed).
   */
  static final Set<String> TRANSIENT = Set.of("request_nonces");

  /** Bytes per closed agreement, rounded; -1 when none closed. */
  long bytesPerClosed() {
    return closed == 0 ? -1 : Math.round((double) bytes / closed);
  }

  /** Bytes per closed agreement without the {@link #TRANSIENT} tables; -1 when none closed. */
  long keptBytesPerClosed() {
    long transientBytes =
        byTable.entrySet().stream()
            .filter(e -> TRANSIENT.contains(e.getKey()))
            .mapToLong(Map.Entry::getValue)
            .sum();
    return closed == 0 ? -1 : Math.round((double) (bytes - transientBytes) / closed);
  }

  /**
   * SQLite: the database file with its -wal and -shm files if any are left (a clean stop
   * checkpoints the WAL into the file and removes them). Sizes are read before the count opens the
   * database, read-only.
   */
  static StoreFootprint sqlite(Path db, boolean cleanStop) throws IOException, SQLException {
    long bytes = 0;
    List<String> files = new ArrayList<>();
    for (String suffix : List.of("", "-wal", "-shm")) {
      Path f = db.resolveSibling(db.getFileName() + suffix);
      if (Files.exists(f)) {
        bytes += Files.size(f);
        files.add(f.getFileName().toString());
      }
    }
    long[] counts;
    Map<String, Long> byTable;
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:file:" + db + "?mode=ro")) {
      counts = counts(c, "agreements");
      byTable = sqliteTables(c);
    }
    return new StoreFootprint(
        bytes,
        counts[0],
        counts[1],
        String.join(" + ", files)
            + (cleanStop ? " after a clean stop" : " after a KILLED server (WAL not checkpointed)"),
        byTable);
  }

  /** PostgreSQL: pg_total_relation_size (heap, TOAST, indexes) of every table of the schema. */
  static StoreFootprint postgres(String jdbcUrl, String schema) throws SQLException {
    try (Connection c = DriverManager.getConnection(jdbcUrl)) {
      long bytes;
      long tables;
      try (PreparedStatement s =
          c.prepareStatement(
              "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0), count(*) FROM pg_class c"
                  + " JOIN pg_namespace n ON n.oid = c.relnamespace"
                  + " WHERE n.nspname = ? AND c.relkind IN ('r', 'p', 'm')")) {
        s.setString(1, schema);
        try (ResultSet r = s.executeQuery()) {
          r.next();
          bytes = r.getLong(1);
          tables = r.getLong(2);
        }
      }
      long[] counts = counts(c, schema + ".agreements");
      return new StoreFootprint(
          bytes,
          counts[0],
          counts[1],
          "pg_total_relation_size of the " + tables + " tables of schema " + schema,
          sizes(
              c,
              "SELECT c.relname, pg_total_relation_size(c.oid) FROM pg_class c"
                  + " JOIN pg_namespace n ON n.oid = c.relnamespace"
                  + " WHERE n.nspname = '"
                  + schema
                  + "' AND c.relkind IN ('r', 'p', 'm') ORDER BY 2 DESC"));
    }
  }

  /**
   * PostgreSQL after {@code VACUUM FULL} of every table of the schema: the rows alive, without the
   * dead row versions an update or delete leaves until autovacuum makes their space reusable. A
   * short run measures those at their worst; a long-running database reuses their space, so its
   * bytes per agreement lie between the two figures. Rewrites the tables: the servers must have
   * stopped.
   */
  static StoreFootprint postgresCompacted(String jdbcUrl, String schema) throws SQLException {
    try (Connection c = DriverManager.getConnection(jdbcUrl)) {
      List<String> tables = new ArrayList<>();
      try (PreparedStatement s =
          c.prepareStatement(
              "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                  + " WHERE n.nspname = ? AND c.relkind = 'r'")) {
        s.setString(1, schema);
        try (ResultSet r = s.executeQuery()) {
          while (r.next()) {
            tables.add(r.getString(1));
          }
        }
      }
      for (String table : tables) {
        try (PreparedStatement s =
            c.prepareStatement("VACUUM FULL \"" + schema + "\".\"" + table + "\"")) {
          s.execute();
        }
      }
    }
    return postgres(jdbcUrl, schema);
  }

  /**
   * Pages of each table and its indexes, from SQLite's dbstat table (compiled into sqlite-jdbc);
   * empty where it is missing.
   */
  private static Map<String, Long> sqliteTables(Connection c) {
    try {
      return sizes(
          c,
          "SELECT m.tbl_name, sum(d.pgsize) FROM dbstat d JOIN sqlite_master m ON m.name = d.name"
              + " GROUP BY m.tbl_name ORDER BY 2 DESC");
    } catch (SQLException e) {
      return Map.of();
    }
  }

  private static Map<String, Long> sizes(Connection c, String sql) throws SQLException {
    Map<String, Long> m = new LinkedHashMap<>();
    try (PreparedStatement s = c.prepareStatement(sql);
        ResultSet r = s.executeQuery()) {
      while (r.next()) {
        m.put(r.getString(1), r.getLong(2));
      }
    }
    return m;
  }

  /** The largest tables' bytes per closed agreement: "agreement_events 7,100, agreements ...". */
  String largestPerClosed(int n) {
    if (closed == 0 || byTable.isEmpty()) {
      return "";
    }
    List<String> parts = new ArrayList<>();
    for (Map.Entry<String, Long> e : byTable.entrySet()) {
      if (parts.size() == n) {
        break;
      }
      parts.add(
          e.getKey() + " " + String.format(java.util.Locale.ROOT, "%,d", e.getValue() / closed));
    }
    return String.join(", ", parts);
  }

  private static long[] counts(Connection c, String table) throws SQLException {
    try (PreparedStatement s =
            c.prepareStatement(
                "SELECT count(*), coalesce(sum(CASE WHEN lower(state) = 'closed' THEN 1 ELSE 0 END), 0)"
                    + " FROM "
                    + table);
        ResultSet r = s.executeQuery()) {
      r.next();
      return new long[] {r.getLong(1), r.getLong(2)};
    }
  }
}
