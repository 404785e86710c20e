package dev.asa.evaluators.code.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class SandboxTest {
  private static Sandbox sandbox;

  @BeforeAll
  static void sandbox() {
    sandbox = SandboxRequired.sandbox();
  }

  private static SandboxResult sh(String script, Map<String, String> files, Limits limits) {
    return sandbox.run(files, Command.of("/bin/sh", "-c", script), limits);
  }

  private static SandboxResult sh(String script) {
    return sh(script, Map.of(), Limits.defaults());
  }

  @Test
  void runsInTheWorkDirectoryWithTheFilesAndCapturesBothStreams() {
    SandboxResult r =
        sh(
            "pwd; cat a/b.txt; echo oops >&2; exit 3",
            Map.of("a/b.txt", "hello"),
            Limits.defaults());
    assertEquals(3, r.exitCode());
    assertEquals(Sandbox.WORK_DIR + "\nhello", r.stdout().strip());
    assertEquals("oops", r.stderr().strip());
    assertFalse(r.killed());
  }

  @Test
  void onlyTheWorkDirectoryAndTmpAreWritable() {
    SandboxResult r =
        sh(
            "touch /usr/x 2>/dev/null && echo usr; touch /etc/x 2>/dev/null && echo etc;"
                + " touch /x 2>/dev/null && echo root; touch /tmp/x && echo tmp; touch here && echo work");
    assertEquals("tmp\nwork", r.stdout().strip());
  }

  @Test
  void theHostsHomeWorkAndVarAreNotThere() {
    SandboxResult r = sh("ls -d /root /home /work /var /opt /srv /mnt 2>/dev/null; ls /; true");
    assertEquals(0, r.exitCode());
    assertFalse(r.stdout().contains("root\n") && r.stdout().contains("/root"), r.stdout());
    for (String absent : List.of("/root", "/home", "/work", "/var", "/opt")) {
      assertFalse(r.stdout().contains(absent + "\n"), absent + " visible: " + r.stdout());
    }
  }

  @Test
  void theWallClockKillsTheWholeSandbox() {
    long start = System.nanoTime();
    SandboxResult r =
        sh(
            "sleep 1000 & sleep 1000",
            Map.of(),
            Limits.defaults().withWallClock(Duration.ofSeconds(2)));
    assertTrue(r.timedOut());
    assertEquals(-1, r.exitCode());
    assertTrue(Duration.ofNanos(System.nanoTime() - start).compareTo(Duration.ofSeconds(60)) < 0);
  }

  @Test
  void tooMuchOutputKillsTheSandboxAndKeepsTheCap() {
    SandboxResult r = sh("yes", Map.of(), Limits.defaults().withOutputBytes(10_000));
    assertTrue(r.outputOverrun());
    assertEquals(10_000, r.stdout().length());
  }

  @Test
  void theCpuLimitKillsABusyLoop() {
    SandboxResult r =
        sh("while :; do :; done", Map.of(), Limits.defaults().withCpuTime(Duration.ofSeconds(1)));
    assertFalse(r.timedOut());
    assertEquals(9, r.apparentSignal().orElse(-1), "status " + r.exitCode());
  }

  @Test
  void aCollectedFileIsReadButALinkPlantedInItsPlaceIsNot() {
    Command write =
        Command.of("/bin/sh", "-c", "echo result > out.txt; ln -s /etc/passwd link.txt")
            .withCollect(List.of("out.txt", "link.txt"));
    SandboxResult r = sandbox.run(Map.of(), write, Limits.defaults());
    assertEquals(Map.of("out.txt", "result\n"), r.collected());
  }

  @Test
  void refusedFilesNeverReachTheDisk() {
    for (String bad : List.of("/etc/passwd", "../x", "a/../../x", "a//b", "./a", "a\\b", "")) {
      try {
        sandbox.run(Map.of(bad, "x"), Command.of("/usr/bin/true"), Limits.defaults());
        throw new AssertionError("accepted " + bad);
      } catch (RejectedFilesException expected) {
        assertFalse(expected.getMessage().isEmpty());
      }
    }
  }
}
