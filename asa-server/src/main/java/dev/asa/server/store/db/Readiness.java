package dev.asa.server.store.db;

/**
 * Whether the store can serve requests ({@code GET /ready}): the database answers a query, and
 * every migration script of this build is applied to it. {@code /health} only says the process is
 * up.
 */
public record Readiness(Check database, Check migrations) {

  /** One check: passed, or failed with what is wrong. */
  public record Check(boolean ok, String detail) {
    public static Check passed() {
      return new Check(true, "ok");
    }

    public static Check failed(String detail) {
      return new Check(false, detail);
    }
  }

  public boolean ready() {
    return database.ok() && migrations.ok();
  }
}
