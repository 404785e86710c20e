package dev.asa.server.store.verification;

import static org.assertj.core.api.Assertions.assertThat;

import dev.asa.server.store.Store;
import dev.asa.server.store.Stores;
import dev.asa.server.store.db.QueryText;
import dev.asa.server.store.db.TestPostgres;
import java.sql.Connection;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/**
 * The replay check of a standalone verification runs on every request, so its plan must stay an
 * index lookup per attempt however large the table grows. PostgreSQL once chose a hashed subplan
 * for it that read the whole table on each call; a generic plan (what a prepared statement settles
 * on after five runs) is where that showed, so that is the plan read here.
 */
class PostgresJobPlanTest {

  @Test
  void theLatestAttemptIsFoundThroughTheRequestKeyIndex() throws Exception {
    try (TestPostgres pg = TestPostgres.freshSchema();
        Store store = Stores.open(pg.url(), null);
        Connection c = pg.connection();
        Statement s = c.createStatement()) {
      s.execute("SET plan_cache_mode = force_generic_plan");
      s.execute(
          "PREPARE latest_attempt(text) AS "
              + JobStore.SELECT_LATEST_ATTEMPT.replace(":request_key", "$1"));
      String text = QueryText.of(s, "EXPLAIN EXECUTE latest_attempt('caller:digest')");
      assertThat(text).as(text).doesNotContain("Seq Scan on verification_jobs");
      assertThat(text).as(text).doesNotContainIgnoringCase("hashed SubPlan");
      assertThat(text).as(text).contains("Index");
    }
  }
}
