package dev.asa.server.store.db;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What this package's SQLite benchmarks share: a database in a folder of its own, and row keys. */
final class BenchmarkDatabases {
  private BenchmarkDatabases() {}

  /** Closes the database and deletes its folder. */
  static void closeAndDelete(SqliteDatabase database, Path dir) throws IOException {
    database.close();
    try (var files = Files.list(dir)) {
      for (Path f : files.toList()) {
        Files.delete(f);
      }
    }
    Files.delete(dir);
  }

  /** The key of row {@code i}, spread over the key space as random agreement ids are. */
  static String spreadId(int i) {
    return String.format("asa-2026-12-07-%016x", i * 0x9E3779B97F4A7C15L);
  }
}
