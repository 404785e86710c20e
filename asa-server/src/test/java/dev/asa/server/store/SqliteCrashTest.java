package dev.asa.server.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Durability against a crash of the process: a child JVM commits in a loop and acknowledges each
 * commit; it is killed with SIGKILL (no shutdown hooks, no close) and every acknowledged commit
 * must be found intact afterwards. This is the guarantee WAL with synchronous=NORMAL gives.
 */
class SqliteCrashTest {

  private static final int ACKS_BEFORE_KILL = 50;

  @TempDir Path dir;

  @Test
  void everyAcknowledgedCommitSurvivesSigkill() throws Exception {
    Path file = dir.resolve("crash.db");
    String java = ProcessHandle.current().info().command().orElseThrow();
    Process child =
        new ProcessBuilder(
                java,
                "-cp",
                System.getProperty("java.class.path"),
                CrashWriter.class.getName(),
                file.toString())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    List<String> acked = new ArrayList<>();
    try {
      assertTimeoutPreemptively(
          Duration.ofSeconds(120),
          () -> {
            try (BufferedReader out =
                new BufferedReader(
                    new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
              String line;
              while (acked.size() < ACKS_BEFORE_KILL && (line = out.readLine()) != null) {
                if (line.startsWith("ACK ")) {
                  acked.add(line.substring(4));
                }
              }
            }
          });
    } finally {
      child.destroyForcibly(); // SIGKILL: the child is most likely in the middle of a commit
      assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(acked).hasSize(ACKS_BEFORE_KILL);
    assertThat(child.exitValue()).as("killed, not exited").isNotZero();

    try (Store store = Stores.open("sqlite:" + file, null)) {
      for (String id : acked) {
        assertThat(store.agreements().find(id)).as(id).contains(CrashWriter.version2(id));
        assertThat(store.events().log(id))
            .as(id)
            .containsExactly(TestRows.event(id, 1), TestRows.event(id, 2));
        assertThat(store.deliverables().latest(id)).as(id).contains(CrashWriter.deliverable(id));
      }
    }
  }
}
