package dev.asa.server.store;

/**
 * The two databases the store speaks. The data SQL is written once in the subset both understand
 * (INSERT ... RETURNING, LIMIT, plain types); only the schema scripts differ, and they live in one
 * migrations folder per dialect.
 */
enum Dialect {
  SQLITE("sqlite"),
  POSTGRESQL("postgresql");

  private final String folder;

  Dialect(String folder) {
    this.folder = folder;
  }

  /** Name of the folder under {@code dev/asa/server/store/migrations/} holding its scripts. */
  String migrationFolder() {
    return folder;
  }
}
