package dev.asa.evaluators.code.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
  void devIsReadOnlyAndDevShmIsASmallCappedTmpfs() {
    // bubblewrap's own /dev is a writable tmpfs of half the host's memory, outside every cap.
    SandboxResult r =
        sh(
            "touch /dev/x 2>/dev/null && echo dev;"
                + " dd if=/dev/zero of=/dev/shm/hoard bs=1M count=64 2>/dev/null;"
                + " echo shm $(wc -c < /dev/shm/hoard); echo null > /dev/null && echo null");
    assertEquals("shm 16777216\nnull", r.stdout().strip(), r.stderr());
  }

  @Test
  void filesHeldInTheTmpfsMountsCountAgainstTheTotalMemory() {
    // Files in a tmpfs are memory no process's RSS shows: 45 MiB in /tmp, 45 MiB in the work
    // directory and 12 MiB in /dev/shm, each within its own mount's size (and each file within
    // RLIMIT_FSIZE), pass 96 MiB together.
    SandboxResult r =
        sh(
            "for i in 1 2 3; do dd if=/dev/zero of=/tmp/a$i bs=1M count=15 2>/dev/null;"
                + " dd if=/dev/zero of=b$i bs=1M count=15 2>/dev/null; done;"
                + " dd if=/dev/zero of=/dev/shm/c bs=1M count=12 2>/dev/null; sleep 5; echo held",
            Map.of(),
            Limits.defaults().withTotalMemoryBytes(96L * 1024 * 1024));
    assertTrue(r.memoryOverrun(), r.stdout() + r.stderr());
    assertFalse(r.stdout().contains("held"));
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
  void aCollectedFileIsReadAndCannotBeSwappedForALink() {
    Command write =
        Command.of(
                "/bin/sh",
                "-c",
                "echo result > out.txt; rm -f link.txt; ln -sf /etc/passwd link.txt; echo $?")
            .withCollect(List.of("out.txt", "link.txt"));
    SandboxResult r = sandbox.run(Map.of(), write, Limits.defaults());
    assertEquals(Map.of("out.txt", "result\n"), r.collected());
    assertTrue(r.stderr().contains("link.txt"), r.stderr());
  }

  @Test
  void theWorkDirectoryIsASizeCappedCopyOfTheInput() {
    SandboxResult r =
        sh(
            "echo changed > a.txt && cat a.txt && cat /.sandbox-input/a.txt;"
                + " head -c 3000000 /dev/zero > big 2>/dev/null || echo full",
            Map.of("a.txt", "original"),
            Limits.defaults().withWorkDirBytes(1 << 20));
    assertEquals("changed\noriginalfull", r.stdout().strip());
  }

  @Test
  void hiddenPathsAreEmptyEvenInsideAReadOnlyBind(@TempDir Path host) throws IOException {
    Path data = Files.createDirectory(host.resolve("data"));
    Files.writeString(data.resolve("secret"), "s3cret");
    Files.writeString(host.resolve("visible"), "seen");
    // World-readable, as a data directory made with the usual umask is: only hiding keeps it out.
    for (Path p : List.of(host, data)) {
      Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    for (Path p : List.of(data.resolve("secret"), host.resolve("visible"))) {
      Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-r--r--"));
    }
    SandboxResult unhidden =
        sandbox.run(
            Map.of(),
            Command.of("/bin/cat", data + "/secret").withReadOnly(List.of(host.toRealPath())),
            Limits.defaults());
    assertEquals("s3cret", unhidden.stdout(), "the test's premise: readable when not hidden");
    Command look =
        Command.of(
                "/bin/sh",
                "-c",
                "cat " + host + "/visible; ls -A " + data + "; cat " + data + "/secret")
            .withReadOnly(List.of(host.toRealPath()));
    SandboxResult r = sandbox.hiding(List.of(data)).run(Map.of(), look, Limits.defaults());
    assertEquals("seen", r.stdout().strip());
    assertFalse(r.stdout().contains("s3cret"));
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
