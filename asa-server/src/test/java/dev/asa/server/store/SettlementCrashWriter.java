package dev.asa.server.store;

import dev.asa.agreement.Identity;
import dev.asa.integrity.CanaryCheck;
import dev.asa.integrity.EvaluatorProfile;
import dev.asa.server.store.verification.TaskRow;
import dev.asa.testing.Fixtures;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The child process of {@link SettlementKillContract}: settles canaries in a loop as a settlement
 * commits them (the task's end and the evaluator's record, {@link Write.EndTask} and {@link
 * Write.RecordCanary}, in one batch), printing "ACK &lt;id&gt;" once each is settled, until it is
 * killed.
 */
public final class SettlementCrashWriter {

  private SettlementCrashWriter() {}

  static final Instant T0 = Instant.parse("2026-12-06T10:00:00Z");

  static String evaluator(String prefix) {
    return Fixtures.key(prefix + "-judge").publicKey().toBase64Url();
  }

  public static void main(String[] args) {
    String url = args[0];
    String prefix = args[1];
    SplittableRandom random = new SplittableRandom(Long.parseLong(args[2]));
    Store store = Stores.open(url, null);
    String key = evaluator(prefix);
    if (store.evaluators().find(key).isEmpty()) {
      store
          .evaluators()
          .register(
              new EvaluatorProfile(
                  Fixtures.key(prefix + "-judge").publicKey(),
                  new Identity("api_key", prefix + "-judge", null),
                  "Judge",
                  "Org",
                  List.of("research"),
                  "judge-model-1",
                  new BigDecimal("0.30"),
                  List.of()),
              T0);
    }
    // Never closed on purpose: the process dies by SIGKILL in the middle of this loop.
    for (long n = System.nanoTime(); ; n++) {
      String id = prefix + "-task-" + n;
      store
          .writes()
          .apply(
              List.of(
                  new Write.PutTask(
                      new TaskRow(
                          id,
                          key,
                          null,
                          null,
                          TaskRow.Kind.CANARY,
                          "canary-" + n,
                          "research",
                          true,
                          null,
                          "the canary's content",
                          null,
                          TaskRow.Status.OPEN,
                          null,
                          T0,
                          T0.plusSeconds(3600),
                          null,
                          null))));
      int score = random.nextInt(101);
      CanaryCheck check =
          new CanaryCheck(
              "canary-" + n,
              true,
              List.of(
                  new CanaryCheck.DimensionCheck(
                      "accuracy",
                      BigDecimal.valueOf(50),
                      BigDecimal.valueOf(score),
                      BigDecimal.TEN)));
      store
          .writes()
          .apply(
              List.of(
                  new Write.EndTask(
                      id, TaskRow.Status.SETTLED, check.passed() ? "passed" : "failed", T0),
                  new Write.RecordCanary(key, check, T0)));
      System.out.println("ACK " + id);
      System.out.flush();
    }
  }
}
