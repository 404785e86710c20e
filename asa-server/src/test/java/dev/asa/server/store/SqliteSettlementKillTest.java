package dev.asa.server.store;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The settlement kill test on SQLite. */
class SqliteSettlementKillTest extends SettlementKillContract {
  @TempDir Path dir;

  @Override
  protected String url() {
    return "sqlite:" + dir.resolve("kill.db");
  }

  @Override
  protected Store openStore() {
    return Stores.open(url(), null);
  }
}
