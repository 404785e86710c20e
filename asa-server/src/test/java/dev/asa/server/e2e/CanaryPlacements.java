package dev.asa.server.e2e;

import dev.asa.integrity.CanarySchedule;
import dev.asa.server.ServerKey;
import dev.asa.testing.Fixtures;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Where the server under test will place an evaluator's scheduled canaries, computed as the server
 * computes it: from its own key in its data directory. A test that needs a canary beside the real
 * work (to see a failure void the real answer) or alone picks an evaluator whose schedule puts it
 * there, instead of hoping.
 */
final class CanaryPlacements {
  private final CanarySchedule schedule;

  /**
   * @param dataDir the data directory of a server that has started (its key is there)
   */
  CanaryPlacements(Path dataDir) {
    this.schedule = CanarySchedule.of(ServerKey.loadOrCreate(dataDir));
  }

  /**
   * The first of {@code prefix-1}, {@code prefix-2}, ... whose first {@code n} canaries come
   * beside.
   */
  String besideFor(String prefix, int n) {
    return find(prefix, n, true);
  }

  /** The first of {@code prefix-1}, ... whose first {@code n} canaries come alone. */
  String aloneFor(String prefix, int n) {
    return find(prefix, n, false);
  }

  private String find(String prefix, int n, boolean beside) {
    for (int i = 1; i < 10_000; i++) {
      String name = prefix + "-" + i;
      String key = Fixtures.key(name).publicKey().toBase64Url();
      boolean all = true;
      for (int c = 0; c < n && all; c++) {
        all =
            (schedule.placement(key, c, Duration.ofHours(1))
                    instanceof CanarySchedule.Placement.Beside)
                == beside;
      }
      if (all) {
        return name;
      }
    }
    throw new AssertionError("no evaluator name found with that placement");
  }

  /** The delay of the evaluator's canary number {@code n} when it comes alone. */
  Duration delayOf(String name, int n, Duration timeToAnswer) {
    String key = Fixtures.key(name).publicKey().toBase64Url();
    if (schedule.placement(key, n, timeToAnswer) instanceof CanarySchedule.Placement.Alone a) {
      return a.after();
    }
    throw new AssertionError(name + "'s canary " + n + " comes beside the real work");
  }
}
