package dev.asa.server.store.db;

/**
 * The two databases the store speaks. The data SQL is written once in the subset both understand
 * (INSERT ... RETURNING, LIMIT, plain types); only schema scripts differ. A script that differs
 * lives in the migrations folder of each dialect, one that does not in the common folder (see
 * {@link Migrations}).
 */
public enum Dialect {
  SQLITE("sqlite"),
  POSTGRESQL("postgresql");

  private final String folder;

  Dialect(String folder) {
    this.folder = folder;
  }

  /**
   * Name of the folder under {@code dev/asa/server/store/migrations/} holding the scripts written
   * for this dialect (next to {@code common/}).
   */
  String migrationFolder() {
    return folder;
  }
}
